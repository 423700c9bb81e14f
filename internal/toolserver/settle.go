package toolserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/target"

	"contractbench/internal/cdpconn"
	"contractbench/internal/spare"
	"contractbench/internal/toolserver/snapshot"
)

// How an action waits for its effects. The numbers trade a little latency
// on actions that change nothing for not reporting half-done ones. The
// bounds on the wait (navStart, Options.Settle, Options.Load) count the
// machine's spare time (internal/spare): on a machine with no processor
// free the browser is late for want of one, and the reply should not say
// "still loading" where a quiet machine's would not.
const (
	// navStart is how long a requested navigation gets to start loading
	// before it is taken for a same-document one.
	navStart = 300 * time.Millisecond
	// quietBoth: no request in flight and no DOM change for this long
	// means settled. It is also the least an action waits, which gives a
	// click's navigation or fetch time to start.
	quietBoth = 250 * time.Millisecond
	// quietOne: either alone for this long also means settled, for pages
	// that poll the network forever or animate the DOM forever.
	quietOne = time.Second
	// lookAgain is the least settle waits before it looks at the page
	// again.
	lookAgain = 10 * time.Millisecond
)

// before is what an action records about the tab before acting, to report
// afterwards what changed.
type before struct {
	state state
	tabs  []target.ID
	// page is the page's text before the action, when the action may leave
	// the document in place; nil otherwise.
	page *snapshot.Page
}

// observe records the tab before an action. With withText, it also keeps
// the page's text, from the last snapshot when the DOM has not changed
// since, so the report can list what appeared.
func (s *Server) observe(ctx context.Context, t *tab, withText bool) before {
	b := before{state: t.state(), tabs: s.tabs.idList()}
	if !withText {
		return b
	}
	a, err := t.activity(ctx)
	t.mu.Lock()
	last := t.last
	t.mu.Unlock()
	if err == nil && last != nil && last.doc == b.state.doc && last.mutations == a.Mutations {
		b.page = last.page
		return b
	}
	// Without a "before" there is no diff; the action still works.
	if p, err := t.snapshot(ctx); err == nil {
		b.page = p
	}
	return b
}

// settle waits for the effects of an action: for a navigation it started
// (navigating says one surely did) to load, within Options.Load, then for
// the network and the DOM to go quiet, within Options.Settle of the action
// and at least quietOne after a load. Quiet is counted from the action (or
// the load) on: a page that was quiet before a click says nothing about
// the fetch the click starts. It reports how the wait ended for a page
// still loading, so the reply names the bound that really ran out.
func (s *Server) settle(ctx context.Context, t *tab, b before, navigating bool) waitEnd {
	clock, bound := spare.Start(), s.opts.Settle
	from := time.Now()
	for left := clock.Left(bound); left > 0; left = clock.Left(bound) {
		st := t.state()
		if navigating || st.navigations != b.state.navigations || st.doc != b.state.doc {
			// b is settle's own copy: from here on it tracks the loaded
			// document, so a later navigation (a redirect by script) is
			// waited for too.
			navigating = false
			if !s.load(ctx, t, b.state, s.opts.Load) {
				return waitEnd{loading: t.state().loading, bound: s.opts.Load}
			}
			b.state = t.state()
			from = time.Now()
			bound = max(bound, clock.Elapsed()+quietOne)
			continue
		}
		now := time.Now()
		since := now.Sub(from)
		net := min(t.networkIdle(now), since)
		dom := time.Duration(0)
		if a, err := t.activity(ctx); err == nil {
			dom = min(time.Duration(a.Quiet)*time.Millisecond, since)
		}
		if (net >= quietBoth && dom >= quietBoth) || net >= quietOne || dom >= quietOne {
			return waitEnd{loading: t.state().loading}
		}
		// Look again when quiet could be reached at the earliest, if
		// nothing happens meanwhile: what does happen (a request, a
		// mutation) only puts it later, and the page's own count of
		// its quiet time says so then. Looking more often would only
		// cost the page and the browser a call each time.
		wait := min(quietBoth-min(net, dom), quietOne-max(net, dom), left)
		if sleep(ctx, max(wait, lookAgain)) != nil {
			return waitEnd{loading: t.state().loading}
		}
	}
	return waitEnd{loading: t.state().loading, bound: s.opts.Settle}
}

// waitEnd is how an action's wait for its effects ended: whether the page
// was still loading, and the bound that ran out (Options.Load waiting for a
// navigation, Options.Settle waiting for quiet), zero when the page went
// quiet while a request of the document (an image, say) was still pending.
type waitEnd struct {
	loading bool
	bound   time.Duration
}

// note says it for a reply: "still loading after 20s", or "still loading".
func (w waitEnd) note() string {
	if w.bound == 0 {
		return "still loading"
	}
	return fmt.Sprintf("still loading after %s", w.bound)
}

