package judge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
)

// The pages a contract names (contract.PageReads) are the site's state as
// the site shows it, wherever the agent's browser ended: the judge opens
// each in a window of its own in the task's browser context (the same
// cookies, the same server state), once it has observed everything of the
// agent's, and reads it there by the same rules. Such a window is never
// the agent's: it is never the active page, its requests and dialogs are
// not in the task's logs, and it is closed once read.

// readPages reads every page of reads, each in a window of the judge's own.
// A page that cannot be loaded is a reading with an Error; a failure of
// the browser or of the connection is an error.
func (j *Judge) readPages(ctx context.Context, reads []contract.PageRead) (map[string]contract.PageReading, error) {
	if len(reads) == 0 {
		return nil, nil
	}
	out := make(map[string]contract.PageReading, len(reads))
	for _, r := range reads {
		reading, err := j.readPage(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("reading %s in the judge's own window: %w", r.URL, err)
		}
		out[r.URL] = reading
	}
	return out, nil
}

// readPage opens r.URL in a new window of the task's browser context,
// waits for it as Observe waits for the active page (settle), reads r's
// queries there, and closes the window.
func (j *Judge) readPage(ctx context.Context, r contract.PageRead) (reading contract.PageReading, err error) {
	created, err := cdpconn.Send(ctx, j.conn, "", target.CreateTarget, target.CreateTargetParams{
		URL:              "about:blank",
		BrowserContextID: j.opts.BrowserContext,
		// A window of its own: the agent's last page stays in front of
		// its own window, as it was.
		NewWindow: new(true),
	})
	if err != nil {
		return reading, fmt.Errorf("opening a window: %w", err)
	}
	id := created.TargetID
	j.mu.Lock()
	j.rec.own[id] = true
	j.mu.Unlock()
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), setupTimeout)
		defer cancel()
		if _, cerr := cdpconn.Send(cctx, j.conn, "", target.CloseTarget, target.CloseTargetParams{TargetID: id}); cerr != nil && err == nil {
			err = fmt.Errorf("closing the judge's window: %w", cerr)
		}
	}()
	actx, cancel := context.WithTimeout(ctx, setupTimeout)
	err = j.awaitPage(actx, id)
	cancel()
	if err != nil {
		return reading, err
	}
	j.mu.Lock()
	p := j.pages[id]
	j.mu.Unlock()
	if p == nil {
		return reading, errors.New("the window closed before the judge could use it")
	}
	nav, err := cdpconn.Send(ctx, j.conn, p.session, page.Navigate, page.NavigateParams{URL: r.URL})
	if err != nil {
		return reading, fmt.Errorf("navigating: %w", err)
	}
	if nav.ErrorText != "" {
		reading.URL, reading.Error = r.URL, nav.ErrorText
		return reading, nil
	}
	look := func(ctx context.Context) (*pageView, error) { return j.view(ctx, p) }
	busy, err := j.settleOn(ctx, look)
	if err != nil {
		return reading, err
	}
	for attempt := 1; ; attempt++ {
		reading, err = j.readOwn(ctx, p, r.Queries)
		if err == nil || attempt == captureAttempts || !isProtocolError(err) {
			break
		}
		select {
		case <-time.After(captureRetryPause):
		case <-ctx.Done():
			return reading, errors.Join(err, ctx.Err())
		}
	}
	if err != nil {
		return reading, err
	}
	reading.Busy = busy
	return reading, nil
}

// readOwn reads queries on the judge's own page p by the rules of
// capture, the pixels included when the page paints.
func (j *Judge) readOwn(ctx context.Context, p *pageState, queries []contract.Query) (contract.PageReading, error) {
	v, err := j.view(ctx, p)
	if err != nil {
		return contract.PageReading{}, err
	}
	reading := contract.PageReading{URL: v.state.URL, Title: v.state.Title}
	results, err := j.see(ctx, v, queries, func() (bool, error) { return v.state.Visibility == "visible", nil })
	if err != nil {
		return reading, err
	}
	reading.Elements = j.elements(queries, results)
	return reading, nil
}

// isProtocolError reports whether err is the browser's answer to a
// command, as when a page navigates while it is read.
func isProtocolError(err error) bool {
	_, ok := errors.AsType[*cdproto.Error](err)
	return ok
}
