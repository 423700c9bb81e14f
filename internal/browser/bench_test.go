//go:build linux

package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// BenchmarkLaunch measures a launch from start to a DevTools endpoint that
// answers, the price of a fresh profile per task. Close is not timed.
func BenchmarkLaunch(b *testing.B) {
	opts := testOptions()
	for b.Loop() {
		br, err := Launch(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := br.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkAttach measures how long a CDP client takes to connect to a
// running browser through its DevTools URL and hear back from it.
func BenchmarkAttach(b *testing.B) {
	for b.Loop() {
		alloc, cancelAlloc := remote.NewAllocator(context.Background(), shared.URL())
		ctx, cancel := chromedp.NewContext(alloc)
		if _, err := chromedp.Targets(ctx); err != nil {
			b.Fatal(err)
		}
		cancel()
		cancelAlloc()
	}
}

// BenchmarkNavigate measures a navigation to a small local page, up to its
// load event.
func BenchmarkNavigate(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>bench</title><h1>Hello</h1><p>A small page.</p>`)
	}))
	defer srv.Close()
	alloc, cancelAlloc := remote.NewAllocator(context.Background(), shared.URL())
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/?i=%d", srv.URL, i))); err != nil {
			b.Fatal(err)
		}
	}
}
