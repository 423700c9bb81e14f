package webreplay

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// A Miss is a request the server could not answer from the archive: in
// replay, a request the archive lacks; in record, a request whose upstream
// fetch failed.
type Miss struct {
	Method string
	// URL is the full URL the browser asked for, https://<host><path>?<query>.
	URL    string
	Time   time.Time
	Reason string
}

// missLog collects misses; it is safe for concurrent use.
type missLog struct {
	mu     sync.Mutex
	misses []Miss
}

func (l *missLog) add(m Miss) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.misses = append(l.misses, m)
}

func (l *missLog) list() []Miss {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.misses)
}

// A Replayer is the handler that answers every request from an archive and
// nothing else: a request the archive lacks gets 404 and is logged as a
// Miss, so a run that strays from its fixtures is visible rather than
// silently served from the network.
type Replayer struct {
	archive *Archive
	misses  missLog
	served  servedLog
}

// servedLog collects the digest of every response served, by the request
// that asked for it; it is safe for concurrent use.
type servedLog struct {
	mu     sync.Mutex
	digest map[string]string
}

func (l *servedLog) add(request string, body []byte) {
	sum := sha256.Sum256(body)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.digest == nil {
		l.digest = make(map[string]string)
	}
	l.digest[request] = hex.EncodeToString(sum[:])
}

// ServedDigest is a SHA-256 over every archived response served so far:
// each request ("GET https://host/path?query") with the SHA-256 of the
// body it got, sorted. Two runs that saw the same fixture pages have the
// same digest; an edit of any page one of them saw changes it. It is ""
// when nothing was served.
func (p *Replayer) ServedDigest() string {
	p.served.mu.Lock()
	defer p.served.mu.Unlock()
	if len(p.served.digest) == 0 {
		return ""
	}
	keys := slices.Sorted(maps.Keys(p.served.digest))
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s %s\n", k, p.served.digest[k])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Replay returns the handler serving a. a may still be added to while it
// serves.
func Replay(a *Archive) *Replayer {
	return &Replayer{archive: a}
}

// Misses returns the requests answered with a miss so far, in order.
func (p *Replayer) Misses() []Miss { return p.misses.list() }

func (p *Replayer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resp, ok := p.archive.Lookup(r.Method, requestHost(r), r.URL.EscapedPath(), r.URL.RawQuery)
	if !ok {
		u := requestURL(r)
		p.misses.add(Miss{Method: r.Method, URL: u, Time: time.Now(), Reason: "not in the archive"})
		// Not http.Error: it adds X-Content-Type-Options, which no
		// archived response has, and a miss should look like one.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, "webreplay: no archive entry for %s %s\n", r.Method, u)
		return
	}
	p.served.add(r.Method+" "+requestURL(r), resp.Body)
	writeResponse(w, r, resp)
}

// writeResponse sends resp exactly: its headers, status and body (none for
// HEAD).
func writeResponse(w http.ResponseWriter, r *http.Request, resp *Response) {
	h := w.Header()
	for name, vs := range resp.Header {
		h[name] = vs
	}
	w.WriteHeader(resp.Status)
	if r.Method != http.MethodHead {
		w.Write(resp.Body)
	}
}

// requestHost is the host name of r, without port, in lower case.
func requestHost(r *http.Request) string {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.ToLower(host)
}

// requestURL is the https URL r asked for.
func requestURL(r *http.Request) string {
	return "https://" + r.Host + r.URL.RequestURI()
}
