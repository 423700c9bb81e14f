package runner

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// openStart navigates the browser's first page to the task's start URL, the
// way a user's browser would be opened on it, and detaches. It runs after
// the judge attached, so the judge sees the start page load too.
func openStart(ctx context.Context, browserURL, url string) error {
	allocCtx, cancelAlloc := remote.NewAllocator(ctx, browserURL)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	targets, err := chromedp.Targets(bctx)
	if err != nil {
		return fmt.Errorf("list pages: %w", err)
	}
	var page target.ID
	for _, t := range targets {
		if t.Type == "page" {
			page = t.TargetID
			break
		}
	}
	if page == "" {
		return fmt.Errorf("the browser has no page to open %s in", url)
	}
	// Detach, never close, when done: the page is the task's.
	pctx, cancelPage := chromedp.NewContext(bctx, chromedp.WithTargetID(page), chromedp.WithDetachOnCancel())
	defer cancelPage()
	if _, err := chromedp.Run(pctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("open %s: %w", url, err)
	}
	return nil
}
