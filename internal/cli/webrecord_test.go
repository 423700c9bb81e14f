package cli

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/webreplay"
)

// What --web record captured is written in the archive format, where
// replay reads it back, and never over the suite's hand-made web/.
func TestSaveRecording(t *testing.T) {
	upstream := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<h1>captured %s</h1>", r.URL.Path)
	}))
	defer upstream.Close()
	client := &http.Client{Transport: &http.Transport{
		// Every host is the local upstream: the recorder asks for the real
		// host name, the test answers it.
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, upstream.Listener.Addr().String())
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}}
	rec := webreplay.Record(webreplay.NewArchive("test capture"), client)
	req := httptest.NewRequest(http.MethodGet, "https://example.com/page", nil)
	rec.ServeHTTP(httptest.NewRecorder(), req)

	suiteDir := t.TempDir()
	dir := recordedArchiveDir(suiteDir, "")
	if want := filepath.Join(suiteDir, "web-recorded"); dir != want {
		t.Errorf("default capture folder %s, want %s", dir, want)
	}
	st, stdout, _ := testState(nil)
	if err := saveRecording(st, rec, dir); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "recorded 1 host(s) into "+dir) {
		t.Errorf("output %q", stdout)
	}
	a, err := webreplay.Open(dir)
	if err != nil {
		t.Fatalf("the capture does not open as an archive: %v", err)
	}
	resp, ok := a.Lookup(http.MethodGet, "example.com", "/page", "")
	if !ok || resp.Status != 200 || string(resp.Body) != "<h1>captured /page</h1>" {
		t.Errorf("replayed capture: ok=%v %+v", ok, resp)
	}
	if r := run(t, nil, "run", "--suite", "../../benchmarks/webvoyager", "--record-to", t.TempDir()); r.code != exitUsage ||
		!strings.Contains(r.stderr, "--record-to applies only with --web record") {
		t.Errorf("--record-to without --web record: %s", r)
	}
}
