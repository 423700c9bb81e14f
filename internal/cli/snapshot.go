package cli

import (
	"cmp"
	"fmt"
	"os"

	"contractbench/internal/inputs"
	"contractbench/internal/mcpclient"
	"contractbench/internal/servers"
)

const snapshotHelp = `
Opens URL in a fresh headless Chromium, over the suite's fixture web by
default, through a tool server (the built-in one unless --server says
otherwise), and prints what the agent would read there: the server's own
page snapshot (read_page's text for the built-in server), then every
element a reference step can name, one per line, written as the step's
target:

  target: {role: link, name: "Window: fetch() method", href: "/en-US/docs/Web/API/Window/fetch"}

The built-in server's page text gives no link URLs; --find QUERY (built-in
server only, repeatable) adds the find tool's reply, which does, and is the
very call "record --agent reference" makes before acting on a target
(role:link NAME for a link, the name alone for a field).

Roles are link, button, field (anything typed into), select and tab.
docs/benchmarks/authoring.md explains how to write a task with them.
`

func runSnapshot(st *State, args []string) error {
	fs := newFlags(st, "contractbench snapshot [--web replay|live] [--server NAME] [--find QUERY]... URL", snapshotHelp)
	web := fs.String("web", "replay", "replay (the suite's fixture web) or live (the real network)")
	suiteDir := fs.String("suite", defaultSuite, "suite whose web/ archive --web replay serves")
	server := fs.String("server", "builtin", "MCP tool server: builtin, playwright or chrome-devtools (see --servers)")
	serversFile := fs.String("servers", "", "file describing the MCP tool servers (default: servers.yaml beside the suite folder)")
	var finds stringList
	fs.Var(&finds, "find", "with the built-in server: also print the find tool's reply to QUERY (repeatable)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("snapshot: want exactly one URL, got %d arguments", fs.NArg())
	}
	url := fs.Arg(0)
	var set *servers.Set
	file := cmp.Or(*serversFile, inputs.ServersFileOf(*suiteDir))
	if *serversFile != "" || fileExists(file) {
		var err error
		if set, err = inputs.LoadServers(file); err != nil {
			return asUsage(err)
		}
	}
	profile, root, err := inputs.Server(set, file, *server)
	if err != nil {
		return asUsage(err)
	}
	if len(finds) > 0 && profile.Format() != servers.FormatBuiltin {
		return usagef("snapshot: --find needs the built-in server, not %s", profile.Name())
	}
	ctx, cancel := st.Context()
	defer cancel()

	b, closeBrowser, err := launchOnWeb(ctx, st, "snapshot", *suiteDir, *web)
	if err != nil {
		return err
	}
	defer closeBrowser()
	workDir, err := os.MkdirTemp("", "contractbench-snapshot-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(workDir)
	transport, err := profile.Transport(servers.Spawn{Root: root, Self: st.Executable, CDPURL: b.URL(), WorkDir: workDir, Environ: st.Environ()})
	if err != nil {
		return err
	}
	sess, err := mcpclient.Connect(ctx, transport, mcpclient.Options{ClientName: "contractbench snapshot"})
	if err != nil {
		return fmt.Errorf("starting the %s server: %w", profile.Name(), err)
	}
	defer sess.Close()

	return profile.WritePage(ctx, st.Stdout, sess, url, finds)
}
