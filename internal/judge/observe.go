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

// WantFor is what evaluating pc needs.
func WantFor(pc contract.Postconditions) Want {
	return Want{Queries: contract.Queries(pc), ClassShots: contract.NeedsScreenshotClass(pc)}
}

// Observe captures the final state of the browser once it has settled: the
// active page's URL, title, the visible matches of each query and their
// text, and viewport screenshot, and the network log and dialogs of the
// whole task. Call it once the task has ended.
//
// It first waits (within Options.SettleMax) until the active page is
// quiet, reads it (Observation.Settling.First), runs the page's clock
// Options.Advance ahead so that what it has scheduled happens now, waits
// until it is quiet again, and reads the final state. contract.Evaluate
// grades both readings.
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
	advanced, err := j.advance(ctx)
	if err != nil {
		return contract.Observation{}, j.explain(err)
	}
	settling.AdvancedMS = advanced.Milliseconds()
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
	obs, err := j.Observe(ctx, WantFor(pc))
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
	var screenshot <-chan error
	if shot && active.state.Visibility == "visible" {
		done := make(chan error, 1)
		screenshot = done
		go func() {
			shot, err := cdpconn.Send(ctx, j.conn, active.page.session, page.CaptureScreenshot, page.CaptureScreenshotParams{
				Format: page.CaptureScreenshotFormatPng,
				// Faster compression, the same pixels.
				OptimizeForSpeed: new(true),
			})
			if err != nil {
				done <- fmt.Errorf("screenshot of %s: %w", obs.URL, err)
				return
			}
			obs.Screenshot.PNG = shot.Data
			done <- nil
		}()
	}
	elements, err := j.query(ctx, active, want.Queries)
	if screenshot != nil {
		err = errors.Join(err, <-screenshot)
	}
	if err != nil {
		return contract.Observation{}, err
	}
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

// advance runs the active page's clock Options.Advance ahead: timers the
// page set fire now, in order, and the clock waits while requests are in
// flight (Emulation.setVirtualTimePolicy). It returns how far the clock
// went. Afterwards the page's clock stands still; the judge reads the
// page, and nothing else runs in it.
func (j *Judge) advance(ctx context.Context) (time.Duration, error) {
	if j.opts.Advance <= 0 {
		return 0, nil
	}
	v, err := j.activePage(ctx)
	if err != nil {
		return 0, err
	}
	done := make(chan struct{})
	j.mu.Lock()
	v.page.advanced = done
	j.mu.Unlock()
	_, err = cdpconn.Send(ctx, j.conn, v.page.session, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPauseIfNetworkFetchesPending,
		Budget: new(float64(j.opts.Advance.Milliseconds())),
	})
	if err != nil {
		return 0, fmt.Errorf("running the clock of %s ahead: %w", v.state.URL, err)
	}
	// The page runs its timers as fast as it can; a page that waits on a
	// request or shows a dialog stops its clock, and then the judge goes
	// on after SettleMax of real time.
	select {
	case <-done:
	case <-time.After(j.opts.SettleMax):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return j.opts.Advance, nil
}

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
		WatchedSince float64 `json:"watchedSince"`
		Now          float64 `json:"now"`
	}
	// attention is when the agent was last seen at this page: it opened,
	// the browser navigated it, or it had trusted input or focus.
	attention time.Time
	// why says why the page is the active one; set by activePage.
	why string
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
	best.why = fmt.Sprintf("of %d open pages, %d %s; this one had the agent's latest activity (%s)",
		len(views), len(among), what, best.attentionKind())
	return best, nil
}

// attentionKind names the latest sign of the agent on the page.
func (v *pageView) attentionKind() string {
	switch {
	case v.attention.Equal(v.page.navigatedAt):
		return "a navigation the page did not start itself"
	case v.attention.Equal(v.page.openedAt):
		return "it opened"
	default:
		return "trusted input or focus"
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
	v.attention = p.openedAt
	if p.navigatedAt.After(v.attention) {
		v.attention = p.navigatedAt
	}
	j.mu.Unlock()
	if at := time.UnixMicro(int64(v.state.AttendedAt * 1000)); v.state.AttendedAt > 0 && at.After(v.attention) {
		v.attention = at
	}
	return v, nil
}

// query reads, for each query, the visible matches on the page, their
// text, and whether any of them contains each looked-for string.
func (j *Judge) query(ctx context.Context, v *pageView, queries []contract.Query) (map[string]contract.Elements, error) {
	if len(queries) == 0 {
		return nil, nil
	}
	args, err := callArguments(queries, j.opts.MaxTexts, j.opts.MaxTextBytes, minTextPx)
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
	var results []struct {
		Count  int      `json:"count"`
		Hidden int      `json:"hidden"`
		Texts  []string `json:"texts"`
		Cut    bool     `json:"cut"`
		Found  [][2]any `json:"found"`
		Error  *string  `json:"error"`
	}
	if err := decodeResult(res.Result, &results); err != nil {
		return nil, fmt.Errorf("querying %s: decoding the matches: %w", v.state.URL, err)
	}
	if len(results) != len(queries) {
		return nil, fmt.Errorf("querying %s: %d results for %d selectors", v.state.URL, len(results), len(queries))
	}
	out := make(map[string]contract.Elements, len(queries))
	for i, r := range results {
		q := queries[i]
		if r.Error != nil {
			return nil, fmt.Errorf("selector %q is not valid CSS: %s", q.Selector, *r.Error)
		}
		if len(r.Found) != len(q.Contains) {
			return nil, fmt.Errorf("querying %s: selector %q: %d answers for %d strings", v.state.URL, q.Selector, len(r.Found), len(q.Contains))
		}
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
			match, _ := r.Found[k][0].(float64)
			excerpt, _ := r.Found[k][1].(string)
			if el.Contains == nil {
				el.Contains = make(map[string]contract.Hit, len(q.Contains))
			}
			el.Contains[want] = contract.Hit{Match: int(match), Excerpt: problem.Bound(excerpt, excerptMax)}
		}
		out[q.Selector] = el
	}
	return out, nil
}

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
