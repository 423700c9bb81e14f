package webreplay

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"contractbench/internal/problem"
)

// writeArchive materializes a txtar listing as a folder and returns its
// path. File names in the listing are relative to the archive folder.
func writeArchive(t *testing.T, listing string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "web")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range txtar.Parse([]byte(listing)).Files {
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const validArchive = `
-- archive.yaml --
format_version: 1
description: two hosts
-- README.md --
Notes for people; not read.
-- .gitattributes --
* -text
-- en.wikipedia.org/index.yaml --
entries:
  - path: /wiki/Eiffel_Tower
    body: wiki/Eiffel_Tower.html
  - path: /
    status: 301
    headers: {location: /wiki/Eiffel_Tower}
  - path: /w/index.php
    query: "*"
    body: search.html
  - path: /static/logo
    headers:
      content-type: image/png
    body: static/logo.bin
-- en.wikipedia.org/wiki/Eiffel_Tower.html --
<h1>Eiffel Tower</h1>
-- en.wikipedia.org/search.html --
results
-- en.wikipedia.org/static/logo.bin --
PNG
-- en.wikipedia.org/unreferenced.txt --
Files no entry names are allowed.
-- example.com/index.yaml --
entries:
  - path: /
    body: index.html
-- example.com/index.html --
<h1>Example Domain</h1>
`

func TestOpenValidArchive(t *testing.T) {
	t.Parallel()
	a, err := Open(writeArchive(t, validArchive))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if got := strings.Join(a.Hosts(), " "); got != "en.wikipedia.org example.com" {
		t.Errorf("Hosts() = %q, want %q", got, "en.wikipedia.org example.com")
	}
	if got := a.Description(); got != "two hosts" {
		t.Errorf("Description() = %q, want %q", got, "two hosts")
	}
	tests := []struct {
		name, host, path, query     string
		wantStatus                  int
		wantType, wantBody, wantLoc string
	}{
		{"type inferred from .html", "en.wikipedia.org", "/wiki/Eiffel_Tower", "", 200, "text/html; charset=utf-8", "<h1>Eiffel Tower</h1>\n", ""},
		{"flow-style headers", "en.wikipedia.org", "/", "", 301, "", "", "/wiki/Eiffel_Tower"},
		{"wildcard query", "en.wikipedia.org", "/w/index.php", "search=x", 200, "text/html; charset=utf-8", "results\n", ""},
		{"explicit type wins over extension", "en.wikipedia.org", "/static/logo", "", 200, "image/png", "PNG\n", ""},
		{"second host", "example.com", "/", "", 200, "text/html; charset=utf-8", "<h1>Example Domain</h1>\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, ok := a.Lookup("GET", tt.host, tt.path, tt.query)
			if !ok {
				t.Fatalf("Lookup(GET %s%s?%s): not found", tt.host, tt.path, tt.query)
			}
			if resp.Status != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.Status, tt.wantStatus)
			}
			if got := resp.Header.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
			}
			if got := resp.Header.Get("Location"); got != tt.wantLoc {
				t.Errorf("Location = %q, want %q", got, tt.wantLoc)
			}
			if string(resp.Body) != tt.wantBody {
				t.Errorf("body = %q, want %q", resp.Body, tt.wantBody)
			}
		})
	}
}

