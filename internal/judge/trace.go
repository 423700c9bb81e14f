package judge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"contractbench/internal/cdpconn"
)

// Defaults of ThumbnailOptions.
const (
	// defaultThumbnailWidth is the width of a thumbnail in pixels: a
	// quarter of the launched browser's 1280-pixel viewport, enough to
	// tell one page from another and to read a heading.
	defaultThumbnailWidth = 320
	// defaultThumbnailQuality is the JPEG quality, 0 to 100. At 320
	// pixels, 60 keeps text legible at about a third of the bytes of 90.
	defaultThumbnailQuality = 60
	// DefaultThumbnailTimeout bounds one thumbnail, so a page that stops
	// answering costs the task at most this long per step.
	DefaultThumbnailTimeout = 3 * time.Second
)

// ThumbnailOptions tunes Thumbnail. The zero value gives the defaults.
type ThumbnailOptions struct {
	Width   int
	Quality int
	Timeout time.Duration
}

// Thumbnail is a small JPEG of the page the judge considered active when it
// was taken.
type Thumbnail struct {
	JPEG []byte
	// URL is the address of the page in the picture.
	URL string
}

// Thumbnail takes a small JPEG of the viewport of the page Observe would
// choose now (the package documentation states the rule), over the judge's
// own connection. The runner calls it after each tool call of the agent, so
// a report can show what the browser looked like step by step; none of it is
// evidence, and Observe never reads it.
//
// It changes nothing in the browser: it reads the page's state in the
// judge's isolated world and asks for a screenshot, which needs neither
// focus nor scrolling. It takes no picture, and says why, when a dialog is
// showing (the page can run nothing until it is answered, and answering it
// is the agent's business while the task runs) or when no page is visible
// (a page behind others renders no frame to capture).
func (j *Judge) Thumbnail(ctx context.Context, opts ThumbnailOptions) (Thumbnail, error) {
	if opts.Width <= 0 {
		opts.Width = defaultThumbnailWidth
	}
	if opts.Quality <= 0 || opts.Quality > 100 {
		opts.Quality = defaultThumbnailQuality
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultThumbnailTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	if err := j.alive(); err != nil {
		return Thumbnail{}, err
	}
	j.mu.Lock()
	dialogs := len(j.rec.openDialog)
	j.mu.Unlock()
	if dialogs > 0 {
		return Thumbnail{}, errors.New("thumbnail: a dialog is showing")
	}
	active, err := j.activePage(ctx)
	if err != nil {
		return Thumbnail{}, fmt.Errorf("thumbnail: %w", err)
	}
	url := active.state.URL
	if active.state.Visibility != "visible" {
		return Thumbnail{URL: url}, fmt.Errorf("thumbnail of %s: no page is visible", url)
	}
	session := active.page.session
	metrics, err := cdpconn.Send(ctx, j.conn, session, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return Thumbnail{URL: url}, fmt.Errorf("thumbnail of %s: %w", url, err)
	}
	vp := metrics.CSSVisualViewport
	if vp == nil || vp.ClientWidth <= 0 || vp.ClientHeight <= 0 {
		return Thumbnail{URL: url}, fmt.Errorf("thumbnail of %s: the page has no viewport", url)
	}
	shot, err := cdpconn.Send(ctx, j.conn, session, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format:           page.CaptureScreenshotFormatJpeg,
		Quality:          new(int64(opts.Quality)),
		OptimizeForSpeed: new(true),
		// The browser scales the picture down itself: no full-size image
		// crosses the connection.
		Clip: &page.Viewport{
			X: vp.PageX, Y: vp.PageY, Width: vp.ClientWidth, Height: vp.ClientHeight,
			Scale: float64(opts.Width) / vp.ClientWidth,
		},
	})
	if err != nil {
		return Thumbnail{URL: url}, fmt.Errorf("thumbnail of %s: %w", url, err)
	}
	return Thumbnail{JPEG: shot.Data, URL: url}, nil
}
