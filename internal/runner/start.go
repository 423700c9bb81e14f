package runner

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/cdpconn"
)

// openStart navigates the task's page (id, or the browser's first page
// when id is empty) to the task's start URL, the way a user's browser
// would be opened on it, waits for its load event and detaches. It runs
// after the judge attached, so the judge sees the start page load too.
func openStart(ctx context.Context, browserURL string, id target.ID, url string) error {
	// The connection attaches to one page alone, so every lifecycle event
	// it hears is that page's. loads carries the loader of each document
	// that fired its load event.
	loads := make(chan cdp.LoaderID, 16)
	c, err := cdpconn.Dial(ctx, browserURL, func(_ target.SessionID, msg *cdproto.Message) {
		if msg.Method != cdproto.EventPageLifecycleEvent {
			return
		}
		if ev, ok := cdpconn.Decode[page.EventLifecycleEvent](msg); ok && ev.Name == "load" {
			select {
			case loads <- ev.LoaderID:
			default: // a page that loads this often is not the start page
			}
		}
	})
	if err != nil {
		return err
	}
	c.Listen()
	// Closing the connection detaches, never closes: the page is the task's.
	defer c.Close()
	if id == "" {
		targets, err := cdpconn.Send(ctx, c, "", target.GetTargets, target.GetTargetsParams{})
		if err != nil {
			return fmt.Errorf("list pages: %w", err)
		}
		for _, t := range targets.TargetInfos {
			if t.Type == "page" {
				id = t.TargetID
				break
			}
		}
		if id == "" {
			return fmt.Errorf("the browser has no page to open %s in", url)
		}
	}
	att, err := cdpconn.Send(ctx, c, "", target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: new(true)})
	if err != nil {
		return fmt.Errorf("open %s: %w", url, err)
	}
	for _, cmd := range []struct {
		method string
		params any
	}{
		{page.Enable.Method, page.EnableParams{}},
		{page.SetLifecycleEventsEnabled.Method, page.SetLifecycleEventsEnabledParams{Enabled: true}},
	} {
		if err := c.Call(ctx, att.SessionID, cmd.method, cmd.params, nil); err != nil {
			return fmt.Errorf("open %s: %w", url, err)
		}
	}
	nav, err := cdpconn.Send(ctx, c, att.SessionID, page.Navigate, page.NavigateParams{URL: url})
	if err != nil {
		return fmt.Errorf("open %s: %w", url, err)
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("open %s: %s", url, nav.ErrorText)
	}
	if nav.LoaderID == "" {
		return nil // a navigation within the document: nothing loads
	}
	for {
		select {
		case id := <-loads:
			if id == nav.LoaderID {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("open %s: waiting for its load event: %w", url, ctx.Err())
		case <-c.Done():
			return fmt.Errorf("open %s: %w", url, c.Lost())
		}
	}
}
