package webreplay

import (
	"fmt"
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
