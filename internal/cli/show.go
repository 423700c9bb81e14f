package cli

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"

	"contractbench/internal/loopback"
	"contractbench/internal/report"
)

const showHelp = `
Renders the HTML report of a run from its JSON report, also one written by
an earlier version, with the screenshots and step thumbnails found beside
it embedded: one file that needs nothing else, offline or attached to a CI
run. Writes it beside the JSON under the same name with .html (or to
--html) and prints its path; with --serve, serves it on loopback instead
and prints the address, until interrupted.

Exit codes: 0 written or served; 2 bad usage or a report that cannot be
read.
`

func runShow(st *State, args []string) error {
	fs := newFlags(st, "contractbench show [--serve] [--html FILE] REPORT.json", showHelp)
	out := fs.String("html", "", "file to write (default: beside the JSON, named like it with .html)")
	serve := fs.Bool("serve", false, "serve the page on loopback instead of writing it")
	addr := fs.String("addr", "127.0.0.1:0", "with --serve: loopback address and port to listen on (0 picks a free port)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("show: want one REPORT.json, got %d arguments (run contractbench show --help)", fs.NArg())
	}
	if *serve {
		if *out != "" {
			return usagef("show: --html and --serve exclude each other")
		}
		if err := checkLoopback(*addr); err != nil {
			return err
		}
	}
	path := fs.Arg(0)
	run, err := readRunReport(path, true)
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := report.WriteHTML(&page, run); err != nil {
		return err
	}
	if *serve {
		return serveHTML(st, *addr, page.Bytes())
	}
	dest := cmp.Or(*out, strings.TrimSuffix(path, filepath.Ext(path))+".html")
	written, err := report.WriteFile(filepath.Dir(dest), filepath.Base(dest), page.Bytes())
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	fmt.Fprintln(st.Stdout, written)
	return nil
}

// checkLoopback returns a usage error unless addr is a loopback address
// with a port.
func checkLoopback(addr string) error {
	_, err := loopback.Check(addr)
	switch {
	case errors.Is(err, loopback.ErrNotLoopback):
		return usagef("show: --addr %q: only a loopback address is served (127.0.0.1, ::1 or localhost)", addr)
	case err != nil:
		return usagef("show: --addr %q: %v", addr, err)
	}
	return nil
}

// serveHTML serves page at / on addr, a loopback address, until the
// command is interrupted.
func serveHTML(st *State, addr string, page []byte) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// The page loads nothing; say so to the browser as well.
		w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
		w.Write(page)
	})
	ctx, cancel := st.Context()
	defer cancel()
	fmt.Fprintf(st.Stdout, "serving http://%s/ (interrupt to stop)\n", ln.Addr())
	if err := loopback.Serve(ctx, ln, mux); err != nil {
		return fmt.Errorf("show: %w", err)
	}
	return nil
}
