package webreplay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// While the switch is on, every request fails as it says and is kept;
// while it is off, the web answers as usual and nothing is kept.
func TestFaults(t *testing.T) {
	t.Parallel()
	var now atomic.Value
	now.Store(FaultNone)
	f := NewFaults(func() Fault { return now.Load().(Fault) })
	srv := httptest.NewServer(f.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "page")
	})))
	defer srv.Close()

	get := func(path string) (int, string, error) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	if code, body, err := get("/a"); err != nil || code != 200 || body != "page" {
		t.Fatalf("off: %d %q %v; want 200 page", code, body, err)
	}
	now.Store(FaultStatus)
	if code, _, err := get("/b"); err != nil || code != 500 {
		t.Fatalf("500: %d %v; want 500", code, err)
	}
	now.Store(FaultReset)
	if code, _, err := get("/c?x=1"); err == nil {
		t.Fatalf("reset: answered %d; want the connection dropped", code)
	}
	now.Store(FaultNone)
	if code, _, err := get("/d"); err != nil || code != 200 {
		t.Fatalf("off again: %d %v; want 200", code, err)
	}
	// A client retries a GET whose connection dropped (as browsers do),
	// so /c may be kept more than once.
	hits := f.Hits()
	base := "https://" + srv.Listener.Addr().String()
	if len(hits) < 2 || hits[0].URL != base+"/b" || hits[0].Reason != "fault injected: 500" {
		t.Fatalf("hits = %+v; want /b (500), then /c (reset)", hits)
	}
	for _, h := range hits[1:] {
		if h.URL != base+"/c?x=1" || h.Reason != "fault injected: reset" || h.Method != "GET" {
			t.Errorf("hit %+v; want GET /c?x=1 (reset)", h)
		}
	}
}

// A file's switch is the fault the file holds, read at each request, and
// off while it holds anything else or is absent.
func TestFaultFile(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "faults")
	f := NewFaults(FaultFile(file))
	srv := httptest.NewServer(f.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "page")
	})))
	defer srv.Close()
	for _, c := range []struct {
		content string // "-" for no file
		code    int    // 0 for a dropped connection
	}{
		{"-", 200}, {"500\n", 500}, {"", 200}, {" reset ", 0}, {"500 please", 200}, {"-", 200},
	} {
		os.Remove(file)
		if c.content != "-" {
			if err := os.WriteFile(file, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		resp, err := http.Get(srv.URL)
		code := 0
		if err == nil {
			code = resp.StatusCode
			resp.Body.Close()
		}
		if code != c.code {
			t.Errorf("file %q: %d (%v), want %d", c.content, code, err, c.code)
		}
	}
}
