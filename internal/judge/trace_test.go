package judge

import (
	"bytes"
	"context"
	"image/jpeg"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestThumbnail: a thumbnail is a small JPEG of the page the agent is on,
// and taking it leaves the page and the judge's log as they were.
func TestThumbnail(t *testing.T) {
	srv := site(t, map[string]any{
		"/": `<title>front</title><body style="background:#204080;color:#fff"><h1>The front page</h1></body>`,
	})
	tab := openTab(t)
	j := attach(t, Options{})
	navigate(t, tab, srv.URL+"/")
	waitRecorded(t, j, "the page's request", hasRequest("/", true))
	// The full browser asks for the favicon after the load, on its own
	// time; a headless shell draws no tab and asks for none.
	waitRecorded(t, j, "the page's load", documentLoaded(srv.URL+"/"))
	if !shared.Shell() {
		waitRecorded(t, j, "the favicon's request", hasRequest("/favicon.ico", true))
	}
	j.mu.Lock()
	before := len(j.rec.requests)
	j.mu.Unlock()

	ctx, cancel := bounded(t)
	defer cancel()
	th, err := j.Thumbnail(ctx, ThumbnailOptions{})
	if err != nil {
		t.Fatalf("Thumbnail: %v", err)
	}
	if th.URL != srv.URL+"/" {
		t.Errorf("URL = %q, want the page the agent is on, %q", th.URL, srv.URL+"/")
	}
	img, err := jpeg.Decode(bytes.NewReader(th.JPEG))
	if err != nil {
		t.Fatalf("the thumbnail is not a JPEG: %v", err)
	}
	if w := img.Bounds().Dx(); w != defaultThumbnailWidth {
		t.Errorf("thumbnail width %d, want %d", w, defaultThumbnailWidth)
	}
	// The page's blue background, not a blank frame.
	if r, g, b, _ := img.At(img.Bounds().Dx()-5, img.Bounds().Dy()-5).RGBA(); !(b>>8 > 100 && r>>8 < 80 && g>>8 < 110) {
		t.Errorf("the thumbnail's corner is rgb(%d,%d,%d), want the page's blue", r>>8, g>>8, b>>8)
	}
	j.mu.Lock()
	after := len(j.rec.requests)
	j.mu.Unlock()
	if after != before {
		j.mu.Lock()
		t.Errorf("taking a thumbnail added %d requests to the log: %+v", after-before, j.rec.requests[before].entry)
		j.mu.Unlock()
	}
	obs := observe(t, j)
	if obs.URL != srv.URL+"/" || obs.Title != "front" {
		t.Errorf("after the thumbnail the judge observes %q %q, want the same page", obs.URL, obs.Title)
	}
}

// TestThumbnailDialog: with a dialog showing, no picture is taken and the
// dialog stays for the agent to answer.
func TestThumbnailDialog(t *testing.T) {
	srv := site(t, map[string]any{
		"/alert": `<title>alert</title><script>addEventListener("load", () => setTimeout(() => alert("hello"), 20))</script>`,
	})
	tab := openTab(t)
	j := attach(t, Options{})
	if _, err := chromedp.Run(tab, chromedp.WaitEvent(page.JavascriptDialogOpening, nil, chromedp.Navigate(srv.URL+"/alert"))); err != nil {
		t.Fatalf("waiting for the dialog: %v", err)
	}
	waitRecorded(t, j, "the dialog", func(r *recorder) bool { return len(r.dialogs) == 1 })
	th, err := j.Thumbnail(t.Context(), ThumbnailOptions{})
	if err == nil || !strings.Contains(err.Error(), "a dialog is showing") || len(th.JPEG) > 0 {
		t.Errorf("Thumbnail with a dialog showing: %d bytes, error %v; want none and why", len(th.JPEG), err)
	}
	if _, err := chromedp.Call(tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
		t.Errorf("the dialog was not left for the agent to answer: %v", err)
	}
}

// BenchmarkThumbnail measures one thumbnail of a mid-size page, as the
// runner takes after every tool call: choosing the active page, and the
// scaled-down JPEG. It reports the thumbnail's size as jpeg-bytes.
func BenchmarkThumbnail(b *testing.B) {
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
	var size int
	for b.Loop() {
		th, err := j.Thumbnail(context.Background(), ThumbnailOptions{})
		if err != nil {
			b.Fatal(err)
		}
		size = len(th.JPEG)
	}
	b.ReportMetric(float64(size), "jpeg-bytes")
}
