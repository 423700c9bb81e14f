package judge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
	"contractbench/internal/phash"
	"contractbench/internal/problem"
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
}

// wantFor is what evaluating pc needs.
func wantFor(pc contract.Postconditions) Want {
	return Want{Queries: contract.Queries(pc), ClassShots: contract.NeedsScreenshotClass(pc)}
}

// Observe captures the final state of the browser once it has settled: the
// active page's URL, title, the visible matches of each query and their
// text, and viewport screenshot, and the network log and dialogs of the
// whole task. Call it once the task has ended.
//
// It first waits (within Options.SettleMax) until the active page is
// quiet, reads it (Observation.Settling.First), runs the page's clock
// ahead until nothing has changed in it for Options.Advance of its own
// time, so that what it has scheduled happens now (within
// Options.AdvanceLimit of its time and Options.AdvanceMax of real time;
// Settling.AdvancedMS and Settling.Stopped say how far it ran and why it
// stopped), waits until it is quiet again, and reads the final state.
// contract.Evaluate grades both readings.
//
// A dialog still showing is recorded as open, and then dismissed, because a
// page with a dialog runs no script and so cannot be inspected. Dismissing
// it, and running the page's clock ahead after the task, are the only
// things the judge ever does to a page.
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
		var protocolErr *cdproto.Error
		if attempt == captureAttempts || !errors.As(err, &protocolErr) {
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
			sctx, cancel := context.WithTimeout(ctx, screenshotMax)
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
	results, err := j.read(ctx, active, want.Queries, nil)
	if screenshot != nil {
		serr := <-screenshot
		if errors.Is(serr, errNoFrame) {
			paints, serr = false, nil
		}
		err = errors.Join(err, serr)
	}
	if err != nil {
		return contract.Observation{}, err
	}
	// The pixels confirm what the rules found once the screenshot is
	// taken: looking at the words may scroll the page. A page that paints
	// nothing leaves the rules to decide alone.
	if paints {
		if results, err = j.confirm(ctx, active, want.Queries, results); err != nil {
			return contract.Observation{}, fmt.Errorf("looking at %s: %w", active.state.URL, err)
		}
	}
	elements := j.elements(want.Queries, results)
	obs.Elements = elements
	j.mu.Lock()
	obs.Network = j.rec.network(func(id target.ID) bool {
		p := j.pages[id]
		return p == nil || p.subtype != "prerender"
	})
	obs.Dialogs = j.rec.dialogList()
	j.mu.Unlock()
	return obs, nil
}

