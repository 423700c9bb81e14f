package judge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
	"contractbench/internal/phash"
	"contractbench/internal/problem"
	"contractbench/internal/spare"
)

// worldName names the judge's isolated world in each page, so a look at the
// page's execution contexts shows who made it.
const worldName = "contractbench-judge"

// Want is what Observe must capture for a contract to be evaluated.
type Want struct {
	// Queries are the selectors to read, with the strings to look for in
	// their text (contract.Queries).
	Queries []contract.Query
	// ClassShots asks for a screenshot of the first state too, hashed,
	// because the contract has a screenshot_class clause. The final state
	// always has its screenshot.
	ClassShots bool
	// Pages are the pages the judge opens and reads itself once it has
	// observed the rest (contract.PageReads, Observation.Pages).
	Pages []contract.PageRead
}

// wantFor is what evaluating pc needs.
func wantFor(pc contract.Postconditions) Want {
	return Want{Queries: contract.Queries(pc), ClassShots: contract.NeedsScreenshotClass(pc), Pages: contract.PageReads(pc)}
}

// Observe captures the final state of the browser once it has settled: the
// active page's URL, title, the visible matches of each query and their
// text, and viewport screenshot, and the network log and dialogs of the
// whole task. Call it once the task has ended.
//
// It first waits (within Options.SettleMax) until the active page is
// quiet, reads it (Observation.Settling.First), runs the page's clock
// ahead until nothing has changed in it for Options.Advance of its own
// time, so that what it has scheduled happens now (within a minute of
// its time and Options.AdvanceMax of the machine's spare time;
// Settling.AdvancedMS and Settling.Stopped say how far it ran and why it
// stopped), waits until it is quiet again, and reads the final state.
// contract.Evaluate grades both readings.
//
// A dialog still showing is recorded as open, and then dismissed, because a
// page with a dialog runs no script and so cannot be inspected. Dismissing
// it, and running the page's clock ahead after the task, are the only
// things the judge ever does to a page of the task's web (for what is not
// that web, see guard.go).
//
// Observe fails if the connection to the browser is lost (the browser
// crashed or was closed), if a selector is invalid, or if a page that may
// be the active one has crashed: the state of a crashed page cannot be
// read, so the judge cannot rule it out.
func (j *Judge) Observe(ctx context.Context, want Want) (contract.Observation, error) {
	if err := j.alive(); err != nil {
		return contract.Observation{}, err
	}
	start := time.Now()
	settling := &contract.Settling{Quiet: true}
	settle := func() error {
		if err := j.dismissDialogs(ctx); err != nil {
			return err
		}
		busy, err := j.settle(ctx)
		if err != nil {
			return err
		}
		if busy != "" && settling.Quiet {
			settling.Quiet, settling.Busy = false, busy
		}
		return nil
	}
	if err := settle(); err != nil {
		return contract.Observation{}, j.explain(err)
	}
	first, err := j.captureRetrying(ctx, want, want.ClassShots)
	if err != nil {
		return contract.Observation{}, err
	}
	settling.First = &contract.PageState{URL: first.URL, Title: first.Title, Elements: first.Elements, AtMS: j.sinceStart()}
	if len(first.Screenshot.PNG) > 0 {
		if h, err := phash.FromPNG(first.Screenshot.PNG); err == nil {
			settling.First.PHash = h.String()
		}
	}
	advanced, stopped, err := j.advance(ctx)
	if err != nil {
		return contract.Observation{}, j.explain(err)
	}
	settling.AdvancedMS, settling.Stopped = advanced.Milliseconds(), stopped
	if advanced == 0 {
		settling.First = nil // the same state as the final one
	}
	if err := settle(); err != nil {
		return contract.Observation{}, j.explain(err)
	}
	obs, err := j.captureRetrying(ctx, want, true)
	if err != nil {
		return contract.Observation{}, err
	}
	settling.WaitedMS = time.Since(start).Milliseconds()
	obs.Settling = settling
	version, err := cdpconn.Send(ctx, j.conn, "", browser.GetVersion, cdp.Empty{})
	if err != nil {
		return contract.Observation{}, j.explain(err)
	}
	obs.Browser = version.Product
	// Everything of the agent's is observed: only now does the judge
	// open pages of its own.
	if obs.Pages, err = j.readPages(ctx, want.Pages); err != nil {
		return contract.Observation{}, j.explain(err)
	}
	return obs, nil
}

