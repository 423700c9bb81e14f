package webreplay

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// recordedHeaders are the response headers a recording keeps. Everything
// else (cookies, caching, security policies, server fingerprints) either
// changes between fetches, which would make archives churn, or ties the
// page to a session; a page that needs more is better served by a
// hand-made fixture.
var recordedHeaders = []string{
	"content-type",
	"location",
	"content-language",
	"content-disposition",
	"access-control-allow-origin",
	"access-control-allow-credentials",
	"access-control-allow-methods",
	"access-control-allow-headers",
	"access-control-expose-headers",
}

// forwardedHeaders are the request headers passed upstream: enough for a
// site to pick the same representation it gives a browser. Cookies are not
// forwarded so a recording never captures a session, and Accept-Encoding
// is left to the client's transport, which then decodes the body itself.
var forwardedHeaders = []string{"Accept", "Accept-Language", "User-Agent", "Content-Type"}

// maxBodyBytes bounds one recorded request or response body.
const maxBodyBytes = 64 << 20

// A Recorder is the handler that fetches every request from the real site
// and adds the response to an archive. The browser gets exactly what a
// later replay of the archive will serve (the same status, kept headers and
// body), so a recording that works is a replay that works.
type Recorder struct {
	archive *Archive
	client  *http.Client
	misses  missLog
}

// Record returns the handler recording into a with client, which it uses
// to fetch https://<host><path>?<query> for every request. The client's
// redirect policy is overridden: redirects are recorded as entries, and
// the browser follows them. A nil client means http.DefaultClient.
func Record(a *Archive, client *http.Client) *Recorder {
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Recorder{archive: a, client: &c}
}

// Archive returns the archive being recorded into, to Write at the end.
func (rec *Recorder) Archive() *Archive { return rec.archive }

// Misses returns the requests whose upstream fetch failed so far, in order.
func (rec *Recorder) Misses() []Miss { return rec.misses.list() }

func (rec *Recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resp, err := rec.fetch(r)
	if err != nil {
		u := requestURL(r)
		rec.misses.add(Miss{Method: r.Method, URL: u, Time: time.Now(), Reason: err.Error()})
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprintf(w, "webreplay: recording %s %s: %v\n", r.Method, u, err)
		return
	}
	writeResponse(w, r, resp)
}

// fetch gets r from upstream, adds the response to the archive and returns
// it as the archive will serve it.
func (rec *Recorder) fetch(r *http.Request) (*Response, error) {
	// HEAD is recorded as GET: the archive answers HEAD from the GET
	// entry, so that is the entry a later replay needs.
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	var body io.Reader
	if r.Body != nil && method != http.MethodGet {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
		if err != nil {
			return nil, fmt.Errorf("read request body: %w", err)
		}
		if len(b) > maxBodyBytes {
			return nil, fmt.Errorf("request body larger than %d bytes", maxBodyBytes)
		}
		body = bytes.NewReader(b)
	}
	target := "https://" + r.Host + r.URL.EscapedPath()
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	req, err := http.NewRequestWithContext(r.Context(), method, target, body)
	if err != nil {
		return nil, fmt.Errorf("upstream request: %w", err)
	}
	for _, name := range forwardedHeaders {
		if v := r.Header.Values(name); len(v) > 0 {
			req.Header[name] = v
		}
	}

	up, err := rec.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	defer up.Body.Close()
	if ce := up.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		// The transport decodes gzip it asked for; anything else would
		// be stored encoded under a header that is not kept.
		return nil, fmt.Errorf("upstream sent content-encoding %q, which the recorder cannot decode", ce)
	}
	data, err := io.ReadAll(io.LimitReader(up.Body, maxBodyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("upstream body: %w", err)
	}
	if len(data) > maxBodyBytes {
		return nil, fmt.Errorf("upstream body larger than %d bytes", maxBodyBytes)
	}

	e := Entry{
		Method: method,
		Path:   r.URL.EscapedPath(),
		Query:  canonicalQuery(r.URL.RawQuery),
		Status: up.StatusCode,
		Header: make(map[string]string),
	}
	for _, name := range recordedHeaders {
		// A value the archive could not store (a malformed content
		// type, say) is dropped rather than failing the page.
		if v := up.Header.Get(name); v != "" && checkHeader(name, v) == "" {
			e.Header[name] = v
		}
	}
	if len(data) > 0 && e.Header["content-type"] == "" {
		// What net/http would have sniffed for the browser; recorded
		// explicitly so the replay says the same.
		e.Header["content-type"] = http.DetectContentType(data)
	}
	if !bodyAllowed(up.StatusCode) {
		data = nil
	}
	recd, err := rec.archive.add(requestHost(r), e, data, "")
	if err != nil {
		return nil, err
	}
	resp := *recd.response
	resp.Header = resp.Header.Clone()
	return &resp, nil
}
