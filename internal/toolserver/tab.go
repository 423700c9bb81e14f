package toolserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/cdpconn"
	"contractbench/internal/toolserver/snapshot"
)

// tab is the tool server's session with one page target. What the page
// does on its own (navigations, requests, dialogs, our world being
// destroyed) arrives as events and is folded into the fields under mu, so
// an action can compare the state before and after it.
type tab struct {
	id target.ID
	// session is the server's flat session with the target, on conn.
	// Detaching leaves the tab open: the browser and its tabs belong to
	// whoever launched it.
	conn    *cdpconn.Conn
	session target.SessionID

	mu sync.Mutex
	// frame is the main frame; events about subframes are ignored.
	frame cdp.FrameID
	// doc counts the main frame's documents: it grows on every cross-document
	// navigation, which invalidates refs and our isolated world.
	doc int
	url string
	// status is the HTTP status of the current document's response, 0 when
	// unknown (about:blank, a page restored from the back-forward cache).
	// A response arrives before its document commits, so statuses wait in
	// responses, by loader, until then.
	status    int64
	responses map[cdp.LoaderID]int64
	// loading is true between the main frame's start and stop of loading.
	loading bool
	// navigations counts navigation requests and starts in the main frame,
	// so an action can tell whether it caused one.
	navigations int
	// withinDoc counts navigations that stayed in the document (a fragment
	// link, history.pushState): they are done when they are reported.
	withinDoc int
	// inflight holds the requests in progress and when each started;
	// netChanged is when that set last changed.
	inflight   map[network.RequestID]time.Time
	netChanged time.Time
	// dialogs are reports of dialogs handled since the last action drained
	// them.
	dialogs []string
	// worlds maps our isolated worlds' context ids to their unique ids, as
	// the creation events announce them.
	worlds map[runtime.ExecutionContextID]string
	world  *world
	// frames are our worlds in the subframes of other origins read so
	// far in this document (see frames.go), and frameRanges counts the
	// ref ranges handed out to them.
	frames      map[cdp.FrameID]*frameWorld
	frameRanges int
	// issued is the highest ref the current document handed out, and
	// earlier the highest any previous document of this tab did: a ref the
	// current document does not know but an earlier one issued is stale,
	// not unknown.
	issued, earlier int
	// last is the most recent snapshot of this tab and when it was taken,
	// the "before" of the next action's diff.
	last *snapshotAt
}

// snapshotAt is a snapshot with the document and mutation count it saw.
type snapshotAt struct {
	page      *snapshot.Page
	doc       int
	mutations int
}

// world is our isolated world in one document of the tab.
type world struct {
	id     runtime.ExecutionContextID
	unique string
	doc    int
}

// worldName names the isolated world; it shows in DevTools' context list.
const worldName = "contractbench-toolserver"

// attach starts a session with the page target id and turns on the events
// the tab's state follows: page (navigations, dialogs), runtime (our
// isolated worlds) and network (idle). Nothing else: the DOM and CSS
// domains would make the page report every mutation to us.
func (s *Server) attach(ctx context.Context, id target.ID) (*tab, error) {
	res, err := cdpconn.Send(ctx, s.conn, "", target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: new(true)})
	if err != nil {
		return nil, fmt.Errorf("attaching to tab %s: %w", id, err)
	}
	t := &tab{
		id:         id,
		conn:       s.conn,
		session:    res.SessionID,
		inflight:   make(map[network.RequestID]time.Time),
		responses:  make(map[cdp.LoaderID]int64),
		netChanged: time.Now(),
		worlds:     make(map[runtime.ExecutionContextID]string),
		frames:     make(map[cdp.FrameID]*frameWorld),
	}
	// Route the session's events to t before any can arrive.
	s.sessMu.Lock()
	s.sessions[t.session] = t
	s.sessMu.Unlock()
	fail := func(err error) (*tab, error) {
		s.detach(ctx, t)
		return nil, err
	}
	// Sent back to back, answered in order.
	steps := []*cdpconn.Reply{
		s.conn.Start(ctx, t.session, page.Enable.Method, page.EnableParams{}),
		s.conn.Start(ctx, t.session, runtime.Enable.Method, cdp.Empty{}),
		s.conn.Start(ctx, t.session, network.Enable.Method, network.EnableParams{}),
	}
	for _, r := range steps {
		if err := r.Wait(ctx, nil); err != nil {
			return fail(fmt.Errorf("tab %s: %w", id, err))
		}
	}
	tree, err := send(ctx, t, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return fail(fmt.Errorf("tab %s: reading its frame tree: %w", id, err))
	}
	t.mu.Lock()
	t.frame = tree.FrameTree.Frame.ID
	t.url = tree.FrameTree.Frame.URL + tree.FrameTree.Frame.URLFragment
	t.mu.Unlock()
	return t, nil
}