// settle waits until the active page is quiet: its document loaded, none
// of its requests in flight and no request anywhere started or ended for
// Options.Quiet, its DOM unchanged for Options.Quiet. It gives up after
// Options.SettleMax, or Options.LoadMax while the document is still
// loading, and then says what was still busy.
func (j *Judge) settle(ctx context.Context) (busy string, err error) {
	start := time.Now()
	for {
		v, err := j.activePage(ctx)
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
		left := bound - time.Since(start)
		if left <= 0 {
			return fmt.Sprintf("%s: %s after %s", v.state.URL, busy, bound), nil
		}
		select {
		case <-time.After(min(wait, left, settlePoll)):
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
	quiet := j.opts.Quiet
	if since := time.Since(last); !last.IsZero() && since < quiet {
		return "the network was active " + since.Round(time.Millisecond).String() + " ago", quiet - since
	}
	if since := time.Duration(v.state.Now-v.state.MutatedAt) * time.Millisecond; since < quiet {
		return "the DOM changed " + since.Round(time.Millisecond).String() + " ago", quiet - since
	}
	return "", 0
}

// advance runs the active page's clock ahead with
// Emulation.setVirtualTimePolicy: the timers the page set fire at once, in
// order, and its clock waits while the page fetches. The clock runs in
// steps until nothing has changed in the page (no change to its DOM, no
// new document, none of its requests in flight) for Options.Advance of
// its own time, the horizon, counted from the first reading: the first step is
// the whole horizon, and each next one runs to a horizon after the latest
// change. A page that never stops changing (a clock, a carousel) runs to
// Options.AdvanceLimit of its time, and then on in steps of at most
// Options.Quiet until it has been still for Options.Quiet (at most
// quietSteps of them), so that the final reading is not taken in the
// middle of a change. Options.AdvanceMax bounds the whole in real time. A
// dialog that opens meanwhile is dismissed, as Observe dismisses one still
// showing, and the clock goes on.
//
// It returns how far the clock ran and why it stopped. Afterwards the
// page's clock stands still; the judge reads the page, and nothing else
// runs in it.
func (j *Judge) advance(ctx context.Context) (time.Duration, string, error) {
	if j.opts.Advance <= 0 {
		return 0, "", nil
	}
	horizon, limit := j.opts.Advance, j.opts.AdvanceLimit
	deadline := time.Now().Add(j.opts.AdvanceMax)
	v, err := j.activePage(ctx)
	if err != nil {
		return 0, "", err
	}
	// still is how long the page has been still, in its own time, since
	// the first reading.
	var ran, still time.Duration
	for extra := 0; ; {
		var step time.Duration
		switch {
		case still >= horizon:
			return ran, fmt.Sprintf("nothing changed for the horizon, %d ms of the page's time", horizon.Milliseconds()), nil
		case ran >= limit && (still >= j.opts.Quiet || extra == quietSteps):
			return ran, fmt.Sprintf("the page kept changing to the limit, %d ms of its time", limit.Milliseconds()), nil
		case ran >= limit:
			step = j.opts.Quiet - still
			extra++
		default:
			step = min(horizon-still, limit-ran)
		}
		if !time.Now().Before(deadline) {
			return ran, j.outOfTime(ran, ""), nil
		}
		r, err := j.runClock(ctx, v, step, deadline)
		if err != nil {
			return ran + r.ran, "", err
		}
		if !r.whole {
			return ran + r.ran, j.outOfTime(ran+r.ran, r.waiting), nil
		}
		if err := j.dismissDialogs(ctx); err != nil {
			return ran + r.ran, "", err
		}
		next, err := j.activePage(ctx)
		if err != nil {
			return ran + r.ran, "", err
		}
		if next.page != v.page {
			ran, still = ran+r.ran, 0
			v = next
			continue
		}
		// The page's own clock says how far it ran: after its script
		// navigated, Chromium spends part of a budget without moving it.
		took := min(r.ran, millis(next.state.Now-v.state.Now))
		ran += took
		if r.pending {
			still = 0
		} else {
			still = min(still+took, millis(next.state.Now-next.state.MutatedAt))
		}
		v = next
	}
}

// millis is a span of a page's clock, in milliseconds, to the nearest
// millisecond and never negative.
func millis(ms float64) time.Duration {
	return time.Duration(max(ms, 0) * float64(time.Millisecond)).Round(time.Millisecond)
}

// quietSteps bounds the steps that advance takes past
// Options.AdvanceLimit to reach a moment when the page is still.
const quietSteps = 4

// outOfTime says that the clock stopped at Options.AdvanceMax, and what
// the page was waiting on then, if anything.
func (j *Judge) outOfTime(ran time.Duration, waiting string) string {
	s := fmt.Sprintf("the bound of %s of real time, after %d ms of the page's time", j.opts.AdvanceMax, ran.Milliseconds())
	if waiting != "" {
		s += ", with " + waiting
	}
	return s
}

// clockRun is what one step of the page's clock did.
type clockRun struct {
	// ran is how far the clock ran: the step, when it was run whole.
	ran   time.Duration
	whole bool
	// pending reports that the page had requests in flight when the step
	// ended.
	pending bool
	// waiting lists the page's requests in flight when the step was cut
	// short.
	waiting string
}

// runClock runs the clock of v's page step ahead, and waits until it has
// or until deadline, when it stops the clock wherever it is.
//
// The page's clock waits while the page fetches. A clock that stands still
// with none of the page's requests in flight that the judge waits for
// (the page keeps an event stream open, or Chromium left the clock paused
// after a navigation) runs on without waiting for requests.
func (j *Judge) runClock(ctx context.Context, v *pageView, step time.Duration, deadline time.Time) (clockRun, error) {
	p := v.page
	var r clockRun
	from, last := v.state.Now, v.state.Now
	ranSince := func(now float64) time.Duration {
		return min(millis(now-from), step)
	}
	policy := emulation.VirtualTimePolicyPauseIfNetworkFetchesPending
	done, err := j.runFor(ctx, p, policy, step)
	for frozen := 0; ; {
		if err != nil {
			if j.isClosed(p) {
				r.whole = true // the step ends with the page
				return r, nil
			}
			return r, fmt.Errorf("running the clock of %s ahead: %w", v.state.URL, err)
		}
		select {
		case <-done:
			r.ran, r.whole = step, true
			j.mu.Lock()
			pending, _ := j.rec.busy(p.id)
			j.mu.Unlock()
			r.pending = len(pending) > 0
			return r, nil
		case <-time.After(min(settlePoll, time.Until(deadline))):
		case <-ctx.Done():
			return r, ctx.Err()
		}
		if err := j.dismissDialogs(ctx); err != nil {
			return r, err
		}
		if j.isClosed(p) {
			r.ran, r.whole = ranSince(last), true
			return r, nil
		}
		now, read := j.pageClock(ctx, p)
		if read {
			r.ran = ranSince(now)
		}
		j.mu.Lock()
		pending, _ := j.rec.busy(p.id)
		j.mu.Unlock()
		if !time.Now().Before(deadline) {
			if err := j.stopClock(ctx, p); err != nil {
				return r, err
			}
			if now, read := j.pageClock(ctx, p); read {
				r.ran = ranSince(now)
			}
			if len(pending) > 0 {
				r.waiting = fmt.Sprintf("%d requests in flight (%s)", len(pending), problem.Bound(strings.Join(pending, ", "), 200))
			}
			return r, nil
		}
		if read && now == last && len(pending) == 0 {
			frozen++
		} else {
			frozen = 0
		}
		if read {
			last = now
		}
		if frozen == frozenPolls && policy != emulation.VirtualTimePolicyAdvance {
			policy = emulation.VirtualTimePolicyAdvance
			done, err = j.runFor(ctx, p, policy, max(step-ranSince(now), time.Millisecond))
		}
	}
}

// frozenPolls is how many times in a row runClock must find the page's
// clock standing still, with nothing in flight, to run it on regardless.
const frozenPolls = 2

// runFor sets p's clock running for budget of its time under policy, and
// returns a channel that is closed once it has run that far
// (Emulation.virtualTimeBudgetExpired).
func (j *Judge) runFor(ctx context.Context, p *pageState, policy emulation.VirtualTimePolicy, budget time.Duration) (<-chan struct{}, error) {
	done := make(chan struct{})
	j.mu.Lock()
	p.advanced = done
	j.mu.Unlock()
	_, err := cdpconn.Send(ctx, j.conn, p.session, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: policy,
		Budget: new(float64(budget) / float64(time.Millisecond)),
	})
	return done, err
}

// stopClock stops p's clock where it is. A dialog that just opened would
// hold the command until it closes, so it is sent first, and the dialog
// dismissed after it. A page whose script does not let go of its thread
// for Options.SettleMax is left as it is.
func (j *Judge) stopClock(ctx context.Context, p *pageState) error {
	j.mu.Lock()
	p.advanced = nil
	j.mu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, j.opts.SettleMax)
	defer cancel()
	reply := j.conn.Start(wctx, p.session, emulation.SetVirtualTimePolicy.Method, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPause,
	})
	if err := j.dismissDialogs(ctx); err != nil {
		return err
	}
	err := reply.Wait(wctx, nil)
	switch {
	case err == nil, j.isClosed(p):
		return nil
	case ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded):
		return nil
	}
	return fmt.Errorf("stopping the page's clock: %w", err)
}