// Grade observes the browser for pc (Observe), hashes the final
// screenshot, and evaluates pc on the Observation with contract.Evaluate.
// The Observation it returns is complete for re-grading offline.
func (j *Judge) Grade(ctx context.Context, pc contract.Postconditions, classes contract.Classes) (contract.Verdict, contract.Observation, error) {
	obs, err := j.Observe(ctx, wantFor(pc))
	if err != nil {
		return contract.Verdict{}, obs, err
	}
	return Evaluate(pc, &obs, classes), obs, nil
}

// Evaluate completes an Observation with its screenshot's perceptual hash,
// when it has a screenshot and no hash yet, and evaluates pc on it. It is
// how every verdict is reached, live or from a stored Observation.
func Evaluate(pc contract.Postconditions, obs *contract.Observation, classes contract.Classes) contract.Verdict {
	if len(obs.Screenshot.PNG) > 0 && obs.Screenshot.PHash == "" {
		if h, err := phash.FromPNG(obs.Screenshot.PNG); err == nil {
			obs.Screenshot.PHash = h.String()
		}
	}
	return contract.Evaluate(pc, *obs, classes)
}

// captureRetrying reads the active page and the logs, again when the page
// navigated under the judge's feet.
func (j *Judge) captureRetrying(ctx context.Context, want Want, shot bool) (contract.Observation, error) {
	for attempt := 1; ; attempt++ {
		obs, err := j.capture(ctx, want, shot)
		if err == nil {
			return obs, nil
		}
		// A page that navigates while it is read loses the isolated world
		// under the judge's feet, and the browser answers with a protocol
		// error; reading it again then succeeds.
		if attempt == captureAttempts || !isProtocolError(err) {
			return contract.Observation{}, j.explain(err)
		}
		select {
		case <-time.After(captureRetryPause):
		case <-ctx.Done():
			return contract.Observation{}, j.explain(errors.Join(err, ctx.Err()))
		}
	}
}

// How often, and how far apart, Observe reads a page that keeps changing
// under it before it gives up.
const (
	captureAttempts   = 3
	captureRetryPause = 100 * time.Millisecond
)

// capture reads the active page and the logs.
func (j *Judge) capture(ctx context.Context, want Want, shot bool) (contract.Observation, error) {
	active, err := j.activePage(ctx)
	if err != nil {
		return contract.Observation{}, err
	}
	obs := contract.Observation{URL: active.state.URL, Title: active.state.Title, Active: active.why}
	// The screenshot is taken while the queries run: the browser paints
	// and encodes it in other threads than the page's script.
	// A page behind others renders nothing, and capturing it would wait
	// for a frame that never comes; such an observation has no screenshot.
	// A page may also say it is visible and paint nothing: a server that
	// emulates focus makes every page it selects report visible, also
	// one behind another tab. Its screenshot never comes; after
	// screenshotMax the observation has none, and the rules alone decide
	// what it shows.
	paints := active.state.Visibility == "visible"
	var screenshot <-chan error
	if shot && paints {
		done := make(chan error, 1)
		screenshot = done
		go func() {
			sctx, cancel := spare.WithTimeout(ctx, screenshotMax)
			defer cancel()
			shot, err := cdpconn.Send(sctx, j.conn, active.page.session, page.CaptureScreenshot, page.CaptureScreenshotParams{
				Format: page.CaptureScreenshotFormatPng,
				// Faster compression, the same pixels.
				OptimizeForSpeed: new(true),
			})
			if err != nil && ctx.Err() == nil && sctx.Err() != nil {
				done <- errNoFrame
				return
			}
			if err != nil {
				done <- fmt.Errorf("screenshot of %s: %w", obs.URL, err)
				return
			}
			obs.Screenshot.PNG = shot.Data
			done <- nil
		}()
	}
	// The queries run while the screenshot is taken; the pixels confirm
	// what the rules found once it is: looking at the words may scroll
	// the page. A page that paints nothing leaves the rules to decide
	// alone.
	results, err := j.see(ctx, active, want.Queries, func() (bool, error) {
		if screenshot == nil {
			return paints, nil
		}
		if err := <-screenshot; errors.Is(err, errNoFrame) {
			return false, nil
		} else if err != nil {
			return false, err
		}
		return paints, nil
	})
	if err != nil {
		return contract.Observation{}, err
	}
	obs.Elements = j.elements(want.Queries, results)
	j.mu.Lock()
	obs.Network = j.rec.network(func(id target.ID) bool {
		p := j.pages[id]
		return p == nil || p.subtype != "prerender"
	})
	obs.Dialogs = j.rec.dialogList()
	obs.Refused = slices.Clone(j.refused)
	j.mu.Unlock()
	return obs, nil
}

