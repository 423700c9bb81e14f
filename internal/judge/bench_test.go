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
	want := wantOf("body", "h1", "a", "table tr", "p.note")
	for b.Loop() {
		obs, err := j.Observe(context.Background(), want)
		if err != nil {
			b.Fatal(err)
		}
		if obs.Elements["p.note"].Count != 300 {
			b.Fatalf("observed %d paragraphs, want 300", obs.Elements["p.note"].Count)
		}
	}
}