// pageClock reads p's clock, in milliseconds (js/page_state.js); false
// when the page cannot answer now (it is between documents, or busy
// past pageClockWait).
func (j *Judge) pageClock(ctx context.Context, p *pageState) (float64, bool) {
	ctx, cancel := context.WithTimeout(ctx, pageClockWait)
	defer cancel()
	w, err := j.view(ctx, p)
	if err != nil {
		return 0, false
	}
	return w.state.Now, true
}

// pageClockWait bounds each reading of a page's clock while it runs.
const pageClockWait = 500 * time.Millisecond

// sinceStart is the time since Attach in milliseconds, on the judge's
// clock, as network start times are.
func (j *Judge) sinceStart() int64 {
	now := j.opts.Clock()
	j.mu.Lock()
	defer j.mu.Unlock()
	return now.Sub(j.rec.start).Milliseconds()
}

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

// pageView is what Observe learned about one open page.
type pageView struct {
	page  *pageState
	world runtime.ExecutionContextID
	state struct {
		Visibility   string  `json:"visibility"`
		URL          string  `json:"url"`
		Title        string  `json:"title"`
		Ready        string  `json:"ready"`
		MutatedAt    float64 `json:"mutatedAt"`
		AttendedAt   float64 `json:"attendedAt"`
		ShownAt      float64 `json:"shownAt"`
		WatchedSince float64 `json:"watchedSince"`
		Now          float64 `json:"now"`
	}
	// attention is when the agent last chose this page, and sign how;
	// zero when it never did.
	attention time.Time
	sign      sign
	// why says why the page is the active one; set by activePage.
	why string
}

