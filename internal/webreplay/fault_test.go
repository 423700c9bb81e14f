package webreplay

import (
	"io"
	"net/http"
	"net/http/httptest"
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
