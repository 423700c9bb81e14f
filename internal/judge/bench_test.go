package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// midSizePage is about 60 KB of HTML: headings, 300 paragraphs, 100 links
// and a 50-row table, roughly an article page.
func midSizePage() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><title>Mid-size page</title><h1>Results</h1>`)
	for i := range 300 {
		fmt.Fprintf(&b, `<p class="note">Paragraph %d of the article, with enough words to wrap onto a second line in a 1280 pixel wide viewport.</p>`, i)
	}
	for i := range 100 {
		fmt.Fprintf(&b, `<a href="/item/%d">Item %d</a> `, i, i)
	}
	b.WriteString(`<table>`)
	for i := range 50 {
		fmt.Fprintf(&b, `<tr><td>row %d</td><td>%d</td></tr>`, i, i*i)
	}
	b.WriteString(`</table>`)
	return b.String()
}

// BenchmarkObserve measures one Observation of a mid-size page: choosing the
// active page, five selectors (one of them body), the screenshot and the
// logs.
func BenchmarkObserve(b *testing.B) {
	benchmarkObserve(b, wantOf("body", "h1", "a", "table tr", "p.note"))
}

// BenchmarkObserveFound is BenchmarkObserve with three strings to find, as
// dom_text clauses ask: one in view, one far down the page and one in the
// table, each confirmed by its pixels.
func BenchmarkObserveFound(b *testing.B) {
	want := wantOf("body", "h1", "a", "table tr", "p.note")
	want.Queries[0].Contains = []string{"Paragraph 3 of the article", "Paragraph 280 of the article"}
	want.Queries[3].Contains = []string{"row 42 1764"}
	benchmarkObserve(b, want)
}

func benchmarkObserve(b *testing.B, want Want) {
	srv := site(b, map[string]any{"/": midSizePage()})
	tab, cancel := newTab()
	defer cancel()
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")); err != nil {
		b.Fatal(err)
	}
	j, err := Attach(context.Background(), shared.URL(), confined(Options{}))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	for b.Loop() {
		obs, err := j.Observe(context.Background(), want)
		if err != nil {
			b.Fatal(err)
		}
		if obs.Elements["p.note"].Count != 300 {
			b.Fatalf("observed %d paragraphs, want 300", obs.Elements["p.note"].Count)
		}
		for _, q := range want.Queries {
			for s, h := range obs.Elements[q.Selector].Contains {
				if h.Match == 0 {
					b.Fatalf("%s: %q not found", q.Selector, s)
				}
			}
		}
	}
}
