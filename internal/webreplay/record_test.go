package webreplay

import (
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// towerPNG is a few bytes that are not valid UTF-8, so a body mangled as
// text would show.
var towerPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\xff\xfe")

// upstream is a stand-in for the live web: one TLS server answering for
// en.wikipedia.org and upload.wikimedia.org.
type upstream struct {
	srv *httptest.Server

	mu      sync.Mutex
	cookies []string // Cookie headers it received
}

func startUpstream(t *testing.T) *upstream {
	t.Helper()
	u := &upstream{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET en.wikipedia.org/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/wiki/Main_Page", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET en.wikipedia.org/wiki/{page}", func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		u.cookies = append(u.cookies, r.Header.Get("Cookie"))
		u.mu.Unlock()
		// Headers a recording must drop: they vary or carry a session.
		w.Header().Set("Set-Cookie", "session=abc")
		w.Header().Set("Cache-Control", "max-age=60")
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.Header().Set("Content-Language", "en")
		fmt.Fprintf(w, "<h1>%s</h1>", r.PathValue("page"))
	})
	mux.HandleFunc("GET en.wikipedia.org/w/index.php", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		fmt.Fprintf(w, "results for %s", r.URL.Query().Get("search"))
	})
	mux.HandleFunc("GET en.wikipedia.org/compressed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			io.WriteString(w, "plain text, stored decoded")
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, "plain text, stored decoded")
		zw.Close()
	})
	mux.HandleFunc("GET en.wikipedia.org/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // stop net/http from sniffing
		io.WriteString(w, "<!DOCTYPE html><p>no type")
	})
	mux.HandleFunc("GET en.wikipedia.org/brotli", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "br")
		io.WriteString(w, "\x0b\x02\x80garbage")
	})
	mux.HandleFunc("POST en.wikipedia.org/api", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		fmt.Fprintf(w, `{"echo":%q}`, body)
	})
	mux.HandleFunc("GET upload.wikimedia.org/tower.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(towerPNG)
	})
	// Everything else is a 404 from the site itself, which is recorded
	// like any page (only a request the archive lacks is a miss).
	u.srv = httptest.NewUnstartedServer(mux)
	u.srv.StartTLS()
	t.Cleanup(u.srv.Close)
	return u
}

// client returns what the CLI would inject: a real client, here with a
// dialer that sends every host to the upstream server and trust in its
// test certificate, which is issued for example.com.
func (u *upstream) client() *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(u.srv.Certificate())
	return &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "example.com"},
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, "tcp", u.srv.Listener.Addr().String())
			},
		},
	}
}

// browsing is the traffic of the round-trip test, as a browser would send
// it through the server.
var browsing = []struct {
	method, url, body string
}{
	{"GET", "https://en.wikipedia.org/", ""},
	{"GET", "https://en.wikipedia.org/wiki/Main_Page", ""},
	{"GET", "https://en.wikipedia.org/w/index.php?search=tower&title=Special:Search", ""},
	{"GET", "https://en.wikipedia.org/w/index.php?search=bridge", ""},
	{"GET", "https://en.wikipedia.org/compressed", ""},
	{"GET", "https://en.wikipedia.org/untyped", ""},
	{"GET", "https://en.wikipedia.org/missing", ""},
	{"POST", "https://en.wikipedia.org/api", "q=1"},
	{"HEAD", "https://en.wikipedia.org/wiki/Head_Only", ""},
	{"GET", "https://upload.wikimedia.org/tower.png", ""},
}

