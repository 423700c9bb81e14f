package webreplay

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ServerOptions configures a Server. The zero value listens on a free
// loopback port and maps every host name to the server.
type ServerOptions struct {
	// Port is the TCP port on 127.0.0.1; 0 picks a free one.
	Port int
	// Hosts are the names ChromiumFlags sends to the server; the browser
	// then resolves no other name, so a replay cannot leak to the network.
	// Empty sends every name to the server, which is what recording needs.
	Hosts []string
	// Now is the clock used for certificate validity; nil means time.Now.
	Now func() time.Time
	// Authority, when set, is the certificate authority the server mints
	// its certificates with, shared with other servers so that one SPKI
	// pin (Authority.ChromiumFlag) covers them all; nil makes a fresh one
	// for the server alone.
	Authority *Authority
}

// Authority is a certificate authority that several servers can share: a
// browser launched with its ChromiumFlag accepts the certificates of every
// server made with it, and no other. It lives in memory only.
type Authority struct{ ca *authority }

// NewAuthority makes a fresh authority.
func NewAuthority() (*Authority, error) {
	ca, err := newAuthority(time.Now)
	if err != nil {
		return nil, fmt.Errorf("replay authority: %w", err)
	}
	return &Authority{ca}, nil
}

// ChromiumFlag returns --ignore-certificate-errors-spki-list with the
// authority's one leaf key.
func (a *Authority) ChromiumFlag() string {
	return "--ignore-certificate-errors-spki-list=" + a.ca.spki
}

// sniffTimeout bounds how long a new connection may stay silent before the
// server gives up on telling TLS from plain HTTP. Browsers open spare
// connections ahead of need, so it is generous.
const sniffTimeout = 30 * time.Second

// A Server answers HTTPS for any host name on one loopback port, with h
// behind it (Replay or Record). The same port answers plain HTTP with a
// redirect to https, so an http:// link mapped to it still works.
//
// The port is also an HTTP proxy for the same web (ProxyURL): a CONNECT to
// one of its hosts opens a tunnel that the server itself answers, with its
// certificates, as if the browser had reached it through the resolver
// rules. A browser can be pointed at it without launch flags, per browser
// context (Target.createBrowserContext's proxyServer), which is how a
// browser already running elsewhere gets the replay web.
type Server struct {
	ln    net.Listener
	ca    *authority
	hosts []string

	tlsConns, plainConns *connQueue
	tlsSrv, plainSrv     *http.Server
	wg                   sync.WaitGroup

	mu      sync.Mutex
	pending map[net.Conn]struct{} // accepted, not yet sniffed
	closed  bool
}

// NewServer listens on 127.0.0.1 and starts serving h until Close. Its
// certificates come from a fresh in-process authority: nothing is written
// to disk and nothing outlives the Server.
func NewServer(h http.Handler, opts ServerOptions) (*Server, error) {
	for _, host := range opts.Hosts {
		// The names end up in a Chromium flag; a stray comma or space
		// would change its meaning.
		if msg := checkHost(host); msg != "" {
			return nil, fmt.Errorf("replay server: host %q: %s", host, msg)
		}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	var ca *authority
	if opts.Authority != nil {
		ca = opts.Authority.ca
	} else {
		var err error
		if ca, err = newAuthority(now); err != nil {
			return nil, fmt.Errorf("replay server: %w", err)
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.Port)))
	if err != nil {
		return nil, fmt.Errorf("replay server: %w", err)
	}
	// Connection errors (failed TLS handshakes, above all) are no news.
	errLog := log.New(io.Discard, "", 0)
	hosts := slices.Clone(opts.Hosts)
	slices.Sort(hosts)
	s := &Server{
		ln:         ln,
		ca:         ca,
		hosts:      slices.Compact(hosts),
		tlsConns:   newConnQueue(ln.Addr()),
		plainConns: newConnQueue(ln.Addr()),
		pending:    make(map[net.Conn]struct{}),
	}
	s.tlsSrv = &http.Server{
		Handler:           withoutDate(h),
		ErrorLog:          errLog,
		ReadHeaderTimeout: time.Minute,
	}
	s.plainSrv = &http.Server{
		Handler:           withoutDate(http.HandlerFunc(s.plain)),
		ErrorLog:          errLog,
		ReadHeaderTimeout: time.Minute,
	}
	tlsLn := tls.NewListener(s.tlsConns, &tls.Config{
		GetCertificate: ca.getCertificate,
		MinVersion:     tls.VersionTLS12,
		NextProtos:     []string{"h2", "http/1.1"},
	})
	s.wg.Add(3)
	go func() { defer s.wg.Done(); s.tlsSrv.Serve(tlsLn) }()
	go func() { defer s.wg.Done(); s.plainSrv.Serve(s.plainConns) }()
	go func() { defer s.wg.Done(); s.acceptLoop() }()
	return s, nil
}

