package webreplay

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// An Entry is one response of an archive as index.yaml describes it, minus
// its body. The zero values of Method, Query and Status mean GET, "no
// query" and 200, as in the file.
type Entry struct {
	// Method is the request method the entry answers.
	Method string
	// Path is the request path as a browser sends it: starting with "/",
	// percent-encoded, without query or fragment. Lookups compare paths
	// with percent-escapes decoded.
	Path string
	// Query is "" (matches only a request without a query), a query in
	// the form CanonicalQuery returns (matches exactly that query), or "*"
	// (matches any query; for pages whose script reads the query).
	Query string
	// Status is the HTTP status code, 200 through 599.
	Status int
	// Header holds the response headers, one value per lower-case name.
	// When a body has no content-type, the archive infers one (from the
	// body file's extension on Open, from the path's extension on Add) and
	// stores it here.
	Header map[string]string
}

// A Response is what the server sends for an entry. Header holds every
// header it sends, with canonical names and Content-Length included, so a
// HEAD request can be answered from it without the body.
type Response struct {
	Status int
	Header http.Header
	// Body is shared with the archive and must not be modified.
	Body []byte
}

// An Archive is a set of recorded responses keyed by host, method, path and
// query. It is safe for concurrent use: a Recorder adds to it while the
// server answers other requests.
type Archive struct {
	mu          sync.RWMutex
	description string
	hosts       map[string]map[entryKey]*record
}

// entryKey identifies an entry within its host. path is decoded (see
// matchPath); query is canonical or "*".
type entryKey struct {
	method, path, query string
}

type record struct {
	entry    Entry // defaults filled in
	body     []byte
	response *Response
}

// NewArchive returns an empty archive; description ends up in archive.yaml.
func NewArchive(description string) *Archive {
	return &Archive{description: description, hosts: make(map[string]map[entryKey]*record)}
}

// Description returns the free text from archive.yaml.
func (a *Archive) Description() string {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.description
}

// Hosts returns the host names of the archive, sorted.
func (a *Archive) Hosts() []string {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return slices.Sorted(maps.Keys(a.hosts))
}

// Entries returns the entries of host sorted by path, method and query,
// with their defaults filled in. The caller may modify the result.
func (a *Archive) Entries(host string) []Entry {
	a.mu.RLock()
	defer a.mu.RUnlock()
	recs := sortedRecords(a.hosts[host])
	entries := make([]Entry, len(recs))
	for i, r := range recs {
		entries[i] = r.entry
		entries[i].Header = maps.Clone(r.entry.Header)
	}
	return entries
}

// Add stores the response for host described by e with its body, replacing
// any entry with the same method, path and query (a page fetched twice
// while recording keeps its last response). It returns an error naming the
// entry if host or e is invalid; the archive is then unchanged.
func (a *Archive) Add(host string, e Entry, body []byte) error {
	// A copy, so the caller may reuse its buffer.
	_, err := a.add(host, e, bytes.Clone(body), "")
	return err
}

// add is Add for both the loader and the recorder. bodyFile names the file
// the body came from; when the entry has no content-type, its type is
// inferred from bodyFile, or from the path when bodyFile is "".
func (a *Archive) add(host string, e Entry, body []byte, bodyFile string) (*record, error) {
	e = withDefaults(e)
	if msg := checkHost(host); msg != "" {
		return nil, fmt.Errorf("add %s %s%s: host: %s", e.Method, host, e.Path, msg)
	}
	if issues := checkEntry(e, len(body) > 0); len(issues) > 0 {
		msgs := make([]string, len(issues))
		for i, is := range issues {
			msgs[i] = is.field + ": " + is.msg
		}
		return nil, fmt.Errorf("add %s %s%s: %s", e.Method, host, e.Path, strings.Join(msgs, "; "))
	}
	if len(body) > 0 && e.Header["content-type"] == "" {
		if bodyFile == "" {
			bodyFile = e.Path
		}
		if e.Header == nil {
			e.Header = make(map[string]string, 1)
		}
		e.Header["content-type"] = inferType(bodyFile)
	}
	if len(body) == 0 {
		body = nil // one spelling of "no body", whoever built the entry
	}
	r := &record{entry: e, body: body, response: newResponse(e, body)}
	a.mu.Lock()
	defer a.mu.Unlock()
	entries := a.hosts[host]
	if entries == nil {
		entries = make(map[entryKey]*record)
		a.hosts[host] = entries
	}
	entries[keyOf(e)] = r
	return r, nil
}

// Lookup finds the response for a request. host is the bare host name (no
// port); path is the request path, escaped or not; rawQuery is the query as
// sent. An entry with the request's canonical query wins over one with
// query "*". HEAD is answered from the GET entry, with the same headers and
// no body. The returned Response's Header is the caller's to modify.
func (a *Archive) Lookup(method, host, path, rawQuery string) (*Response, bool) {
	head := method == http.MethodHead
	if head {
		method = http.MethodGet
	}
	key := entryKey{method: method, path: matchPath(path), query: canonicalQuery(rawQuery)}

	a.mu.RLock()
	entries := a.hosts[strings.ToLower(host)]
	r, ok := entries[key]
	if !ok {
		key.query = wildcardQuery
		r, ok = entries[key]
	}
	a.mu.RUnlock()
	if !ok {
		return nil, false
	}

	resp := &Response{Status: r.response.Status, Header: r.response.Header.Clone(), Body: r.response.Body}
	if head {
		resp.Body = nil
	}
	return resp, true
}

func keyOf(e Entry) entryKey {
	return entryKey{method: e.Method, path: matchPath(e.Path), query: e.Query}
}

// newResponse builds the response of an entry once, so that every request
// for it is answered with the same bytes.
func newResponse(e Entry, body []byte) *Response {
	h := make(http.Header, len(e.Header)+1)
	for name, v := range e.Header {
		h.Set(name, v)
	}
	if bodyAllowed(e.Status) {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	return &Response{Status: e.Status, Header: h, Body: body}
}

// sortedRecords returns the records of one host in the order Write and
// Entries use.
func sortedRecords(entries map[entryKey]*record) []*record {
	recs := make([]*record, 0, len(entries))
	for _, r := range entries {
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(x, y *record) int {
		return cmp.Or(
			strings.Compare(x.entry.Path, y.entry.Path),
			strings.Compare(x.entry.Method, y.entry.Method),
			strings.Compare(x.entry.Query, y.entry.Query),
		)
	})
	return recs
}
