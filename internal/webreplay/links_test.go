package webreplay

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestDanglingLinks(t *testing.T) {
	t.Parallel()
	a := NewArchive("links")
	html := map[string]string{"content-type": "text/html; charset=utf-8"}
	page := `<html><body id="top">
<a href="/b.html">fine</a>
<a href="/b.html#there">fine, with an anchor</a>
<a href="/b.html#nowhere">missing anchor</a>
<a href="#here">own anchor</a> <h2 id="here">Here</h2>
<a href="#gone">own anchor missing</a>
<a href="/old">redirect to b</a>
<a href="/missing.html">missing page</a>
<a href="/broken.html">answers 500</a>
<a href="https://elsewhere.test/">another host</a>
<a href="mailto:a@b.test">mail</a>
<form action="/search"><input name="q"></form>
<img src="/logo.svg" alt="">
<pre>&lt;a href="example.html"&gt;shown, not a link&lt;/a&gt;</pre>
</body></html>`
	for _, e := range []struct {
		entry Entry
		body  string
	}{
		{Entry{Path: "/a.html", Header: html}, page},
		{Entry{Path: "/b.html", Header: html}, `<p id="there">b</p>`},
		{Entry{Path: "/old", Status: 301, Header: map[string]string{"location": "/b.html"}}, ""},
		{Entry{Path: "/broken.html", Status: 500, Header: html}, "oops"},
		{Entry{Path: "/search", Query: "*", Header: html}, "results"},
		{Entry{Path: "/logo.svg", Header: map[string]string{"content-type": "image/svg+xml"}}, "<svg/>"},
	} {
		if err := a.Add("site.test", e.entry, []byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, l := range a.DanglingLinks() {
		got = append(got, l.String())
	}
	want := []string{
		`https://site.test/a.html: href="/b.html#nowhere": no element with id "nowhere" on https://site.test/b.html`,
		`https://site.test/a.html: href="#gone": no element with id "gone" on https://site.test/a.html`,
		`https://site.test/a.html: href="/missing.html": https://site.test/missing.html is not in the archive`,
		`https://site.test/a.html: href="/broken.html": https://site.test/broken.html answers 500`,
		`https://site.test/a.html: href="https://elsewhere.test/": host elsewhere.test is not in the archive`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("dangling links\ngot:  %q\nwant: %q", got, want)
	}
}

// TestSuiteHasNoDanglingLinks wants every link, form, stylesheet, script
// and image of the suite's fixture web to lead to a page of it, so that an
// agent straying from a task's reference still meets a coherent site.
func TestSuiteHasNoDanglingLinks(t *testing.T) {
	t.Parallel()
	a, err := Open(filepath.Join("..", "..", "benchmarks", "webvoyager", "web"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range a.DanglingLinks() {
		t.Errorf("dangling: %s", l)
	}
}