// Addr returns the address the server listens on, "127.0.0.1:<port>".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// ChromiumFlags returns the flags that send a Chromium's traffic for the
// server's hosts here and make it accept the server's certificates:
//
//	--host-resolver-rules=MAP <host> 127.0.0.1:<port>, ..., MAP * ~NOTFOUND
//	--ignore-certificate-errors-spki-list=<the leaf key's SHA-256 SPKI hash>
//
// With no Hosts every name maps to the server except localhost and
// 127.0.0.1, so pages on loopback keep working while recording (MAP *
// applies to IP literals too). Chromium honours the SPKI list only when it
// is started with --user-data-dir.
func (s *Server) ChromiumFlags() []string {
	target := s.Addr()
	var rules []string
	if len(s.hosts) == 0 {
		rules = []string{"MAP * " + target, "EXCLUDE localhost", "EXCLUDE 127.0.0.1"}
	} else {
		for _, h := range s.hosts {
			rules = append(rules, "MAP "+h+" "+target)
		}
		rules = append(rules, "MAP * ~NOTFOUND")
	}
	return []string{
		"--host-resolver-rules=" + strings.Join(rules, ", "),
		"--ignore-certificate-errors-spki-list=" + s.ca.spki,
	}
}

// ProxyURL returns the server as an HTTP proxy, http://127.0.0.1:<port>.
func (s *Server) ProxyURL() string { return "http://" + s.Addr() }

// ProxyBypass returns the proxy bypass list that matches ChromiumFlags: with
// Hosts, "<-loopback>", so even loopback addresses go through the proxy,
// which refuses them as it refuses every name not in Hosts; without, ""
// (Chromium's default), so pages on loopback stay reachable while
// recording.
func (s *Server) ProxyBypass() string {
	if len(s.hosts) == 0 {
		return ""
	}
	return "<-loopback>"
}

// Close stops the server and closes every connection. It waits for the
// serving goroutines to end, not for in-flight handlers.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	for c := range s.pending {
		c.Close()
	}
	s.mu.Unlock()

	err := s.ln.Close()
	s.tlsConns.Close()
	s.plainConns.Close()
	err = errors.Join(err, s.tlsSrv.Close(), s.plainSrv.Close())
	s.wg.Wait()
	if err != nil {
		return fmt.Errorf("replay server: close: %w", err)
	}
	return nil
}

// acceptLoop hands every connection to sniff, which routes it to the TLS
// or the plain HTTP server.
func (s *Server) acceptLoop() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Temporary failures (out of file descriptors) must not
			// end the server; back off briefly.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if !s.admit(c) {
			return
		}
		go s.sniff(c)
	}
}

// admit counts c among the connections Close waits for and holds it as
// pending until route has read its first byte; on a closed server it
// closes c instead and reports false. An admitted connection's goroutine
// calls s.wg.Done when it ends.
func (s *Server) admit(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		c.Close()
		return false
	}
	s.pending[c] = struct{}{}
	s.wg.Add(1)
	return true
}