// sign is a way the agent chooses a page.
type sign int

const (
	signNone sign = iota
	// signOpened: the page opened, and no other page opened it: the agent's
	// tool server did (or it was open at Attach).
	signOpened
	// signNavigated: the browser navigated its main frame other than for the
	// page's own script, and other than to load what its opener asked for.
	signNavigated
	// signInput: the page received trusted input.
	signInput
	// signShown: the page was brought to the front of its window.
	signShown
)

// consider takes at as the page's attention, with sign s, if it is later.
func (v *pageView) consider(at time.Time, s sign) {
	if !at.IsZero() && at.After(v.attention) {
		v.attention, v.sign = at, s
	}
}

// activePage finds the page the agent is looking at. See the package
// documentation for the rule.
func (j *Judge) activePage(ctx context.Context) (*pageView, error) {
	j.mu.Lock()
	var open []*pageState
	for _, p := range j.pages {
		if !p.closed && p.subtype == "" {
			open = append(open, p)
		}
	}
	j.mu.Unlock()

	var views, visible []*pageView
	for _, p := range open {
		v, err := j.view(ctx, p)
		if err != nil {
			if j.isClosed(p) {
				continue // closed while we looked
			}
			return nil, err
		}
		views = append(views, v)
		if v.state.Visibility == "visible" {
			visible = append(visible, v)
		}
	}
	if len(views) == 0 {
		return nil, errors.New("no open page to observe")
	}
	among, what := visible, "visible"
	if len(visible) == 0 {
		among, what = views, "open (none is visible)"
	}
	best := slices.MaxFunc(among, func(a, b *pageView) int {
		if c := a.attention.Compare(b.attention); c != 0 {
			return c
		}
		return cmp.Compare(a.page.seq, b.page.seq)
	})
	switch {
	case len(views) == 1:
		best.why = "the only open page"
	case len(among) == 1:
		best.why = fmt.Sprintf("of %d open pages, the only one visible", len(views))
	case best.sign == signNone:
		best.why = fmt.Sprintf("of %d open pages, %d %s; the agent chose none of them, and this one opened last", len(views), len(among), what)
	default:
		best.why = fmt.Sprintf("of %d open pages, %d %s; this one had the agent's latest activity (%s)",
			len(views), len(among), what, best.attentionKind())
	}
	return best, nil
}

// attentionKind names the latest sign of the agent's choice of the page.
func (v *pageView) attentionKind() string {
	switch v.sign {
	case signOpened:
		return "it opened, and not by another page"
	case signNavigated:
		return "a navigation the page did not start itself"
	case signInput:
		return "trusted input"
	case signShown:
		return "it was brought to the front of its window"
	default:
		return "none"
	}
}

