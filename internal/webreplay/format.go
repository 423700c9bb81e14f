package webreplay

import (
	"fmt"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
)

// formatVersion is the archive format this package reads and writes. It is
// stored in archive.yaml so that a future change of layout is detected
// instead of misread.
const formatVersion = 1

// wildcardQuery is the index.yaml query that matches any query string.
const wildcardQuery = "*"

// methods are the request methods an entry may answer. HEAD is missing on
// purpose: it is always answered from the GET entry.
var methods = []string{
	http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions,
}

// canonicalQuery returns the form of a raw query string that index.yaml
// stores and Lookup compares: parameters sorted by key, then value, each
// query-escaped, joined with "&". Two queries a browser could send for the
// same parameters ("b=2&a=1", "a=1&b=2", "a=%31&b=2") therefore match one
// entry. A query that does not parse (a bad escape, a semicolon) is returned
// unchanged, so it can still be recorded and matched byte for byte.
func canonicalQuery(raw string) string {
	if raw == "" {
		return ""
	}
	values, err := url.ParseQuery(raw)
	if err != nil {
		return raw
	}
	type param struct{ key, value string }
	var params []param
	for k, vs := range values {
		for _, v := range vs {
			params = append(params, param{k, v})
		}
	}
	slices.SortFunc(params, func(a, b param) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p.key))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(p.value))
	}
	return b.String()
}

// matchPath is the form of a request path used as a lookup key: percent
// escapes decoded, so "/wiki/Caf%C3%A9" written by a browser and
// "/wiki/Café" written by a fixture author are the same entry.
func matchPath(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

// checkHost reports why name cannot be a host folder, or "" if it can. Host
// folders are DNS names as a browser sends them in SNI and Host: lower case,
// no port, no trailing dot.
func checkHost(name string) string {
	if name == "" {
		return "empty host name"
	}
	if len(name) > 253 {
		return "host name longer than 253 bytes"
	}
	if strings.ContainsRune(name, ':') {
		return fmt.Sprintf("%q has a port; host folders are bare host names", name)
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > 63 {
			return fmt.Sprintf("%q is not a host name: every dot-separated label needs 1 to 63 bytes", name)
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return fmt.Sprintf("%q is not a host name: a label starts or ends with \"-\"", name)
		}
		for _, c := range []byte(label) {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return fmt.Sprintf("%q is not a host name: %q is not a letter, digit or \"-\"", name, c)
			}
		}
	}
	if strings.ToLower(name) != name {
		return fmt.Sprintf("%q is not lower case; write %q", name, strings.ToLower(name))
	}
	return ""
}

// issue is one problem with an Entry. field is the entry's field as
// index.yaml spells it ("status", "headers.location"); the decoder turns it
// into a full path with a line number.
type issue struct {
	field string
	msg   string
}

// withDefaults returns e with the defaults index.yaml documents filled in.
// Header names are lower-cased so that entries built in code compare like
// entries read from files; the decoder rejects upper-case names before this
// runs, so a file is never silently rewritten.
func withDefaults(e Entry) Entry {
	if e.Method == "" {
		e.Method = http.MethodGet
	}
	if e.Status == 0 {
		e.Status = http.StatusOK
	}
	if e.Header != nil {
		h := make(map[string]string, len(e.Header))
		for k, v := range e.Header {
			h[strings.ToLower(k)] = v
		}
		e.Header = h
	}
	return e
}

// checkEntry reports every problem with an entry whose defaults are filled
// in. hasBody says whether the entry has a body.
func checkEntry(e Entry, hasBody bool) []issue {
	var issues []issue
	add := func(field, format string, args ...any) {
		issues = append(issues, issue{field, fmt.Sprintf(format, args...)})
	}

	switch p := e.Path; {
	case p == "":
		add("path", "missing")
	case !strings.HasPrefix(p, "/"):
		add("path", "%q does not start with \"/\"", p)
	case strings.ContainsRune(p, '?'):
		add("path", "%q contains \"?\"; put the query in query:", p)
	case strings.ContainsRune(p, '#'):
		add("path", "%q contains \"#\"; fragments never reach a server", p)
	case strings.ContainsFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		add("path", "%q contains a space or control character; percent-encode it", p)
	default:
		if _, err := url.PathUnescape(p); err != nil {
			add("path", "%q has a bad percent-escape", p)
		}
	}

	switch q := e.Query; {
	case q == "" || q == wildcardQuery:
	case strings.HasPrefix(q, "?"):
		add("query", "%q starts with \"?\"; drop it", q)
	case canonicalQuery(q) != q:
		add("query", "%q is not canonical; write %q", q, canonicalQuery(q))
	}

	switch {
	case e.Method == http.MethodHead:
		add("method", "HEAD is answered from the GET entry; make this entry GET")
	case !slices.Contains(methods, e.Method):
		add("method", "%q is not one of %s", e.Method, strings.Join(methods, ", "))
	}

	switch s := e.Status; {
	case s < 100 || s > 599:
		add("status", "%d is not an HTTP status", s)
	case s < 200:
		add("status", "%d is informational; an entry needs a final status (200-599)", s)
	}

	for _, name := range slices.Sorted(maps.Keys(e.Header)) {
		if msg := checkHeader(name, e.Header[name]); msg != "" {
			add("headers."+name, "%s", msg)
		}
	}
	if isRedirect(e.Status) && e.Header["location"] == "" {
		add("headers", "status %d needs a location header", e.Status)
	}
	if hasBody && !bodyAllowed(e.Status) {
		add("body", "status %d has no body", e.Status)
	}
	return issues
}

