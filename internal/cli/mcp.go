package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"

	cdpproto "github.com/chromedp/cdproto/cdp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/loopback"
	"contractbench/internal/toolserver"
)

const mcpHelp = `
Runs the built-in browser tool server, speaking MCP over stdin and stdout,
for any MCP client. With --cdp it drives a browser that is already running
(the runner starts it this way, pointed at the browser it owns, with
--browser-context naming the task's own browser context). Without it,
it launches its own headless Chromium, and with --web replay serves the
suite's fixture web under the real host names, so it can be used as a
standalone browser server.

With --http ADDR it speaks MCP's streamable HTTP transport instead, at
http://ADDR/mcp, for MCP clients that connect by URL (coding agents, agent
frameworks); ADDR must be a loopback address (127.0.0.1:8931, or port 0
for any free port), since whoever reaches it drives the browser. The URL is
printed on stderr once the server listens.

Tools: navigate, read_page, find, click, type, press_key, select_option,
scroll, go_back, wait_for, screenshot, tabs. None runs JavaScript supplied
by the client.
`

func runMCP(st *State, args []string) error {
	fs := newFlags(st, "contractbench mcp [--cdp URL | --web live|replay [--suite DIR]] [--http ADDR]", mcpHelp)
	cdp := fs.String("cdp", "", "DevTools endpoint of a running browser (http://127.0.0.1:9222)")
	browserContext := fs.String("browser-context", "", "with --cdp: work only in this browser context (its id from Target.createBrowserContext): list, use and open its tabs alone")
	web := fs.String("web", "live", "without --cdp: live (the real network) or replay (the suite's fixture web)")
	suiteDir := fs.String("suite", defaultSuite, "suite whose web/ archive --web replay serves")
	httpAddr := fs.String("http", "", "serve MCP streamable HTTP at http://ADDR/mcp (a loopback address) instead of stdio")
	uploads := fs.String("uploads", "", "folder whose files upload_file may choose, by name (none when empty)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	var ln net.Listener
	if *httpAddr != "" {
		// Listen before the browser starts, so a bad address fails fast.
		var err error
		if ln, err = listenLoopback(*httpAddr); err != nil {
			return err
		}
		defer ln.Close()
	}
	ctx, cancel := st.Context()
	defer cancel()

	url := *cdp
	if url == "" {
		b, closeBrowser, err := launchOnWeb(ctx, st, "mcp", *suiteDir, *web)
		if err != nil {
			return err
		}
		defer closeBrowser()
		url = b.URL()
	} else if *web != "live" {
		return usagef("mcp: --web applies only without --cdp (the browser at --cdp has its own network)")
	}
	if *browserContext != "" && *cdp == "" {
		return usagef("mcp: --browser-context applies only with --cdp")
	}
	server, err := toolserver.New(ctx, toolserver.Options{BrowserURL: url, BrowserContext: cdpproto.BrowserContextID(*browserContext), Uploads: *uploads, Version: buildVersion()})
	if err != nil {
		return err
	}
	defer server.Close()
	if ln != nil {
		return serveHTTP(ctx, st, ln, server.MCP())
	}
	return server.MCP().Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(st.Stdin), Writer: nopWriteCloser{st.Stdout}})
}

// listenLoopback listens on addr, which must name a loopback host.
func listenLoopback(addr string) (net.Listener, error) {
	host, err := loopback.Check(addr)
	switch {
	case errors.Is(err, loopback.ErrNotLoopback):
		return nil, usagef("mcp: --http %q: %q is not a loopback address; whoever reaches the server drives the browser", addr, host)
	case err != nil:
		return nil, usagef("mcp: --http %q: %v (want HOST:PORT, e.g. 127.0.0.1:8931)", addr, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usagef("mcp: --http %q: %v", addr, err)
	}
	return ln, nil
}

// serveHTTP serves server over MCP streamable HTTP on ln until ctx ends.
func serveHTTP(ctx context.Context, st *State, ln net.Listener, server *mcp.Server) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	fmt.Fprintf(st.Stderr, "MCP streamable HTTP: http://%s/mcp\n", ln.Addr())
	if err := loopback.Serve(ctx, ln, mux); err != nil {
		return fmt.Errorf("mcp: serve http: %w", err)
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
