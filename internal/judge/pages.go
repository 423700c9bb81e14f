package judge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"contractbench/internal/cdpconn"
)

// pageView is what Observe learned about one open page.
type pageView struct {
	page  *pageState
	world runtime.ExecutionContextID
	state struct {
		Visibility   string  `json:"visibility"`
		Popup        bool    `json:"popup"`
		URL          string  `json:"url"`
		Title        string  `json:"title"`
		Ready        string  `json:"ready"`
		MutatedAt    float64 `json:"mutatedAt"`
		AttendedAt   float64 `json:"attendedAt"`
		ShownAt      float64 `json:"shownAt"`
		Skipped      int     `json:"skipped"`
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
		if !p.closed && p.subtype == "" && !j.rec.own[p.id] {
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
	switch {
	case !p.byPage:
		v.consider(p.openedAt, signOpened)
	case !v.state.Popup:
		// The browser shows a tab that a page opens in front of its opener.
		v.consider(p.openedAt, signShown)
	}
	v.consider(p.navigatedAt, signNavigated)
	v.consider(j.fronted[p.id], signShown)
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
