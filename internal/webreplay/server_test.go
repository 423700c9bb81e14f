package webreplay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// startServer starts a Server for the test and closes it at the end.
func startServer(t *testing.T, h http.Handler, opts ServerOptions) *Server {
	t.Helper()
	s, err := NewServer(h, opts)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// clientFor returns a client that reaches s for every host name, as
// Chromium does under the server's --host-resolver-rules, trusts the
// server's CA, and does not follow redirects.
func clientFor(t *testing.T, s *Server) *http.Client {
	t.Helper()
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: caPool(s)},
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", s.Addr())
		},
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{
		Transport:     tr,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// fetched is what a client saw of one response.
type fetched struct {
	Status int
	Header http.Header
	Body   string
}

func fetch(t *testing.T, c *http.Client, method, url string, body io.Reader, header http.Header) fetched {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	return fetched{Status: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

func TestServerCertificates(t *testing.T) {
	t.Parallel()
	s := startServer(t, Replay(NewArchive("")), ServerOptions{})
	spkis := map[string]bool{}
	tests := []struct {
		name      string
		sni       string // "" dials by IP address, which sends no SNI
		wantNames []string
	}{
		{"wikipedia", "en.wikipedia.org", []string{"en.wikipedia.org"}},
		{"example", "example.com", []string{"example.com"}},
		{"mdn", "developer.mozilla.org", []string{"developer.mozilla.org"}},
		{"upper-case SNI", "EXAMPLE.org", []string{"example.org"}},
		{"no SNI", "", []string{"localhost"}},
	}
	for _, tt := range tests {
		// Sequential: the subtests share spkis.
		t.Run(tt.name, func(t *testing.T) {
			conn, err := tls.Dial("tcp", s.Addr(), &tls.Config{ServerName: tt.sni, RootCAs: caPool(s)})
			if err != nil {
				t.Fatalf("TLS to %s as %q: %v", s.Addr(), tt.sni, err)
			}
			defer conn.Close()
			leaf := conn.ConnectionState().PeerCertificates[0]
			if !slices.Equal(leaf.DNSNames, tt.wantNames) {
				t.Errorf("certificate names %v, want %v", leaf.DNSNames, tt.wantNames)
			}
			sum := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
			got := base64.StdEncoding.EncodeToString(sum[:])
			if got != s.ca.spki {
				t.Errorf("leaf SPKI hash %s, want SPKIHash() %s", got, s.ca.spki)
			}
			spkis[got] = true
		})
	}
	if len(spkis) != 1 {
		t.Errorf("leaves carry %d different keys, want one key for every host", len(spkis))
	}
	other := startServer(t, Replay(NewArchive("")), ServerOptions{})
	if other.ca.spki == s.ca.spki {
		t.Errorf("two servers share the SPKI hash %s; each needs fresh keys", s.ca.spki)
	}
	if _, err := tls.Dial("tcp", s.Addr(), &tls.Config{ServerName: "example.com", RootCAs: caPool(other)}); err == nil {
		t.Errorf("a certificate verified against another server's CA")
	}
}

func TestServerReplay(t *testing.T) {
	t.Parallel()
	rp := Replay(lookupArchive(t))
	s := startServer(t, rp, ServerOptions{})
	c := clientFor(t, s)
	tests := []struct {
		name       string
		method     string
		url        string
		wantStatus int
		wantBody   string
		wantHeader map[string]string
	}{
		{"page", "GET", "https://en.wikipedia.org/wiki/Eiffel_Tower", 200, "eiffel",
			map[string]string{"Content-Type": "text/html; charset=utf-8", "Content-Length": "6"}},
		{"exact query", "GET", "https://en.wikipedia.org/w/index.php?title=Special:Search&search=tower", 200, "exact query", nil},
		{"wildcard query", "GET", "https://en.wikipedia.org/w/index.php?search=anything", 200, "any query", nil},
		{"escaped path", "GET", "https://en.wikipedia.org/wiki/Caf%C3%A9", 200, "cafe", nil},
		{"redirect is served, not followed", "GET", "https://en.wikipedia.org/", 301, "",
			map[string]string{"Location": "/wiki/Main_Page"}},
		{"HEAD answered from GET", "HEAD", "https://en.wikipedia.org/wiki/Eiffel_Tower", 200, "",
			map[string]string{"Content-Type": "text/html; charset=utf-8", "Content-Length": "6"}},
		{"POST", "POST", "https://en.wikipedia.org/api", 200, `{"ok":true}`, nil},
		{"second host", "GET", "https://example.com/", 200, "example", nil},
		{"miss", "GET", "https://en.wikipedia.org/wiki/Nothing?x=1", 404,
			"webreplay: no archive entry for GET https://en.wikipedia.org/wiki/Nothing?x=1\n",
			map[string]string{"Content-Type": "text/plain; charset=utf-8"}},
		{"miss on unknown host", "GET", "https://example.org/", 404,
			"webreplay: no archive entry for GET https://example.org/\n", nil},
		{"miss on method", "DELETE", "https://example.com/", 404,
			"webreplay: no archive entry for DELETE https://example.com/\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := fetch(t, c, tt.method, tt.url, nil, nil)
			if got.Status != tt.wantStatus || got.Body != tt.wantBody {
				t.Errorf("%s %s = %d %q, want %d %q", tt.method, tt.url, got.Status, got.Body, tt.wantStatus, tt.wantBody)
			}
			for name, want := range tt.wantHeader {
				if v := got.Header.Get(name); v != want {
					t.Errorf("%s %s: %s = %q, want %q", tt.method, tt.url, name, v, want)
				}
			}
			if _, ok := got.Header["Date"]; ok {
				t.Errorf("%s %s: has a Date header; replays must not vary", tt.method, tt.url)
			}
		})
	}
	t.Cleanup(func() {
		var got []string
		for _, m := range rp.Misses() {
			if m.Time.IsZero() || m.Reason == "" {
				t.Errorf("miss %+v lacks a time or reason", m)
			}
			got = append(got, m.Method+" "+m.URL)
		}
		slices.Sort(got)
		want := []string{
			"DELETE https://example.com/",
			"GET https://en.wikipedia.org/wiki/Nothing?x=1",
			"GET https://example.org/",
		}
		if !slices.Equal(got, want) {
			t.Errorf("Misses() = %q, want %q", got, want)
		}
	})
}

func TestServerSpeaksHTTP2(t *testing.T) {
	t.Parallel()
	s := startServer(t, Replay(lookupArchive(t)), ServerOptions{})
	c := clientFor(t, s)
	c.Transport.(*http.Transport).ForceAttemptHTTP2 = true
	resp, err := c.Get("https://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.ProtoMajor != 2 || string(body) != "example" {
		t.Errorf("GET over an h2-capable client: %s %q, want HTTP/2 %q", resp.Proto, body, "example")
	}
	if _, ok := resp.Header["Date"]; ok {
		t.Errorf("HTTP/2 response has a Date header")
	}
}

func TestServerRedirectsPlainHTTP(t *testing.T) {
	t.Parallel()
	s := startServer(t, Replay(lookupArchive(t)), ServerOptions{})
	c := clientFor(t, s)
	got := fetch(t, c, "GET", "http://en.wikipedia.org/wiki/Eiffel_Tower?a=1", nil, nil)
	want := "https://en.wikipedia.org/wiki/Eiffel_Tower?a=1"
	if got.Status != http.StatusMovedPermanently || got.Header.Get("Location") != want {
		t.Errorf("plain GET = %d Location %q, want 301 Location %q", got.Status, got.Header.Get("Location"), want)
	}
	if _, ok := got.Header["Date"]; ok {
		t.Errorf("plain-HTTP redirect has a Date header")
	}

	// A client that follows redirects ends on the archived page, the way
	// a browser following an http:// link does.
	c.CheckRedirect = nil
	if got := fetch(t, c, "GET", "http://en.wikipedia.org/wiki/Eiffel_Tower", nil, nil); got.Status != 200 || got.Body != "eiffel" {
		t.Errorf("following the redirect: %d %q, want 200 %q", got.Status, got.Body, "eiffel")
	}
}

func TestServerResponsesAreByteIdentical(t *testing.T) {
	t.Parallel()
	a := lookupArchive(t)
	raw := func(s *Server, target string) []byte {
		conn, err := tls.Dial("tcp", s.Addr(), &tls.Config{
			ServerName: "en.wikipedia.org",
			RootCAs:    caPool(s),
			NextProtos: []string{"http/1.1"},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: en.wikipedia.org\r\nConnection: close\r\n\r\n", target)
		data, err := io.ReadAll(conn)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// Two servers stand for two runs: different ports, keys and times.
	first := startServer(t, Replay(a), ServerOptions{})
	second := startServer(t, Replay(a), ServerOptions{})
	for _, target := range []string{"/wiki/Eiffel_Tower", "/", "/missing"} {
		x, y := raw(first, target), raw(second, target)
		if !bytes.Equal(x, y) {
			t.Errorf("GET %s differs between runs:\n%s\n---\n%s", target, x, y)
		}
		if !bytes.HasPrefix(x, []byte("HTTP/1.1 ")) || bytes.Contains(x, []byte("\r\nDate:")) {
			t.Errorf("GET %s: want an HTTP/1.1 response without Date, got:\n%s", target, x)
		}
	}
}

func TestServerChromiumFlags(t *testing.T) {
	t.Parallel()
	replay := startServer(t, Replay(NewArchive("")), ServerOptions{Hosts: []string{"example.com", "en.wikipedia.org", "example.com"}})
	record := startServer(t, Record(NewArchive(""), nil), ServerOptions{})
	tests := []struct {
		name string
		s    *Server
		want []string
	}{
		{"replay maps the given hosts, sorted, and nothing else", replay, []string{
			fmt.Sprintf("--host-resolver-rules=MAP en.wikipedia.org %[1]s, MAP example.com %[1]s, MAP * ~NOTFOUND", replay.Addr()),
			"--ignore-certificate-errors-spki-list=" + replay.ca.spki,
		}},
		{"record maps every host but loopback", record, []string{
			fmt.Sprintf("--host-resolver-rules=MAP * %s, EXCLUDE localhost, EXCLUDE 127.0.0.1", record.Addr()),
			"--ignore-certificate-errors-spki-list=" + record.ca.spki,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.s.ChromiumFlags()
			if !slices.Equal(got, tt.want) {
				t.Errorf("ChromiumFlags() =\n%q\nwant\n%q", got, tt.want)
			}
			for _, f := range got {
				if f == "--ignore-certificate-errors" {
					t.Errorf("ChromiumFlags() contains the blanket --ignore-certificate-errors")
				}
			}
			if !strings.HasPrefix(tt.s.Addr(), "127.0.0.1:") || tt.s.ln.Addr().(*net.TCPAddr).Port == 0 {
				t.Errorf("server listens on %s, want 127.0.0.1 and a real port", tt.s.Addr())
			}
		})
	}
}

func TestServerMissesConcurrently(t *testing.T) {
	t.Parallel()
	rp := Replay(NewArchive(""))
	s := startServer(t, rp, ServerOptions{})
	c := clientFor(t, s)
	const workers, each = 8, 5
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				resp, err := c.Get(fmt.Sprintf("https://example.com/%d/%d", w, i))
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, m := range rp.Misses() {
		seen[m.URL] = true
	}
	if len(seen) != workers*each {
		t.Errorf("Misses() holds %d distinct URLs, want %d", len(seen), workers*each)
	}
}

func TestServerSilentConnectionBlocksNothing(t *testing.T) {
	t.Parallel()
	s, err := NewServer(Replay(lookupArchive(t)), ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	silent, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	if got := fetch(t, clientFor(t, s), "GET", "https://example.com/", nil, nil); got.Body != "example" {
		t.Errorf("with a silent connection open: body %q, want %q", got.Body, "example")
	}

	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v with a silent connection pending; want it closed at once", d)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if conn, err := net.DialTimeout("tcp", s.Addr(), time.Second); err == nil {
		conn.Close()
		t.Errorf("dial after Close succeeded")
	}
}

func TestNewServerRejectsBadHosts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, host, wantErr string
	}{
		{"rule injection", "a.example, MAP * 10.0.0.1", "not a host name"},
		{"upper case", "Example.com", "not lower case"},
		{"port", "example.com:443", "has a port"},
		{"empty", "", "empty host name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := NewServer(Replay(NewArchive("")), ServerOptions{Hosts: []string{"example.com", tt.host}})
			if err == nil {
				s.Close()
				t.Fatalf("NewServer with host %q succeeded; want an error", tt.host)
			}
			if !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.host)) {
				t.Errorf("NewServer with host %q: error %q, want one naming the host and containing %q", tt.host, err, tt.wantErr)
			}
		})
	}
}