// checkHeader reports why a response header cannot be stored, or "".
func checkHeader(name, value string) string {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return !isTokenChar(r) }) {
		return fmt.Sprintf("%q is not a valid header name", name)
	}
	if strings.ToLower(name) != name {
		return fmt.Sprintf("write header names in lower case (%s)", strings.ToLower(name))
	}
	switch name {
	case "content-length":
		return "content-length is computed from the body"
	case "content-encoding":
		return "bodies are stored decoded; remove content-encoding"
	case "date":
		return "responses carry no date, so that replays are byte-identical"
	case "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade":
		return fmt.Sprintf("%s is a hop-by-hop header the server sets itself", name)
	}
	if value == "" {
		return "value is empty"
	}
	if strings.ContainsFunc(value, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
		return "value contains a control character"
	}
	if name == "content-type" {
		if _, _, err := mime.ParseMediaType(value); err != nil {
			return fmt.Sprintf("%q is not a media type", value)
		}
	}
	return ""
}

// isTokenChar reports whether r may appear in an HTTP header name (RFC 9110
// token).
func isTokenChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
		strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// checkBodyFile reports why name cannot be a body file reference, or "".
// Body files live inside their host folder; the loader also opens them
// through an os.Root, so a symbolic link cannot lead outside either.
func checkBodyFile(name string) string {
	switch {
	case strings.ContainsRune(name, '\\'):
		return fmt.Sprintf("%q: write paths with \"/\"", name)
	case path.IsAbs(name):
		return fmt.Sprintf("%q is absolute; write it relative to the host folder", name)
	case path.Clean(name) != name:
		return fmt.Sprintf("%q is not a clean path; write %q", name, path.Clean(name))
	case name == ".." || strings.HasPrefix(name, "../"):
		return fmt.Sprintf("%q leaves the host folder", name)
	case name == "." || name == indexFile:
		return fmt.Sprintf("%q is not a body file", name)
	}
	return ""
}

// Content types by file extension. The table is fixed instead of coming
// from mime.TypeByExtension, which reads the system's mime.types and would
// make the same archive serve different types on different machines.
var typeByExt = map[string]string{
	".html":  "text/html; charset=utf-8",
	".htm":   "text/html; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".json":  "application/json",
	".txt":   "text/plain; charset=utf-8",
	".xml":   "application/xml",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".jpeg":  "image/jpeg",
	".gif":   "image/gif",
	".webp":  "image/webp",
	".avif":  "image/avif",
	".ico":   "image/x-icon",
	".woff":  "font/woff",
	".woff2": "font/woff2",
	".pdf":   "application/pdf",
	".wasm":  "application/wasm",
}

// extByType is the extension Write gives a body of a media type (without
// parameters). It is the inverse of typeByExt for the first spelling, so a
// written archive infers the same type it was written with.
var extByType = map[string]string{
	"text/html":                ".html",
	"text/css":                 ".css",
	"text/javascript":          ".js",
	"application/javascript":   ".js",
	"application/json":         ".json",
	"text/plain":               ".txt",
	"application/xml":          ".xml",
	"text/xml":                 ".xml",
	"image/svg+xml":            ".svg",
	"image/png":                ".png",
	"image/jpeg":               ".jpg",
	"image/gif":                ".gif",
	"image/webp":               ".webp",
	"image/avif":               ".avif",
	"image/x-icon":             ".ico",
	"image/vnd.microsoft.icon": ".ico",
	"font/woff":                ".woff",
	"font/woff2":               ".woff2",
	"application/pdf":          ".pdf",
	"application/wasm":         ".wasm",
}

const defaultType = "application/octet-stream"

// inferType is the content type of a body file named name.
func inferType(name string) string {
	if t, ok := typeByExt[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return defaultType
}

// mediaType is the media type of a content-type value, without parameters
// and in lower case.
func mediaType(contentType string) string {
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}
