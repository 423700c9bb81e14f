package cli

import (
	"io"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/servers"
	"contractbench/internal/toolserver"
	"contractbench/internal/webreplay"
)

var mcpCommand = command{
	name:    "mcp",
	summary: "run the built-in MCP browser tool server over stdio",
	run:     runMCP,
}

const mcpHelp = `
Runs the built-in browser tool server, speaking MCP over stdin and stdout,
for any MCP client. With --cdp it drives a browser that is already running
(the runner starts it this way, pointed at the browser it owns). Without it,
it launches its own headless Chromium, and with --web replay serves the
suite's fixture web under the real host names, so it can be used as a
standalone browser server.

Tools: navigate, read_page, find, click, type, press_key, select_option,
scroll, go_back, wait_for, screenshot, tabs. None runs JavaScript supplied
by the client.
`

func runMCP(st *State, args []string) error {
	fs := newFlags(st, "contractbench mcp [--cdp URL | --web live|replay [--suite DIR]]", mcpHelp)
	cdp := fs.String("cdp", "", "DevTools endpoint of a running browser (http://127.0.0.1:9222)")
	web := fs.String("web", "live", "without --cdp: live (the real network) or replay (the suite's fixture web)")
	suiteDir := fs.String("suite", defaultSuite, "suite whose web/ archive --web replay serves")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("mcp: unexpected argument %q", fs.Arg(0))
	}
	ctx, cancel := st.Context()
	defer cancel()

	url := *cdp
	if url == "" {
		opts := browser.Options{ExecPath: st.Getenv("CONTRACTBENCH_CHROMIUM"), NoSandbox: st.Root, Env: servers.ChildEnv(st.Environ())}
		switch *web {
		case "live":
		case "replay":
			archive, err := webreplay.Open(filepath.Join(*suiteDir, "web"))
			if err != nil {
				return asUsage(err)
			}
			srv, err := webreplay.NewServer(webreplay.Replay(archive), webreplay.ServerOptions{Hosts: archive.Hosts()})
			if err != nil {
				return err
			}
			defer srv.Close()
			opts.Flags = srv.ChromiumFlags()
		default:
			return usagef("mcp: --web %q: want live or replay", *web)
		}
		b, err := browser.Launch(ctx, opts)
		if err != nil {
			return err
		}
		defer b.Close()
		url = b.URL()
	} else if *web != "live" {
		return usagef("mcp: --web applies only without --cdp (the browser at --cdp has its own network)")
	}
	server, err := toolserver.New(ctx, toolserver.Options{BrowserURL: url, Version: Version()})
	if err != nil {
		return err
	}
	defer server.Close()
	return server.MCP().Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(st.Stdin), Writer: nopWriteCloser{st.Stdout}})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