func (j *Judge) isClosed(p *pageState) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return p.closed
}

// view makes an isolated world in p's main frame and reads the page state
// there.
func (j *Judge) view(ctx context.Context, p *pageState) (*pageView, error) {
	select {
	case <-p.ready:
	case <-ctx.Done():
		return nil, fmt.Errorf("page %s: waiting for the judge to attach: %w", p.id, ctx.Err())
	}
	j.mu.Lock()
	crashed, setupErr := p.crashed, p.err
	j.mu.Unlock()
	if crashed {
		return nil, fmt.Errorf("page %s crashed", p.id)
	}
	if setupErr != nil {
		return nil, fmt.Errorf("page %s: %w", p.id, setupErr)
	}
	tree, err := cdpconn.Send(ctx, j.conn, p.session, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", p.id, err)
	}
	world, err := cdpconn.Send(ctx, j.conn, p.session, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{
		FrameID:   tree.FrameTree.Frame.ID,
		WorldName: worldName,
	})
	if err != nil {
		return nil, fmt.Errorf("page %s (%s): %w", p.id, tree.FrameTree.Frame.URL, err)
	}
	v := &pageView{page: p, world: world.ExecutionContextID}
	res, err := cdpconn.Send(ctx, j.conn, p.session, runtime.Evaluate, runtime.EvaluateParams{
		Expression:    watchJS + ";\n" + pageStateJS,
		ContextID:     v.world,
		ReturnByValue: new(true),
	})
	if err := evalErr(res.ExceptionDetails, err); err != nil {
		return nil, fmt.Errorf("page %s (%s): reading its state: %w", p.id, tree.FrameTree.Frame.URL, err)
	}
	if err := decodeResult(res.Result, &v.state); err != nil {
		return nil, fmt.Errorf("page %s: decoding its state: %w", p.id, err)
	}
	j.mu.Lock()
	if !p.byPage {
		v.consider(p.openedAt, signOpened)
	}
	v.consider(p.navigatedAt, signNavigated)
	j.mu.Unlock()
	v.consider(wallTime(v.state.AttendedAt), signInput)
	v.consider(wallTime(v.state.ShownAt), signShown)
	return v, nil
}

// wallTime is a time the page recorded, in milliseconds on the wall clock;
// zero for 0, which says it never happened.
func wallTime(ms float64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMicro(int64(ms * 1000))
}

// queryResult is what query.js answers for one query.
type queryResult struct {
	Count  int      `json:"count"`
	Hidden int      `json:"hidden"`
	Texts  []string `json:"texts"`
	Cut    bool     `json:"cut"`
	Found  [][3]any `json:"found"`
	Error  *string  `json:"error"`
	// hits is Found decoded.
	hits []hit
}

// hit is where a looked-for string was found: the 1-based index of the
// match (0: not found), the text around it, and the pieces of the page it
// was read from (paint.js's spans).
type hit struct {
	match   int
	excerpt string
	spans   []word
}

// decodeHits fills r.hits from r.Found.
func (r *queryResult) decodeHits() {
	r.hits = make([]hit, len(r.Found))
	for k, f := range r.Found {
		match, _ := f[0].(float64)
		h := hit{match: int(match)}
		h.excerpt, _ = f[1].(string)
		spans, _ := f[2].([]any)
		for _, sp := range spans {
			if w, ok := sp.([]any); ok && len(w) == 3 {
				a, _ := w[0].(float64)
				b, _ := w[1].(float64)
				c, _ := w[2].(float64)
				h.spans = append(h.spans, word{int(a), int(b), int(c)})
			}
		}
		r.hits[k] = h
	}
}