// settle waits until the active page is quiet: its document loaded, none
// of its requests in flight and no request anywhere started or ended for
// quietFor, its DOM unchanged for quietFor. It gives up after
// Options.SettleMax, or Options.LoadMax while the document is still
// loading, and then says what was still busy.
func (j *Judge) settle(ctx context.Context) (busy string, err error) {
	return j.settleOn(ctx, j.activePage)
}

// settleOn waits, as settle does, until the page look finds is quiet.
func (j *Judge) settleOn(ctx context.Context, look func(context.Context) (*pageView, error)) (busy string, err error) {
	clock := spare.Start()
	for {
		v, err := look(ctx)
		if err != nil {
			return "", err
		}
		busy, wait := j.busy(v)
		if busy == "" {
			return "", nil
		}
		bound := j.opts.SettleMax
		if v.state.Ready != "complete" {
			bound = max(bound, j.opts.LoadMax)
		}
		left := clock.Left(bound)
		if left == 0 {
			return fmt.Sprintf("%s: %s after %s", v.state.URL, busy, bound), nil
		}
		// busy's wait is when the page could be quiet at the earliest
		// (settlePoll while it loads or fetches): what happens meanwhile
		// only puts that later, so looking sooner would only cost the
		// page and the browser a call.
		select {
		case <-time.After(min(wait, left)):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Settle waits, as Observe does before its first reading, until the active
// page is quiet (within Options.SettleMax), and says what was still busy
// if it never was. The runner calls it once the start page has loaded and
// before the agent's first tool call, so the start page's own late
// requests fall before the agent's network window on every run, not only
// on runs where they happened to be quick.
func (j *Judge) Settle(ctx context.Context) (busy string, err error) {
	return j.settle(ctx)
}

// settlePoll is how often settle looks again at a page that is busy.
const settlePoll = 50 * time.Millisecond

// busy says what keeps the page from being quiet, and how long until it
// could be; "" when it is quiet.
func (j *Judge) busy(v *pageView) (string, time.Duration) {
	if v.state.Ready != "complete" {
		return "the document is still loading (readyState " + v.state.Ready + ")", settlePoll
	}
	j.mu.Lock()
	pending, last := j.rec.busy(v.page.id)
	j.mu.Unlock()
	if len(pending) > 0 {
		return fmt.Sprintf("%d requests in flight (%s)", len(pending), problem.Bound(strings.Join(pending, ", "), 200)), settlePoll
	}
	quiet := quietFor
	if since := time.Since(last); !last.IsZero() && since < quiet {
		return "the network was active " + since.Round(time.Millisecond).String() + " ago", quiet - since
	}
	if since := time.Duration(v.state.Now-v.state.MutatedAt) * time.Millisecond; since < quiet {
		return "the DOM changed " + since.Round(time.Millisecond).String() + " ago", quiet - since
	}
	return "", 0
}

// sinceStart is the time since Attach in milliseconds, on the judge's
// clock, as network start times are.
func (j *Judge) sinceStart() int64 {
	now := time.Now()
	j.mu.Lock()
	defer j.mu.Unlock()
	return now.Sub(j.rec.start).Milliseconds()
}

// Heard returns when the browser last sent the judge anything: the
// judge's progress, for a deadline that measures it rather than wall time.
func (j *Judge) Heard() time.Time { return j.conn.Heard() }

// alive reports an error if the connection to the browser has ended.
func (j *Judge) alive() error {
	select {
	case <-j.conn.Done():
		return fmt.Errorf("judge: the browser crashed or was closed: %w", j.conn.Lost())
	default:
		return nil
	}
}

// explain prefixes err, and says when it came from losing the browser.
func (j *Judge) explain(err error) error {
	if errors.Is(err, cdpconn.ErrLost) {
		return fmt.Errorf("judge: the browser crashed or was closed: %w", err)
	}
	return fmt.Errorf("judge: %w", err)
}

// dismissDialogs closes every dialog still showing, after marking it as
// open at the end of the task.
func (j *Judge) dismissDialogs(ctx context.Context) error {
	j.mu.Lock()
	var showing []*dialog
	for _, d := range j.rec.dialogs { // in the order they opened
		if j.rec.openDialog[d.session] == d {
			d.dismissedByJudge = true
			showing = append(showing, d)
		}
	}
	j.mu.Unlock()
	for _, d := range showing {
		_, err := cdpconn.Send(ctx, j.conn, d.session, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		if err != nil && !j.dialogGone(d) {
			return fmt.Errorf("dismissing the %s %q: %w", d.d.Type, d.d.Message, err)
		}
	}
	return nil
}

// dialogGone reports whether a dialog closed by itself, or with its page.
func (j *Judge) dialogGone(d *dialog) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.rec.openDialog[d.session] != d
}