// load waits until a navigation away from the state was has finished: the
// main frame stopped loading in a new document, it navigated within the
// document (a fragment link: nothing to load), or the navigation did not
// start loading within navStart (the page cancelled it). It reports
// whether it finished within bound (and ctx).
func (s *Server) load(ctx context.Context, t *tab, was state, bound time.Duration) bool {
	clock := spare.Start()
	for waited := clock.Elapsed(); waited < bound; waited = clock.Elapsed() {
		st := t.state()
		if !st.loading && (st.doc != was.doc || st.withinDoc != was.withinDoc || waited > navStart) {
			return true
		}
		if sleep(ctx, 10*time.Millisecond) != nil {
			return false
		}
	}
	return false
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// Caps on how much new content an action reports inline; more than this
// is a new page in all but URL, and read_page is the way to see it.
const (
	diffLines    = 15
	diffBytes    = 1500
	diffLineSize = 200
)

// changes describes what an action did, one line each: dialogs it caused,
// a navigation, new tabs, and for a page that stayed, the lines of text
// that appeared. quietIfNone leaves out "no visible change" (a scroll
// changes what is visible without changing the text).
func (s *Server) changes(ctx context.Context, t *tab, b before, waited waitEnd, quietIfNone bool) []string {
	out := t.takeDialogs()
	after := t.state()
	switch {
	case after.doc != b.state.doc || after.url != b.state.url:
		msg := "navigated to " + clipURL(after.url)
		if after.doc != b.state.doc && after.status >= 400 {
			msg += fmt.Sprintf(" (HTTP %d)", after.status)
		}
		if waited.loading {
			msg += " (" + waited.note() + ")"
		}
		out = append(out, msg)
	case waited.loading:
		out = append(out, "the page is "+waited.note())
	}
	opened := false
	for _, id := range s.tabs.idList() {
		if slices.Contains(b.tabs, id) {
			continue
		}
		opened = true
		n := s.tabs.index(id)
		out = append(out, fmt.Sprintf("opened new tab %d: %s (tabs with action=switch index=%d to use it)", n, clipURL(s.newTabURL(ctx, id)), n))
	}
	if opened {
		// A tab opened by a link comes to the front in the browser, while the
		// agent keeps acting on this one. Bring this one back, so the tab in
		// front is always the one the agent works on: the judge grades the
		// tab in front.
		_, err := cdpconn.Send(ctx, s.conn, "", target.ActivateTarget, target.ActivateTargetParams{TargetID: t.id})
		if err != nil {
			out = append(out, "could not keep the current tab in front: "+err.Error())
		}
	}
	if b.page != nil && after.doc == b.state.doc {
		if p, err := t.snapshot(ctx); err == nil {
			out = append(out, diff(b.page.TextLines(), p.TextLines())...)
		}
	}
	if len(out) == 0 && !quietIfNone {
		out = append(out, "no visible change")
	}
	return out
}

// newTabURL returns where a new tab is headed. A tab opened by a link
// starts at about:blank and learns its URL a moment later.
func (s *Server) newTabURL(ctx context.Context, id target.ID) string {
	u := ""
	for range 25 {
		if info, ok := s.tabs.get(id); ok {
			u = info.URL
		}
		if res, err := cdpconn.Send(ctx, s.conn, "", target.GetTargetInfo, target.GetTargetInfoParams{TargetID: id}); err == nil {
			u = res.TargetInfo.URL
		}
		if u != "" && u != "about:blank" {
			break
		}
		if sleep(ctx, 20*time.Millisecond) != nil {
			break
		}
	}
	return u
}

// diff reports the lines that appeared between two renderings of one
// document, within the caps above.
func diff(before, after []string) []string {
	added, removed := snapshot.Added(before, after)
	if len(added) == 0 && removed == 0 {
		return nil
	}
	var head string
	switch {
	case len(added) == 0:
		return []string{fmt.Sprintf("page changed: %d lines gone", removed)}
	case removed == 0:
		head = fmt.Sprintf("page changed: %d lines added:", len(added))
	default:
		head = fmt.Sprintf("page changed: %d lines added, %d gone; added:", len(added), removed)
	}
	out := []string{head}
	size := 0
	for i, l := range added {
		if i == diffLines || size >= diffBytes {
			out = append(out, fmt.Sprintf("… %d more added lines; read_page shows the page", len(added)-i))
			break
		}
		l = "+ " + clipBytes(l, diffLineSize)
		size += len(l)
		out = append(out, l)
	}
	return out
}

// clipBytes shortens s to at most n bytes on a rune boundary, marking the
// cut.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRight(s[:n], " ") + "…"
}