// elements turns what query.js answered into an Observation's elements.
func (j *Judge) elements(queries []contract.Query, results []queryResult) map[string]contract.Elements {
	if len(queries) == 0 {
		return nil
	}
	out := make(map[string]contract.Elements, len(queries))
	for i, r := range results {
		q := queries[i]
		el := contract.Elements{Count: r.Count, Hidden: r.Hidden, TextsCut: r.Cut}
		for k, t := range r.Texts {
			if cut := truncateUTF8(t, j.opts.MaxTextBytes); len(cut) < len(t) {
				r.Texts[k], el.TextsCut = cut, true
			}
		}
		if len(r.Texts) > 0 {
			el.Texts = r.Texts // nil when empty, as a stored Observation decodes
		}
		for k, want := range q.Contains {
			if el.Contains == nil {
				el.Contains = make(map[string]contract.Hit, len(q.Contains))
			}
			el.Contains[want] = contract.Hit{Match: r.hits[k].match, Excerpt: problem.Bound(r.hits[k].excerpt, excerptMax)}
		}
		out[q.Selector] = el
	}
	return out
}

// read runs query.js, leaving out the words refused.
func (j *Judge) read(ctx context.Context, v *pageView, queries []contract.Query, refused []word) ([]queryResult, error) {
	if len(queries) == 0 {
		return nil, nil
	}
	if refused == nil {
		refused = []word{}
	}
	args, err := callArguments(queries, j.opts.MaxTexts, j.opts.MaxTextBytes, minTextPx, refused)
	if err != nil {
		return nil, err
	}
	res, err := cdpconn.Send(ctx, j.conn, v.page.session, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: queryJS,
		ExecutionContextID:  v.world,
		Arguments:           args,
		ReturnByValue:       new(true),
	})
	if err := evalErr(res.ExceptionDetails, err); err != nil {
		return nil, fmt.Errorf("querying %s: %w", v.state.URL, err)
	}
	var results []queryResult
	if err := decodeResult(res.Result, &results); err != nil {
		return nil, fmt.Errorf("querying %s: decoding the matches: %w", v.state.URL, err)
	}
	if len(results) != len(queries) {
		return nil, fmt.Errorf("querying %s: %d results for %d selectors", v.state.URL, len(results), len(queries))
	}
	for i, r := range results {
		q := queries[i]
		if r.Error != nil {
			return nil, fmt.Errorf("selector %q is not valid CSS: %s", q.Selector, *r.Error)
		}
		if len(r.Found) != len(q.Contains) {
			return nil, fmt.Errorf("querying %s: selector %q: %d answers for %d strings", v.state.URL, q.Selector, len(r.Found), len(q.Contains))
		}
		results[i].decodeHits()
	}
	return results, nil
}

// screenshotMax bounds the wait for the final screenshot of a page that
// says it is visible.
const screenshotMax = 10 * time.Second

// minTextPx is the least height, in CSS pixels, of a line of text a person
// can read; text in smaller (or more clipped) boxes is not seen.
const minTextPx = 6

// excerptMax bounds an excerpt kept with a found string.
const excerptMax = 300

// callArguments encodes values as the arguments of Runtime.callFunctionOn.
func callArguments(values ...any) ([]*runtime.CallArgument, error) {
	args := make([]*runtime.CallArgument, len(values))
	for i, v := range values {
		raw, err := jsonv2.Marshal(v, chromedp.DefaultMarshalOptions)
		if err != nil {
			return nil, fmt.Errorf("encoding argument %d: %w", i, err)
		}
		args[i] = &runtime.CallArgument{Value: raw}
	}
	return args, nil
}

// decodeResult decodes the by-value result of a script into v.
func decodeResult(obj *runtime.RemoteObject, v any) error {
	if obj == nil || len(obj.Value) == 0 {
		return errors.New("the script returned no value")
	}
	return jsonv2.Unmarshal(obj.Value, v, chromedp.DefaultUnmarshalOptions)
}

// evalErr turns a failed call or a thrown exception into an error.
func evalErr(exc *runtime.ExceptionDetails, err error) error {
	if err != nil {
		return err
	}
	if exc != nil {
		msg := exc.Text
		if exc.Exception != nil && exc.Exception.Description != "" {
			msg = exc.Exception.Description
		}
		return fmt.Errorf("script threw: %s", strings.TrimSpace(msg))
	}
	return nil
}

// truncateUTF8 cuts s to at most max bytes without splitting a character.
func truncateUTF8(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