// detach ends the session with t, leaving the tab as it is, and forgets t.
// The tab may be gone already; then there is nothing to end.
func (s *Server) detach(ctx context.Context, t *tab) {
	s.sessMu.Lock()
	delete(s.sessions, t.session)
	s.sessMu.Unlock()
	delete(s.attached, t.id)
	_, _ = cdpconn.Send(ctx, s.conn, "", target.DetachFromTarget, target.DetachFromTargetParams{SessionID: t.session})
}

// send sends a command on t's session.
func send[P, R any](ctx context.Context, t *tab, cmd cdp.Command[P, R], params P) (R, error) {
	return cdpconn.Send(ctx, t.conn, t.session, cmd, params)
}

// onEvent runs on the connection's reading goroutine for every event of
// the tab, in order. It must be quick and must not send commands; the
// dialog handler therefore runs on a goroutine of its own.
func (t *tab) onEvent(ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	switch e := ev.(type) {
	case *page.EventFrameNavigated:
		t.frameNavigated(e.Frame, now)
	case *page.EventNavigatedWithinDocument:
		if e.FrameID == t.frame {
			t.url = e.URL
			t.withinDoc++
		}
	case *page.EventFrameRequestedNavigation:
		if e.FrameID == t.frame {
			t.navigations++
		}
	case *page.EventFrameStartedLoading:
		if e.FrameID == t.frame {
			t.loading = true
			t.navigations++
		}
	case *page.EventFrameStoppedLoading:
		if e.FrameID == t.frame {
			t.loading = false
		}
	case *page.EventJavascriptDialogOpening:
		t.dialogOpened(e)
	case *runtime.EventExecutionContextCreated:
		t.contextCreated(e.Context)
	case *runtime.EventExecutionContextDestroyed:
		if t.world != nil && t.world.unique == e.ExecutionContextUniqueID {
			t.world = nil
		}
		for id, fw := range t.frames {
			if fw.world != nil && fw.world.unique == e.ExecutionContextUniqueID {
				delete(t.frames, id)
			}
		}
	case *runtime.EventExecutionContextsCleared:
		t.world = nil
		clear(t.worlds)
		clear(t.frames)
	case *network.EventRequestWillBeSent:
		t.requestStarted(e, now)
	case *network.EventLoadingFinished:
		t.finished(e.RequestID, now)
	case *network.EventLoadingFailed:
		t.finished(e.RequestID, now)
	case *network.EventResponseReceived:
		t.responseReceived(e)
	}
}

// frameNavigated follows the main frame to the document it committed, a
// new one: refs issued before are stale from now on. Called with t.mu held.
func (t *tab) frameNavigated(f *cdp.Frame, now time.Time) {
	if f.ParentID != "" {
		// A subframe's new document gets a new world and ref range.
		delete(t.frames, f.ID)
		return
	}
	t.frame = f.ID
	t.url = f.URL + f.URLFragment
	t.doc++
	t.status = t.responses[f.LoaderID]
	clear(t.responses)
	// The old document's world and requests died with it; the new
	// document's own request is covered by loading until it ends.
	t.world = nil
	clear(t.worlds)
	clear(t.frames)
	t.frameRanges = 0
	clear(t.inflight)
	t.netChanged = now
	t.earlier = max(t.earlier, t.issued)
	t.issued = 0
}

