package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

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

	if _, err := callAction(ctx, sess, profile, servers.ActNavigate, map[string]any{"{url}": url}); err != nil {
		return err
	}
	page, err := callAction(ctx, sess, profile, servers.ActRead, nil)
	if err != nil {
		return err
	}
	w := st.Stdout
	fmt.Fprintf(w, "## %s (%s)\n%s\n", profile.Tool(servers.ActRead), profile.Name(), strings.TrimRight(page, "\n"))
	targets, err := profile.Targets(page)
	if err != nil {
		return fmt.Errorf("reading the %s reply: %w", profile.Tool(servers.ActRead), err)
	}
	for _, q := range finds {
		if err := printFind(ctx, w, sess, profile, q, targets); err != nil {
			return err
		}
	}
	printTargets(w, targets)
	return nil
}

// callAction plays action a as the profile maps it. A tool error is an
// error here: there is no page to print when the server did not reach it.
func callAction(ctx context.Context, sess *mcpclient.Session, profile *servers.Profile, a servers.Action, values map[string]any) (string, error) {
	c, err := profile.Call(a, values)
	if err != nil {
		return "", err
	}
	res, err := sess.Call(ctx, c.Name, c.Args)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.Name, err)
	}
	if res.IsError {
		return "", fmt.Errorf("%s: %s", c.Name, res.Text)
	}
	return res.Text, nil
}

// printFind prints the built-in find tool's reply to query q, and puts
// the links it finds again, now with their URLs, in place of the ones
// without in targets.
func printFind(ctx context.Context, w io.Writer, sess *mcpclient.Session, profile *servers.Profile, q string, targets []servers.Target) error {
	res, err := sess.Call(ctx, "find", []byte(fmt.Sprintf(`{"query":%s}`, strconv.Quote(q))))
	if err != nil {
		return fmt.Errorf("find: %w", err)
	}
	fmt.Fprintf(w, "\n## find %q\n%s\n", q, strings.TrimRight(res.Text, "\n"))
	found, err := profile.Targets(res.Text)
	if err != nil {
		return err
	}
	for _, f := range found {
		for i := range targets {
			if targets[i].Ref == f.Ref {
				targets[i] = f
			}
		}
	}
	return nil
}

// printTargets prints each target as a reference step writes it, warning
// where a role and name alone do not single one out.
func printTargets(w io.Writer, targets []servers.Target) {
	fmt.Fprintf(w, "\n## targets (%d)\n", len(targets))
	same := map[string]int{}
	for _, t := range targets {
		same[t.Role+"\x00"+t.Name]++
	}
	for _, t := range targets {
		fmt.Fprintf(w, "target: {role: %s, name: %s", t.Role, strconv.Quote(t.Name))
		if t.Href != "" {
			fmt.Fprintf(w, ", href: %s", strconv.Quote(t.Href))
		}
		fmt.Fprintf(w, "}  # %s", t.Ref)
		if n := same[t.Role+"\x00"+t.Name]; n > 1 {
			fmt.Fprintf(w, "; %d %ss have this name: add href, or the reference stops as ambiguous", n, t.Role)
		}
		fmt.Fprintln(w)
	}
}