// sniff reads the first byte of c: a TLS handshake record starts with
// 0x16, anything else is taken for plain HTTP. Reading happens here, not
// in acceptLoop, so a silent connection cannot hold up the others.
func (s *Server) sniff(c net.Conn) {
	defer s.wg.Done()
	s.route(c, c)
}

// route reads the first byte of c and hands it to the TLS or the plain
// server; key is c's entry in pending.
func (s *Server) route(key, c net.Conn) {
	br := bufio.NewReaderSize(c, 1)
	c.SetReadDeadline(time.Now().Add(sniffTimeout))
	first, err := br.Peek(1)
	c.SetReadDeadline(time.Time{})

	s.mu.Lock()
	delete(s.pending, key)
	closed := s.closed
	s.mu.Unlock()
	if err != nil || closed {
		c.Close()
		return
	}
	pc := &peekedConn{Conn: c, r: br}
	if first[0] == 0x16 {
		s.tlsConns.push(pc)
	} else {
		s.plainConns.push(pc)
	}
}

// plain answers the plain HTTP side of the port: a CONNECT opens a tunnel
// to the server itself; anything else is redirected to https.
func (s *Server) plain(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		// A request through the proxy names its host in an absolute URL;
		// one to a host outside the web is refused as a tunnel would be.
		if r.URL.Host != "" && !s.serves(r.URL.Hostname()) {
			http.Error(w, "not a host of the replay web: "+r.URL.Hostname(), http.StatusBadGateway)
			return
		}
		redirectToHTTPS(w, r)
		return
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || (port != "443" && port != "80") {
		http.Error(w, "the replay proxy tunnels to ports 443 and 80 only", http.StatusForbidden)
		return
	}
	if !s.serves(host) {
		// As the resolver rules' MAP * ~NOTFOUND: no such host.
		http.Error(w, "not a host of the replay web: "+host, http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "tunnels need HTTP/1.1", http.StatusHTTPVersionNotSupported)
		return
	}
	c, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	if _, err := c.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		c.Close()
		return
	}
	// What the client sent after its CONNECT is already in rw's buffer.
	if !s.admit(c) {
		return
	}
	go func() {
		defer s.wg.Done()
		s.route(c, &peekedConn{Conn: c, r: rw.Reader})
	}()
}

// serves reports whether the server answers for host: one of Hosts, or any
// host when there are none.
func (s *Server) serves(host string) bool {
	if len(s.hosts) == 0 {
		return true
	}
	_, ok := slices.BinarySearch(s.hosts, strings.ToLower(host))
	return ok
}

// redirectToHTTPS answers plain HTTP: the same URL, over https, on the
// default port, which the browser's resolver rules map back here.
func redirectToHTTPS(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, port, err := net.SplitHostPort(host); err == nil && port == "80" {
		host = h
	}
	http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusMovedPermanently)
}

// withoutDate stops net/http from adding a Date header, the one part of a
// response that would differ between two replays of the same archive.
func withoutDate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil
		h.ServeHTTP(w, r)
	})
}

// peekedConn is a connection whose first bytes were read into r.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// connQueue is a net.Listener fed by the sniffer instead of a socket.
type connQueue struct {
	addr   net.Addr
	conns  chan net.Conn
	done   chan struct{}
	closer sync.Once
}

func newConnQueue(addr net.Addr) *connQueue {
	return &connQueue{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

// push hands c to Accept, or closes it if the queue is closed.
func (q *connQueue) push(c net.Conn) {
	select {
	case q.conns <- c:
	case <-q.done:
		c.Close()
	}
}

func (q *connQueue) Accept() (net.Conn, error) {
	select {
	case c := <-q.conns:
		return c, nil
	case <-q.done:
		return nil, net.ErrClosed
	}
}

func (q *connQueue) Close() error {
	q.closer.Do(func() { close(q.done) })
	return nil
}

func (q *connQueue) Addr() net.Addr { return q.addr }
