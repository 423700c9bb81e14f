package webreplay

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestBodyFileNames(t *testing.T) {
	t.Parallel()
	html := "text/html; charset=utf-8"
	// Entries are listed in the order Write gives them (sorted by path,
	// method, query), because clashes are resolved first come, first
	// served.
	tests := []struct {
		name        string
		method      string
		path, query string
		ctype, body string
		want        string // a regular expression
	}{
		{"root", "GET", "/", "", html, "x", `^index\.html$`},
		{"upper case clashes with lower case on some file systems", "GET", "/A", "", html, "x", `^A\.html$`},
		{"second of a case clash gets a hash", "GET", "/a", "", html, "x", `^a~[0-9a-f]{8}\.html$`},
		{"file that later needs to be a folder", "GET", "/b.html", "", html, "x", `^b\.html$`},
		{"entry below it moves out of the way", "GET", "/b.html/c", "", html, "x", `^b\.html_c~[0-9a-f]{8}\.html$`},
		{"POST gets a hash", "POST", "/api", "", "application/json", "{}", `^api~[0-9a-f]{8}\.json$`},
		{"folder path", "GET", "/docs/", "", html, "x", `^docs/index\.html$`},
		{"reserved index.yaml", "GET", "/index.yaml", "", "application/octet-stream", "x", `^index~[0-9a-f]{8}\.yaml$`},
		{"extension matching the type is kept", "GET", "/static/app.js", "", "text/javascript", "x", `^static/app\.js$`},
		{"unknown type", "GET", "/static/font.ttf", "", "font/ttf", "x", `^static/font\.ttf\.bin$`},
		{"query variant", "GET", "/w/index.php", "search=bridge", html, "x", `^w/index\.php~[0-9a-f]{8}\.html$`},
		{"another query variant", "GET", "/w/index.php", "search=tower", html, "x", `^w/index\.php~[0-9a-f]{8}\.html$`},
		{"no body, no file", "GET", "/wiki/", "", "", "", `^$`},
		{"unsafe characters replaced", "GET", "/wiki/Caf%C3%A9", "", html, "x", `^wiki/Caf__\.html$`},
		{"dot segments replaced", "GET", "/wiki/../x", "", html, "x", `^wiki/_/x\.html$`},
		{"mismatched extension gets the type's", "GET", "/wiki/File:Tower.jpg", "", html, "x", `^wiki/File_Tower\.jpg\.html$`},
		{"page", "GET", "/wiki/Eiffel_Tower", "", html, "x", `^wiki/Eiffel_Tower\.html$`},
	}
	recs := make([]*record, len(tests))
	for i, tt := range tests {
		e := Entry{Method: tt.method, Path: tt.path, Query: tt.query, Status: 200}
		if tt.ctype != "" {
			e.Header = map[string]string{"content-type": tt.ctype}
		}
		recs[i] = &record{entry: e, body: []byte(tt.body)}
	}
	names, err := bodyFileNames(recs)
	if err != nil {
		t.Fatalf("bodyFileNames: %v", err)
	}
	again, _ := bodyFileNames(recs)
	if !reflect.DeepEqual(names, again) {
		t.Errorf("bodyFileNames is not stable:\n%q\n%q", names, again)
	}
	seen := map[string]string{}
	for i, tt := range tests {
		if !regexp.MustCompile(tt.want).MatchString(names[i]) {
			t.Errorf("%s: %s %s?%s -> %q, want a match of %s", tt.name, tt.method, tt.path, tt.query, names[i], tt.want)
		}
		if names[i] == "" {
			continue
		}
		if msg := checkBodyFile(names[i]); msg != "" {
			t.Errorf("%s: name %q would not load: %s", tt.name, names[i], msg)
		}
		if other, dup := seen[strings.ToLower(names[i])]; dup {
			t.Errorf("%s: name %q is also used by %s", tt.name, names[i], other)
		}
		seen[strings.ToLower(names[i])] = tt.name
	}
}

