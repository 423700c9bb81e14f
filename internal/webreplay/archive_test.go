package webreplay

import (
	"strings"
	"testing"
)

func TestCanonicalQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, want string
	}{
		{"empty", "", ""},
		{"already canonical", "a=1&b=2", "a=1&b=2"},
		{"keys sorted", "b=2&a=1", "a=1&b=2"},
		{"values of one key sorted", "a=2&a=1", "a=1&a=2"},
		{"escapes normalized", "q=%74ower&x=a%20b", "q=tower&x=a+b"},
		{"reserved characters escaped", "title=Special:Search", "title=Special%3ASearch"},
		{"key without value", "flag", "flag="},
		{"unparseable kept as sent", "a=%zz", "a=%zz"},
		{"semicolon kept as sent", "a=1;b=2", "a=1;b=2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := canonicalQuery(tt.raw); got != tt.want {
				t.Errorf("CanonicalQuery(%q) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}

// lookupArchive is a small archive exercising every lookup rule.
func lookupArchive(t *testing.T) *Archive {
	t.Helper()
	a := NewArchive("lookup")
	html := map[string]string{"content-type": "text/html; charset=utf-8"}
	adds := []struct {
		host string
		e    Entry
		body string
	}{
		{"en.wikipedia.org", Entry{Path: "/wiki/Eiffel_Tower", Header: html}, "eiffel"},
		{"en.wikipedia.org", Entry{Path: "/w/index.php", Query: "*", Header: html}, "any query"},
		{"en.wikipedia.org", Entry{Path: "/w/index.php", Query: "search=tower&title=Special%3ASearch", Header: html}, "exact query"},
		{"en.wikipedia.org", Entry{Path: "/wiki/Caf%C3%A9", Header: html}, "cafe"},
		{"en.wikipedia.org", Entry{Path: "/", Status: 301, Header: map[string]string{"location": "/wiki/Main_Page"}}, ""},
		{"en.wikipedia.org", Entry{Method: "POST", Path: "/api", Header: map[string]string{"content-type": "application/json"}}, `{"ok":true}`},
		{"example.com", Entry{Path: "/", Header: html}, "example"},
	}
	for _, add := range adds {
		if err := a.Add(add.host, add.e, []byte(add.body)); err != nil {
			t.Fatalf("Add(%s %s): %v", add.host, add.e.Path, err)
		}
	}
	return a
}

func TestLookup(t *testing.T) {
	t.Parallel()
	a := lookupArchive(t)
	tests := []struct {
		name                         string
		method, host, path, rawQuery string
		wantOK                       bool
		wantStatus                   int
		wantBody                     string
	}{
		{"page without query", "GET", "en.wikipedia.org", "/wiki/Eiffel_Tower", "", true, 200, "eiffel"},
		{"query on a page without one is a miss", "GET", "en.wikipedia.org", "/wiki/Eiffel_Tower", "x=1", false, 0, ""},
		{"exact query wins over wildcard", "GET", "en.wikipedia.org", "/w/index.php", "title=Special:Search&search=tower", true, 200, "exact query"},
		{"other query falls back to wildcard", "GET", "en.wikipedia.org", "/w/index.php", "search=bridge", true, 200, "any query"},
		{"no query falls back to wildcard", "GET", "en.wikipedia.org", "/w/index.php", "", true, 200, "any query"},
		{"host is case-insensitive", "GET", "EN.Wikipedia.ORG", "/wiki/Eiffel_Tower", "", true, 200, "eiffel"},
		{"escaped path matches", "GET", "en.wikipedia.org", "/wiki/Caf%C3%A9", "", true, 200, "cafe"},
		{"decoded path matches", "GET", "en.wikipedia.org", "/wiki/Café", "", true, 200, "cafe"},
		{"redirect", "GET", "en.wikipedia.org", "/", "", true, 301, ""},
		{"POST entry", "POST", "en.wikipedia.org", "/api", "", true, 200, `{"ok":true}`},
		{"GET does not match a POST entry", "GET", "en.wikipedia.org", "/api", "", false, 0, ""},
		{"HEAD has no body", "HEAD", "en.wikipedia.org", "/wiki/Eiffel_Tower", "", true, 200, ""},
		{"other host", "GET", "example.com", "/", "", true, 200, "example"},
		{"unknown host", "GET", "example.org", "/", "", false, 0, ""},
		{"unknown path", "GET", "en.wikipedia.org", "/wiki/Nothing", "", false, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, ok := a.Lookup(tt.method, tt.host, tt.path, tt.rawQuery)
			if ok != tt.wantOK {
				t.Fatalf("Lookup(%s %s %s ?%s) found = %v, want %v", tt.method, tt.host, tt.path, tt.rawQuery, ok, tt.wantOK)
			}
			if !ok {
				return
			}
			if resp.Status != tt.wantStatus || string(resp.Body) != tt.wantBody {
				t.Errorf("Lookup(%s %s %s ?%s) = %d %q, want %d %q", tt.method, tt.host, tt.path, tt.rawQuery, resp.Status, resp.Body, tt.wantStatus, tt.wantBody)
			}
		})
	}
}

func TestLookupHeadKeepsGetHeaders(t *testing.T) {
	t.Parallel()
	a := lookupArchive(t)
	get, _ := a.Lookup("GET", "en.wikipedia.org", "/wiki/Eiffel_Tower", "")
	head, ok := a.Lookup("HEAD", "en.wikipedia.org", "/wiki/Eiffel_Tower", "")
	if !ok {
		t.Fatal("HEAD /wiki/Eiffel_Tower: not found")
	}
	for _, name := range []string{"Content-Type", "Content-Length"} {
		if g, h := get.Header.Get(name), head.Header.Get(name); g == "" || g != h {
			t.Errorf("%s: GET has %q, HEAD has %q; want equal and set", name, g, h)
		}
	}
	if head.Header.Get("Content-Length") != "6" {
		t.Errorf("HEAD Content-Length = %q, want the GET body's length 6", head.Header.Get("Content-Length"))
	}
}

func TestLookupReturnsCopyOfHeader(t *testing.T) {
	t.Parallel()
	a := lookupArchive(t)
	first, _ := a.Lookup("GET", "example.com", "/", "")
	first.Header.Set("Content-Type", "changed")
	again, _ := a.Lookup("GET", "example.com", "/", "")
	if got := again.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Errorf("after a caller modified a looked-up header, Content-Type = %q", got)
	}
}

func TestAddRejectsInvalidEntries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		host    string
		e       Entry
		body    string
		wantErr string
	}{
		{"host with port", "example.com:8443", Entry{Path: "/"}, "", `has a port`},
		{"host with underscore", "my_host.example", Entry{Path: "/"}, "", `is not a host name`},
		{"path without slash", "example.com", Entry{Path: "index.html"}, "", `path: "index.html" does not start with "/"`},
		{"path with query", "example.com", Entry{Path: "/a?b=1"}, "", `put the query in query:`},
		{"status out of range", "example.com", Entry{Path: "/", Status: 999}, "", `status: 999 is not an HTTP status`},
		{"informational status", "example.com", Entry{Path: "/", Status: 101}, "", `status: 101 is informational`},
		{"HEAD entry", "example.com", Entry{Method: "HEAD", Path: "/"}, "", `HEAD is answered from the GET entry`},
		{"unknown method", "example.com", Entry{Method: "BREW", Path: "/"}, "", `method: "BREW" is not one of`},
		{"query not canonical", "example.com", Entry{Path: "/", Query: "b=1&a=2"}, "", `query: "b=1&a=2" is not canonical; write "a=2&b=1"`},
		{"query with question mark", "example.com", Entry{Path: "/", Query: "?a=1"}, "", `starts with "?"`},
		{"content-length header", "example.com", Entry{Path: "/", Header: map[string]string{"Content-Length": "3"}}, "abc", `content-length is computed from the body`},
		{"redirect without location", "example.com", Entry{Path: "/", Status: 302}, "", `status 302 needs a location header`},
		{"body on 204", "example.com", Entry{Path: "/", Status: 204}, "x", `status 204 has no body`},
		{"header value with newline", "example.com", Entry{Path: "/", Header: map[string]string{"x-a": "1\r\nx-b: 2"}}, "", `control character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := NewArchive("")
			err := a.Add(tt.host, tt.e, []byte(tt.body))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Add(%q, %+v) error = %v, want one containing %q", tt.host, tt.e, err, tt.wantErr)
			}
			if hosts := a.Hosts(); len(hosts) != 0 {
				t.Errorf("after a failed Add, Hosts() = %v, want none", hosts)
			}
		})
	}
}

func TestAddReplacesSameKey(t *testing.T) {
	t.Parallel()
	a := NewArchive("")
	for _, body := range []string{"first", "second"} {
		// The second Add spells the path differently; it is the same
		// entry once decoded.
		path := map[string]string{"first": "/wiki/Caf%C3%A9", "second": "/wiki/Café"}[body]
		if err := a.Add("example.com", Entry{Path: path}, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(a.Entries("example.com")); n != 1 {
		t.Errorf("entries after two Adds of the same key: %d, want 1", n)
	}
	resp, _ := a.Lookup("GET", "example.com", "/wiki/Caf%C3%A9", "")
	if string(resp.Body) != "second" {
		t.Errorf("body = %q, want the last added %q", resp.Body, "second")
	}
}

func TestAddInfersContentType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, path, body, want string
	}{
		{"from path extension", "/static/logo.png", "\x89PNG", "image/png"},
		{"upper-case extension", "/static/LOGO.PNG", "\x89PNG", "image/png"},
		{"no extension", "/data", "bytes", "application/octet-stream"},
		{"no body, no type", "/empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := NewArchive("")
			if err := a.Add("example.com", Entry{Path: tt.path}, []byte(tt.body)); err != nil {
				t.Fatal(err)
			}
			resp, _ := a.Lookup("GET", "example.com", tt.path, "")
			if got := resp.Header.Get("Content-Type"); got != tt.want {
				t.Errorf("Content-Type = %q, want %q", got, tt.want)
			}
			if got := a.Entries("example.com")[0].Header["content-type"]; got != tt.want {
				t.Errorf("entry content-type = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHostsAndEntriesSorted(t *testing.T) {
	t.Parallel()
	a := lookupArchive(t)
	if got, want := strings.Join(a.Hosts(), " "), "en.wikipedia.org example.com"; got != want {
		t.Errorf("Hosts() = %q, want %q", got, want)
	}
	var got []string
	for _, e := range a.Entries("en.wikipedia.org") {
		got = append(got, e.Method+" "+e.Path+" "+e.Query)
	}
	want := []string{
		"GET / ",
		"POST /api ",
		"GET /w/index.php *",
		"GET /w/index.php search=tower&title=Special%3ASearch",
		"GET /wiki/Caf%C3%A9 ",
		"GET /wiki/Eiffel_Tower ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Entries order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