// dialogOpened answers a dialog at once, on a goroutine of its own, and
// notes it for the next action's report. A dialog blocks the page's
// scripts, and with them every command that needs them, until someone
// answers it: OK to alerts and to leaving the page, Cancel to questions,
// the way a cautious user would. Called with t.mu held.
func (t *tab) dialogOpened(e *page.EventJavascriptDialogOpening) {
	accept := e.Type == page.DialogTypeAlert || e.Type == page.DialogTypeBeforeunload
	verdict := "dismissed"
	if accept {
		verdict = "accepted"
	}
	t.dialogs = append(t.dialogs, fmt.Sprintf("dialog opened: %s %q (%s)", e.Type, e.Message, verdict))
	go t.answerDialog(accept)
}

// contextCreated notes the unique id of each of our isolated worlds: the
// destruction event names a world by it alone. Called with t.mu held.
func (t *tab) contextCreated(c *runtime.ExecutionContextDescription) {
	if c == nil || c.Name != worldName {
		return
	}
	t.worlds[c.ID] = c.UniqueID
	if t.world != nil && t.world.id == c.ID && t.world.unique == "" {
		t.world.unique = c.UniqueID
	}
}

// requestStarted counts a request as in flight, for network idle. Called
// with t.mu held.
func (t *tab) requestStarted(e *network.EventRequestWillBeSent, now time.Time) {
	if e.Type == network.ResourceTypeWebSocket || e.Type == network.ResourceTypeEventSource {
		return // open for the life of the page: never "idle"
	}
	if _, ok := t.inflight[e.RequestID]; !ok { // a redirect keeps its id
		t.inflight[e.RequestID] = now
	}
	t.netChanged = now
}

// responseReceived keeps the status of a main-frame document until the
// document commits (see status). Called with t.mu held.
func (t *tab) responseReceived(e *network.EventResponseReceived) {
	if e.Type == network.ResourceTypeDocument && e.FrameID == t.frame && e.Response != nil {
		t.responses[e.LoaderID] = e.Response.Status
	}
}

func (t *tab) finished(id network.RequestID, now time.Time) {
	if _, ok := t.inflight[id]; ok {
		delete(t.inflight, id)
		t.netChanged = now
	}
}

func (t *tab) answerDialog(accept bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// An error means the dialog is gone already (the page navigated, or
	// another client answered it): nothing is left to do.
	_, _ = send(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
}

// longRequest is how long a request may stay open before it stops
// counting against network idle: long polls and stalled beacons would
// otherwise keep every action waiting for the full settle bound.
const longRequest = 5 * time.Second

// networkIdle returns how long the tab has had no request in flight (not
// counting long-open ones), or 0 while one is.
func (t *tab) networkIdle(now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	since := t.netChanged
	for _, started := range t.inflight {
		if now.Sub(started) < longRequest {
			return 0
		}
		// A long-open request ended its claim when it turned long.
		if long := started.Add(longRequest); long.After(since) {
			since = long
		}
	}
	return now.Sub(since)
}

// state is what an action compares before and after itself.
type state struct {
	doc         int
	url         string
	navigations int
	withinDoc   int
	loading     bool
	status      int64
}

func (t *tab) state() state {
	t.mu.Lock()
	defer t.mu.Unlock()
	return state{doc: t.doc, url: t.url, navigations: t.navigations, withinDoc: t.withinDoc, loading: t.loading, status: t.status}
}

// takeDialogs returns and clears the dialog reports.
func (t *tab) takeDialogs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.dialogs
	t.dialogs = nil
	return d
}