func TestWriteFormat(t *testing.T) {
	t.Parallel()
	a := NewArchive("example pages")
	adds := []struct {
		e    Entry
		body string
	}{
		{Entry{Path: "/", Header: map[string]string{"content-type": "text/html; charset=utf-8"}}, "<h1>Example</h1>"},
		{Entry{Path: "/old", Status: 301, Header: map[string]string{"location": "/"}}, ""},
		{Entry{Path: "/search", Query: "*"}, "results"},
		{Entry{Method: "POST", Path: "/api", Header: map[string]string{"content-type": "application/json", "access-control-allow-origin": "*"}}, "{}"},
	}
	for _, add := range adds {
		if err := a.Add("example.com", add.e, []byte(add.body)); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "web")
	if err := a.Write(dir); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := readTree(t, dir)
	hash := regexp.MustCompile(`~[0-9a-f]{8}\.`)
	want := map[string]string{
		"archive.yaml": "format_version: 1\ndescription: example pages\n",
		"example.com/index.yaml": `entries:
  - path: /
    status: 200
    headers:
      content-type: text/html; charset=utf-8
    body: index.html
  - path: /api
    method: POST
    status: 200
    headers:
      access-control-allow-origin: '*'
      content-type: application/json
    body: api~HASH.json
  - path: /old
    status: 301
    headers:
      location: /
  - path: /search
    query: '*'
    status: 200
    headers:
      content-type: application/octet-stream
    body: search~HASH.bin
`,
		"example.com/index.html":      "<h1>Example</h1>",
		"example.com/api~HASH.json":   "{}",
		"example.com/search~HASH.bin": "results",
	}
	normalized := map[string]string{}
	for name, data := range got {
		normalized[hash.ReplaceAllString(name, "~HASH.")] = hash.ReplaceAllString(data, "~HASH.")
	}
	if !reflect.DeepEqual(normalized, want) {
		for name := range want {
			if normalized[name] != want[name] {
				t.Errorf("%s:\n%s\nwant:\n%s", name, normalized[name], want[name])
			}
		}
		for name := range normalized {
			if _, ok := want[name]; !ok {
				t.Errorf("unexpected file %s", name)
			}
		}
	}
}

func TestWriteOpenRoundTrip(t *testing.T) {
	t.Parallel()
	a := lookupArchive(t)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\xff")
	if err := a.Add("upload.wikimedia.org", Entry{Path: "/tower.png", Header: map[string]string{"content-type": "image/png"}}, png); err != nil {
		t.Fatal(err)
	}
	if err := a.Add("en.wikipedia.org", Entry{Path: "/w/index.php", Query: "search=bridge", Status: 404, Header: map[string]string{"content-type": "text/html; charset=utf-8", "content-language": "en"}}, []byte("no bridge")); err != nil {
		t.Fatal(err)
	}

	tmp := t.TempDir()
	first := filepath.Join(tmp, "first")
	if err := a.Write(first); err != nil {
		t.Fatalf("Write: %v", err)
	}
	b, err := Open(first)
	if err != nil {
		t.Fatalf("Open of a written archive: %v", err)
	}
	if !reflect.DeepEqual(a.Hosts(), b.Hosts()) || a.Description() != b.Description() {
		t.Fatalf("after round trip: hosts %v description %q, want %v %q", b.Hosts(), b.Description(), a.Hosts(), a.Description())
	}
	for _, host := range a.Hosts() {
		want, got := a.Entries(host), b.Entries(host)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s entries after round trip:\n%+v\nwant:\n%+v", host, got, want)
		}
		for _, e := range want {
			query := e.Query
			if query == "*" {
				query = "anything=1"
			}
			for _, method := range []string{e.Method, "HEAD"} {
				if method == "HEAD" && e.Method != "GET" {
					continue
				}
				wr, _ := a.Lookup(method, host, e.Path, query)
				gr, ok := b.Lookup(method, host, e.Path, query)
				if !ok || !reflect.DeepEqual(wr, gr) {
					t.Errorf("%s %s%s?%s after round trip: %+v, want %+v", method, host, e.Path, query, gr, wr)
				}
			}
		}
	}

	// Writing what was read gives the same bytes: Write is a fixed point,
	// so re-recording an unchanged site leaves an empty diff.
	second := filepath.Join(tmp, "second")
	if err := b.Write(second); err != nil {
		t.Fatalf("Write of the loaded archive: %v", err)
	}
	if d := diffTrees(readTree(t, first), readTree(t, second)); d != "" {
		t.Errorf("writing the loaded archive changed it:\n%s", d)
	}
}