func TestServerCertificatesFollowTheClock(t *testing.T) {
	t.Parallel()
	at := time.Date(2031, 5, 1, 12, 0, 0, 0, time.UTC)
	s := startServer(t, Replay(NewArchive("")), ServerOptions{Now: func() time.Time { return at }})
	tests := []struct {
		name   string
		when   time.Time
		wantOK bool
	}{
		{"at the server's time", at, true},
		{"within the day", at.Add(23 * time.Hour), true},
		{"today, by the real clock", time.Now(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			conn, err := tls.Dial("tcp", s.Addr(), &tls.Config{
				ServerName: "example.com",
				RootCAs:    caPool(s),
				Time:       func() time.Time { return tt.when },
			})
			if err == nil {
				conn.Close()
			}
			if (err == nil) != tt.wantOK {
				t.Errorf("verifying at %v: error %v, want success %v", tt.when, err, tt.wantOK)
			}
		})
	}
}

// TestServerIsAProxy reaches the server the way a browser context with
// proxyServer set does: through CONNECT tunnels (and plain requests in
// absolute form), for the archive's hosts only.
func TestServerIsAProxy(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s", r.Host, r.URL.Path)
	})
	s := startServer(t, h, ServerOptions{Hosts: []string{"example.com", "docs.example.org"}})
	if got, want := s.ProxyURL(), "http://"+s.Addr(); got != want {
		t.Errorf("ProxyURL = %q, want %q", got, want)
	}
	if got := s.ProxyBypass(); got != "<-loopback>" {
		t.Errorf("ProxyBypass = %q, want <-loopback>: loopback must go through the proxy too", got)
	}
	proxy, err := url.Parse(s.ProxyURL())
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{RootCAs: caPool(s)}}
	t.Cleanup(tr.CloseIdleConnections)
	c := &http.Client{Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	for u, want := range map[string]string{"https://example.com/a": "example.com /a", "https://docs.example.org/b/c": "docs.example.org /b/c"} {
		if got := fetch(t, c, "GET", u, nil, nil); got.Status != 200 || got.Body != want {
			t.Errorf("GET %s through the proxy: %d %q, want 200 %q", u, got.Status, got.Body, want)
		}
	}
	if got := fetch(t, c, "GET", "http://example.com/p?q=1", nil, nil); got.Status != http.StatusMovedPermanently || got.Header.Get("Location") != "https://example.com/p?q=1" {
		t.Errorf("plain GET through the proxy: %d, Location %q; want a redirect to https", got.Status, got.Header.Get("Location"))
	}
	if got := fetch(t, c, "GET", "http://elsewhere.net/", nil, nil); got.Status != http.StatusBadGateway {
		t.Errorf("plain GET of another host through the proxy: %d, want 502", got.Status)
	}
	for _, u := range []string{"https://elsewhere.net/", "https://127.0.0.1/", "https://example.com:8443/"} {
		if resp, err := c.Get(u); err == nil {
			resp.Body.Close()
			t.Errorf("GET %s through the proxy: %s, want the tunnel refused", u, resp.Status)
		}
	}
}

// TestServersShareAnAuthority: two servers made with one Authority carry
// the same key, so the one pin its ChromiumFlag gives covers both.
func TestServersShareAnAuthority(t *testing.T) {
	a, err := NewAuthority()
	if err != nil {
		t.Fatal(err)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	s1 := startServer(t, h, ServerOptions{Hosts: []string{"example.com"}, Authority: a})
	s2 := startServer(t, h, ServerOptions{Hosts: []string{"example.com"}, Authority: a})
	s3 := startServer(t, h, ServerOptions{Hosts: []string{"example.com"}})
	want := "--ignore-certificate-errors-spki-list=" + s1.ca.spki
	if a.ChromiumFlag() != want || s2.ca.spki != s1.ca.spki {
		t.Errorf("flag %q, pins %s and %s; want both servers under %q", a.ChromiumFlag(), s1.ca.spki, s2.ca.spki, want)
	}
	if s3.ca.spki == s1.ca.spki {
		t.Errorf("a server without the authority has its key: %s", s3.ca.spki)
	}
}

// caPool returns a pool holding s's CA certificate, for a Go client that
// talks to s directly.
func caPool(s *Server) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(s.ca.caCert)
	return p
}
