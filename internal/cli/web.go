package cli

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"contractbench/internal/runner"
	"contractbench/internal/webreplay"
)

const webHelp = `
Subcommands:
  serve   serve the suite's fixture archive over HTTPS on loopback under the
          real host names, and print the Chromium flags to browse it by hand
  check   for every task, open its start URL and run its reference solution
          in Chromium under replay; print each page's status and final URL;
          exit 1 on any request the archive lacks

Run "contractbench web <subcommand> --help" for flags.
`

func runWeb(st *State, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs := newFlags(st, "contractbench web serve|check [flags]", webHelp)
		if err := parse(fs, args); err != nil {
			return err
		}
		return usagef("web: name a subcommand: serve or check")
	}
	switch args[0] {
	case "serve":
		return runWebServe(st, args[1:])
	case "check":
		return runWebCheck(st, args[1:])
	}
	return usagef("web: unknown subcommand %q (serve or check)", args[0])
}

const webServeHelp = `
Serves the fixture archive of a suite (<suite>/web, or --archive) on
127.0.0.1 over HTTPS, with a certificate for every host minted by an
in-process CA on one key pair, and prints the Chromium flags that map the
archive's hosts to it and pin its key. Nothing but the archive's hosts
resolves in a browser started with those flags. For the sandbox suite
(benchmarks/sandbox) it also serves the sandbox's sites, with one state for
the whole session. Stops on Ctrl-C and lists the requests the archive
lacked.
`

func runWebServe(st *State, args []string) error {
	fs := newFlags(st, "contractbench web serve [--suite DIR | --archive DIR] [--port N]", webServeHelp)
	suiteDir := fs.String("suite", defaultSuite, "suite folder whose web/ archive to serve")
	archiveDir := fs.String("archive", "", "archive folder to serve (overrides --suite)")
	port := fs.Int("port", 0, "port on 127.0.0.1 (0 picks a free one)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("web serve: unexpected argument %q", fs.Arg(0))
	}
	dir := cmp.Or(*archiveDir, filepath.Join(*suiteDir, "web"))
	archive, err := webreplay.Open(dir)
	if err != nil {
		return asUsage(err)
	}
	replay := webreplay.Replay(archive)
	srv, err := webreplay.NewServer(runner.ReplayHandler(archive, replay), webreplay.ServerOptions{Port: *port, Hosts: archive.Hosts()})
	if err != nil {
		return err
	}
	defer srv.Close()
	ctx, cancel := st.Context()
	defer cancel()
	fmt.Fprintf(st.Stdout, "serving %s (%d hosts) on https://%s\n\n", dir, len(archive.Hosts()), srv.Addr())
	fmt.Fprintf(st.Stdout, "browse it with:\n  chromium --user-data-dir=$(mktemp -d) \\\n")
	for _, f := range srv.ChromiumFlags() {
		fmt.Fprintf(st.Stdout, "    '%s' \\\n", f)
	}
	fmt.Fprintf(st.Stdout, "    https://%s/\n\nCtrl-C stops.\n", archive.Hosts()[0])
	<-ctx.Done()
	misses := replay.Misses()
	fmt.Fprintf(st.Stdout, "\n%d request(s) the archive lacked\n", len(misses))
	for _, m := range misses {
		fmt.Fprintf(st.Stdout, "  %s %s\n", m.Method, m.URL)
	}
	return nil
}
