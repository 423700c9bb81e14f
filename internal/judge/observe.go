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
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
)

// worldName names the judge's isolated world in each page, so a look at the
// page's execution contexts shows who made it.
const worldName = "contractbench-judge"

// Observe captures the final state of the browser: the active page's URL,
// title, matches for each selector and viewport screenshot, and the network
// log and dialogs of the whole task. Call it once the task has ended.
//
// A dialog still showing is recorded as open, and then dismissed, because a
// page with a dialog runs no script and so cannot be inspected. This is the
// only thing the judge ever does to a page.
//
// Observe fails if the connection to the browser is lost (the browser
// crashed or was closed), if a selector is invalid, or if a page that may
// be the active one has crashed: pages are examined newest first, and the
// state of a crashed page cannot be read, so the judge cannot rule it out.
func (j *Judge) Observe(ctx context.Context, selectors []string) (contract.Observation, error) {
	if err := j.alive(); err != nil {
		return contract.Observation{}, err
	}
	if err := j.dismissDialogs(ctx); err != nil {
		return contract.Observation{}, j.explain(err)
	}
	for attempt := 1; ; attempt++ {
		obs, err := j.capture(ctx, selectors)
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
func (j *Judge) capture(ctx context.Context, selectors []string) (contract.Observation, error) {
	active, err := j.activePage(ctx)
	if err != nil {
		return contract.Observation{}, err
	}
	obs := contract.Observation{URL: active.state.URL, Title: active.state.Title}
	if obs.Elements, err = j.query(ctx, active, selectors); err != nil {
		return contract.Observation{}, err
	}
	// A page behind others renders nothing, and capturing it would wait
	// for a frame that never comes; such an observation has no screenshot.
	if active.state.Visibility == "visible" {
		shot, err := cdpconn.Send(ctx, j.conn, active.page.session, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
		if err != nil {
			return contract.Observation{}, fmt.Errorf("screenshot of %s: %w", obs.URL, err)
		}
		obs.Screenshot.PNG = shot.Data
	}
	j.mu.Lock()
	obs.Network = j.rec.network()
	obs.Dialogs = j.rec.dialogList()
	j.mu.Unlock()
	return obs, nil
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
		Visibility string `json:"visibility"`
		URL        string `json:"url"`
		Title      string `json:"title"`
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
	// Newest first, so the first visible page is the active one.
	slices.SortFunc(open, func(a, b *pageState) int { return cmp.Compare(b.seq, a.seq) })

	var views []*pageView
	for _, p := range open {
		v, err := j.view(ctx, p)
		if err != nil {
			if j.isClosed(p) {
				continue // closed while we looked
			}
			return nil, err
		}
		if v.state.Visibility == "visible" {
			return v, nil
		}
		views = append(views, v)
	}
	if len(views) == 0 {
		return nil, errors.New("no open page to observe")
	}
	return views[0], nil
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
		Expression:    pageStateJS,
		ContextID:     v.world,
		ReturnByValue: new(true),
	})
	if err := evalErr(res.ExceptionDetails, err); err != nil {
		return nil, fmt.Errorf("page %s (%s): reading its state: %w", p.id, tree.FrameTree.Frame.URL, err)
	}
	if err := decodeResult(res.Result, &v.state); err != nil {
		return nil, fmt.Errorf("page %s: decoding its state: %w", p.id, err)
	}
	return v, nil
}

// query counts and reads the matches of each selector on the page.
func (j *Judge) query(ctx context.Context, v *pageView, selectors []string) (map[string]contract.Elements, error) {
	if len(selectors) == 0 {
		return nil, nil
	}
	unique := slices.Compact(slices.Sorted(slices.Values(selectors)))
	args, err := callArguments(unique, j.opts.MaxTexts, j.opts.MaxTextBytes)
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
		Count int      `json:"count"`
		Texts []string `json:"texts"`
		Error *string  `json:"error"`
	}
	if err := decodeResult(res.Result, &results); err != nil {
		return nil, fmt.Errorf("querying %s: decoding the matches: %w", v.state.URL, err)
	}
	if len(results) != len(unique) {
		return nil, fmt.Errorf("querying %s: %d results for %d selectors", v.state.URL, len(results), len(unique))
	}
	out := make(map[string]contract.Elements, len(unique))
	for i, r := range results {
		if r.Error != nil {
			return nil, fmt.Errorf("selector %q is not valid CSS: %s", unique[i], *r.Error)
		}
		for k, t := range r.Texts {
			r.Texts[k] = truncateUTF8(t, j.opts.MaxTextBytes)
		}
		if len(r.Texts) == 0 {
			r.Texts = nil // as a stored Observation decodes
		}
		out[unique[i]] = contract.Elements{Count: r.Count, Texts: r.Texts}
	}
	return out, nil
}

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