func TestOpenProblems(t *testing.T) {
	t.Parallel()
	const manifest = "-- archive.yaml --\nformat_version: 1\n"
	tests := []struct {
		name    string
		listing string
		want    []string
	}{
		{
			name:    "missing archive.yaml",
			listing: "-- example.com/index.yaml --\nentries:\n  - path: /\n",
			want:    []string{"archive.yaml: missing; an archive folder starts with archive.yaml holding format_version: 1"},
		},
		{
			name:    "unsupported format_version",
			listing: "-- archive.yaml --\nformat_version: 2\n-- example.com/index.yaml --\nnot: read\n",
			want:    []string{"archive.yaml:1: format_version: 2 is not supported; this build reads format version 1"},
		},
		{
			name:    "format_version not a number",
			listing: "-- archive.yaml --\nformat_version: one\n",
			want:    []string{`archive.yaml:1: format_version: expected an integer, got the string "one"`},
		},
		{
			name:    "format_version missing",
			listing: "-- archive.yaml --\ndescription: x\n",
			want:    []string{"archive.yaml:1: format_version: missing"},
		},
		{
			name: "problems of every file collected",
			listing: "-- archive.yaml --\nformat_version: 1\nauthor: me\n" +
				"-- a.example/index.yaml --\nentries:\n  - path: /\n    status: 999\n" +
				"-- b.example/index.yaml --\nentries:\n  - path: nope\n",
			want: []string{
				"archive.yaml:2: author: unknown field \"author\" (known: format_version, description)",
				"a.example/index.yaml:3: entries[0].status: 999 is not an HTTP status",
				`b.example/index.yaml:2: entries[0].path: "nope" does not start with "/"`,
			},
		},
		{
			name: "bad host folder names",
			listing: manifest +
				"-- Example.com/index.yaml --\nentries:\n  - path: /\n" +
				"-- example.com:8080/index.yaml --\nentries:\n  - path: /\n",
			want: []string{
				`Example.com/: bad host folder name: "Example.com" is not lower case; write "example.com"`,
				`example.com:8080/: bad host folder name: "example.com:8080" has a port; host folders are bare host names`,
			},
		},
		{
			name:    "stray file at the top",
			listing: manifest + "-- notes.txt --\nhello\n",
			want:    []string{"notes.txt: unexpected file; an archive holds archive.yaml, README.md and one folder per host"},
		},
		{
			name:    "host folder without index",
			listing: manifest + "-- example.com/index.html --\n<p>\n",
			want:    []string{"example.com/index.yaml: missing; every host folder needs an index.yaml"},
		},
		{
			name:    "unknown entry field",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: /\n    stauts: 200\n",
			want:    []string{"example.com/index.yaml:3: entries[0].stauts: unknown field \"stauts\" (known: path, query, method, status, headers, body)"},
		},
		{
			name:    "unknown top-level field",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: /\nversion: 1\n",
			want:    []string{"example.com/index.yaml:3: version: unknown field \"version\" (known: entries)"},
		},
		{
			name:    "missing body file",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: /\n    body: index.html\n",
			want:    []string{"example.com/index.yaml:3: entries[0].body: index.html: no such file in example.com/"},
		},
		{
			name:    "duplicate entry",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: /a\n  - path: /b\n  - path: /a\n    method: GET\n",
			want:    []string{`example.com/index.yaml:4: entries[2]: duplicate of entries[0] (GET /a query "")`},
		},
		{
			name:    "duplicate after decoding escapes",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: /caf%C3%A9\n  - path: /café\n",
			want:    []string{`example.com/index.yaml:3: entries[1]: duplicate of entries[0] (GET /café query "")`},
		},
		{
			name: "every problem of one file",
			listing: manifest + "-- example.com/index.yaml --\n" + `entries:
  - path: wiki/Eiffel_Tower
    status: 999
  - path: /search
    query: b=2&a=1
  - path: /moved
    status: 302
  - path: /page
    headers:
      Content-Type: text/html
      content-length: "12"
  - path: /secret
    body: ../secret.txt
  - path: /head
    method: HEAD
`,
			want: []string{
				`example.com/index.yaml:2: entries[0].path: "wiki/Eiffel_Tower" does not start with "/"`,
				`example.com/index.yaml:3: entries[0].status: 999 is not an HTTP status`,
				`example.com/index.yaml:5: entries[1].query: "b=2&a=1" is not canonical; write "a=1&b=2"`,
				`example.com/index.yaml:6: entries[2].headers: status 302 needs a location header`,
				`example.com/index.yaml:10: entries[3].headers.Content-Type: write header names in lower case (content-type)`,
				`example.com/index.yaml:11: entries[3].headers.content-length: content-length is computed from the body`,
				`example.com/index.yaml:13: entries[4].body: "../secret.txt" leaves the host folder`,
				`example.com/index.yaml:15: entries[5].method: HEAD is answered from the GET entry; make this entry GET`,
			},
		},
		{
			name:    "wrong kinds of values",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: [/a]\n    status: ok\n    headers: [x]\n",
			want: []string{
				"example.com/index.yaml:2: entries[0].path: expected a string, got a list",
				`example.com/index.yaml:3: entries[0].status: expected an integer, got the string "ok"`,
				"example.com/index.yaml:4: entries[0].headers: expected a mapping, got a list",
			},
		},
		{
			name:    "missing path",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - status: 200\n",
			want:    []string{"example.com/index.yaml:2: entries[0].path: missing"},
		},
		{
			name:    "body on a 204",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: /\n    status: 204\n    body: x.html\n-- example.com/x.html --\nx\n",
			want:    []string{"example.com/index.yaml:4: entries[0].body: status 204 has no body"},
		},
		{
			name:    "syntax error",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n\t- path: /\n",
			want:    []string{"example.com/index.yaml:2: not valid YAML: found character that cannot start any token"},
		},
		{
			name:    "aliases and repeated keys",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - &page\n    path: /\n    path: /again\n  - *page\n",
			want: []string{
				"example.com/index.yaml:4: entries[0].path: field \"path\" appears twice (first on line 3)",
				"example.com/index.yaml:5: entries[1]: YAML aliases are not allowed",
			},
		},
		{
			name:    "entries not a list",
			listing: manifest + "-- example.com/index.yaml --\nentries: {path: /}\n",
			want:    []string{"example.com/index.yaml:1: entries: expected a list, got a mapping"},
		},
		{
			name:    "empty entries",
			listing: manifest + "-- example.com/index.yaml --\nentries: []\n",
			want:    []string{"example.com/index.yaml:1: entries: empty; a host folder needs at least one entry"},
		},
		{
			name:    "empty index",
			listing: manifest + "-- example.com/index.yaml --\n",
			want:    []string{"example.com/index.yaml: empty document"},
		},
		{
			name:    "two documents",
			listing: manifest + "-- example.com/index.yaml --\nentries:\n  - path: /\n---\nentries:\n  - path: /b\n",
			want:    []string{"example.com/index.yaml:3: a second YAML document: a file holds one document"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := writeArchive(t, tt.listing)
			a, err := Open(dir)
			if err == nil {
				t.Fatalf("Open succeeded with hosts %v; want problems:\n%s", a.Hosts(), strings.Join(tt.want, "\n"))
			}
			var ps problem.List
			if !errors.As(err, &ps) {
				t.Fatalf("Open error %q is not problem.List", err)
			}
			got := make([]string, len(ps))
			for i, p := range ps {
				got[i] = p.String()
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if !strings.HasPrefix(err.Error(), "archive "+dir+": ") {
				t.Errorf("error %q does not name the archive folder %s", err, dir)
			}
		})
	}
}

func TestOpenBodyCannotEscapeThroughSymlink(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.html")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := writeArchive(t, "-- archive.yaml --\nformat_version: 1\n-- example.com/index.yaml --\nentries:\n  - path: /\n    body: link.html\n")
	if err := os.Symlink(outside, filepath.Join(dir, "example.com", "link.html")); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir)
	var ps problem.List
	if !errors.As(err, &ps) || len(ps) != 1 || ps[0].Path != "entries[0].body" || !strings.Contains(ps[0].Msg, "escapes") {
		t.Fatalf("Open with a body symlink leaving the archive: error %v; want one problem at entries[0].body saying the path escapes", err)
	}
}

func TestOpenMissingFolder(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nowhere")
	_, err := Open(dir)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Open(%s) error = %v; want a not-exist error naming the folder", dir, err)
	}
}