func TestRecordWriteOpenReplay(t *testing.T) {
	t.Parallel()
	up := startUpstream(t)
	rec := Record(NewArchive("recorded in a test"), up.client())
	recSrv := startServer(t, rec, ServerOptions{})
	browser := clientFor(t, recSrv)
	// The browser carries a cookie; it must not reach the site.
	sent := http.Header{"Cookie": {"session=browser"}, "Content-Type": {"application/x-www-form-urlencoded"}}

	recorded := make([]fetched, len(browsing))
	for i, b := range browsing {
		recorded[i] = fetch(t, browser, b.method, b.url, strings.NewReader(b.body), sent)
	}
	if m := rec.Misses(); len(m) != 0 {
		t.Fatalf("recording missed %+v", m)
	}

	// What the browser saw while recording.
	wantRecorded := []struct {
		status int
		body   string
		header map[string]string
	}{
		{301, "<a href=\"/wiki/Main_Page\">Moved Permanently</a>.\n\n", map[string]string{"Location": "/wiki/Main_Page"}},
		{200, "<h1>Main_Page</h1>", map[string]string{"Content-Type": "text/html; charset=UTF-8", "Content-Language": "en", "Set-Cookie": "", "Cache-Control": ""}},
		{200, "results for tower", nil},
		{200, "results for bridge", nil},
		{200, "plain text, stored decoded", map[string]string{"Content-Encoding": ""}},
		{200, "<!DOCTYPE html><p>no type", map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{404, "404 page not found\n", nil},
		{200, `{"echo":"q=1"}`, map[string]string{"Access-Control-Allow-Origin": "*"}},
		{200, "", map[string]string{"Content-Length": "18"}},
		{200, string(towerPNG), map[string]string{"Content-Type": "image/png"}},
	}
	for i, w := range wantRecorded {
		got, b := recorded[i], browsing[i]
		if got.Status != w.status || got.Body != w.body {
			t.Errorf("recording %s %s: %d %q, want %d %q", b.method, b.url, got.Status, got.Body, w.status, w.body)
		}
		for name, want := range w.header {
			if v := got.Header.Get(name); v != want {
				t.Errorf("recording %s %s: %s = %q, want %q", b.method, b.url, name, v, want)
			}
		}
	}
	up.mu.Lock()
	for _, c := range up.cookies {
		if c != "" {
			t.Errorf("upstream received Cookie %q; recording must not forward the browser's cookies", c)
		}
	}
	up.mu.Unlock()

	dir := filepath.Join(t.TempDir(), "web")
	if err := rec.Archive().Write(dir); err != nil {
		t.Fatalf("Write: %v", err)
	}
	a, err := Open(dir)
	if err != nil {
		t.Fatalf("Open of the recording: %v", err)
	}
	if got := strings.Join(a.Hosts(), " "); got != "en.wikipedia.org upload.wikimedia.org" {
		t.Errorf("recorded hosts %q", got)
	}

	rp := Replay(a)
	replaySrv := startServer(t, rp, ServerOptions{Hosts: a.Hosts()})
	player := clientFor(t, replaySrv)
	for i, b := range browsing {
		got := fetch(t, player, b.method, b.url, strings.NewReader(b.body), sent)
		if !reflect.DeepEqual(got, recorded[i]) {
			t.Errorf("replay of %s %s differs from the recording:\n got %+v\nwant %+v", b.method, b.url, got, recorded[i])
		}
	}
	// HEAD was recorded as the GET entry, so GET replays with a body.
	if got := fetch(t, player, "GET", "https://en.wikipedia.org/wiki/Head_Only", nil, nil); got.Status != 200 || got.Body != "<h1>Head_Only</h1>" {
		t.Errorf("GET of a page recorded through HEAD: %d %q", got.Status, got.Body)
	}
	if m := rp.Misses(); len(m) != 0 {
		t.Errorf("replay of the recorded browsing missed %+v", m)
	}
}

type failingTransport struct{}

func (failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("network is down")
}

func TestRecordFailures(t *testing.T) {
	t.Parallel()
	up := startUpstream(t)
	tests := []struct {
		name       string
		client     *http.Client
		url        string
		wantReason string
	}{
		{"upstream unreachable", &http.Client{Transport: failingTransport{}}, "https://en.wikipedia.org/wiki/X", "network is down"},
		{"undecodable encoding", up.client(), "https://en.wikipedia.org/brotli", `content-encoding "br"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := Record(NewArchive(""), tt.client)
			s := startServer(t, rec, ServerOptions{})
			got := fetch(t, clientFor(t, s), "GET", tt.url, nil, nil)
			if got.Status != http.StatusBadGateway || !strings.Contains(got.Body, tt.url) || !strings.Contains(got.Body, tt.wantReason) {
				t.Errorf("GET %s = %d %q, want 502 naming the URL and %q", tt.url, got.Status, got.Body, tt.wantReason)
			}
			misses := rec.Misses()
			if len(misses) != 1 || misses[0].URL != tt.url || !strings.Contains(misses[0].Reason, tt.wantReason) {
				t.Errorf("Misses() = %+v, want one for %s with reason %q", misses, tt.url, tt.wantReason)
			}
			if hosts := rec.Archive().Hosts(); len(hosts) != 0 {
				t.Errorf("a failed fetch was recorded: hosts %v", hosts)
			}
		})
	}
}