func TestWriteReplacesArchiveKeepingReadme(t *testing.T) {
	t.Parallel()
	dir := writeArchive(t, validArchive)
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Add("example.org", Entry{Path: "/"}, []byte("new host")); err != nil {
		t.Fatal(err)
	}
	if err := a.Write(dir); err != nil {
		t.Fatalf("Write over an existing archive: %v", err)
	}
	tree := readTree(t, dir)
	if tree["README.md"] != "Notes for people; not read.\n" {
		t.Errorf("README.md after Write = %q, want the previous notes", tree["README.md"])
	}
	if _, ok := tree["en.wikipedia.org/unreferenced.txt"]; ok {
		t.Errorf("a file no entry names survived Write; the written archive should hold only what the archive has")
	}
	b, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after Write: %v", err)
	}
	if got := strings.Join(b.Hosts(), " "); got != "en.wikipedia.org example.com example.org" {
		t.Errorf("hosts after Write = %q", got)
	}
	assertOnlyEntry(t, filepath.Dir(dir), "web")
}

func TestWriteRefusesToReplace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string)
		wantErr string
	}{
		{"a file", func(t *testing.T, dir string) {
			mustWrite(t, dir, "not a folder")
		}, "is not a folder"},
		{"a folder that is not an archive", func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, "thesis.tex"), "years of work")
		}, "refusing to replace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "web")
			tt.setup(t, dir)
			before := readTreeOrFile(t, dir)
			err := lookupArchive(t).Write(dir)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("Write over %s: error %v, want one naming the folder and containing %q", tt.name, err, tt.wantErr)
			}
			if after := readTreeOrFile(t, dir); !reflect.DeepEqual(before, after) {
				t.Errorf("Write changed %s although it refused", tt.name)
			}
			assertOnlyEntry(t, filepath.Dir(dir), "web")
		})
	}
}

func TestWriteFailureLeavesPreviousArchive(t *testing.T) {
	t.Parallel()
	dir := writeArchive(t, validArchive)
	// A README.md that cannot be read as a file makes Write fail after
	// the new archive is staged, just before the swap.
	if err := os.Remove(filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "README.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, dir)
	a := NewArchive("replacement")
	if err := a.Add("example.net", Entry{Path: "/"}, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := a.Write(dir); err == nil {
		t.Fatal("Write succeeded although README.md is a folder; want an error")
	}
	if d := diffTrees(before, readTree(t, dir)); d != "" {
		t.Errorf("a failed Write changed the archive:\n%s", d)
	}
	assertOnlyEntry(t, filepath.Dir(dir), "web")
}

// readTree returns every regular file below dir by slash-separated
// relative name.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	return tree
}

func readTreeOrFile(t *testing.T, p string) map[string]string {
	t.Helper()
	if info, err := os.Stat(p); err == nil && !info.IsDir() {
		data, _ := os.ReadFile(p)
		return map[string]string{"": string(data)}
	}
	return readTree(t, p)
}

func diffTrees(want, got map[string]string) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[name]; !ok {
			b.WriteString("missing " + name + "\n")
		} else if g != want[name] {
			b.WriteString("changed " + name + "\n")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			b.WriteString("added " + name + "\n")
		}
	}
	return b.String()
}

// assertOnlyEntry checks that Write left no temporary folder next to the
// archive.
func assertOnlyEntry(t *testing.T, parent, name string) {
	t.Helper()
	dirents, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range dirents {
		names = append(names, de.Name())
	}
	if len(names) != 1 || names[0] != name {
		t.Errorf("%s holds %q, want only %q", parent, names, name)
	}
}

func mustWrite(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
