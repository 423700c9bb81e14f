package judge

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
)

// Defaults for the zero Options, and the bounds no option changes.
const (
	// defaultMaxTexts bounds the texts kept per selector. Contracts name
	// specific elements; fifty matches is more than any of them reads.
	defaultMaxTexts = 50
	// defaultMaxTextBytes bounds each text. It is large because dom_text
	// on "body" must see a whole long article, not its first screen.
	defaultMaxTextBytes = 256 << 10

	// quietFor is how long a page must be still (no request started or
	// ended, no DOM change) to count as settled.
	quietFor = 250 * time.Millisecond
	// defaultSettleMax bounds each wait for a page to settle. This bound
	// and the others of the judge's waits for the browser count the
	// machine's spare time (internal/spare): on a machine with no
	// processor free they stretch, since a verdict must not depend on how
	// busy the machine was.
	defaultSettleMax = 3 * time.Second
	// defaultLoadMax bounds each wait for a page's document to finish
	// loading. It is longer than DefaultSettleMax: a page takes longer to
	// load than to go quiet.
	defaultLoadMax = 10 * time.Second
	// defaultAdvance is the horizon: after the agent stops, the judge runs
	// the page's clock ahead until nothing has changed in the page for
	// this much of its own time, so a state the page replaces within it is
	// transient. Pages replace states many seconds later (a payment
	// "processing" step, a redirect after a countdown). A longer horizon
	// would also see more of what pages do on their own long after any
	// task (a chat invitation, a newsletter box over the text), which is
	// no outcome of the agent's.
	defaultAdvance = 30 * time.Second
	// advanceLimit bounds, in the page's time, how far the clock runs for
	// a page that never stops changing (a clock, a carousel, an animation
	// run by a timer): two default horizons, and never less than the
	// horizon.
	advanceLimit = time.Minute
	// defaultAdvanceMax bounds, in spare time, how long the clock runs.
	// Virtual time runs ordinary timers fast (a still page's horizon takes
	// milliseconds, a minute of a 16 ms animation timer well under a
	// second), so only a page that waits on requests for seconds, or is
	// very slow to run its timers, meets it; then where the clock stopped
	// depends on the machine, and the observation says so
	// (contract.Settling.Stopped).
	defaultAdvanceMax = 5 * time.Second
)

// Options tunes a Judge. The zero value gives the defaults.
type Options struct {
	// MaxTexts is how many visible texts Observe keeps per selector; Count
	// is exact regardless.
	MaxTexts int
	// MaxTextBytes is how many bytes of each visible text Observe keeps, cut
	// at a UTF-8 character boundary.
	MaxTextBytes int
	// SettleMax and LoadMax tune settling (see Observe); zero means the
	// default.
	SettleMax, LoadMax time.Duration
	// Advance is the horizon: the judge runs the page's clock ahead until
	// nothing has changed in the page for Advance of its own time, and at
	// most a minute of its time (at least Advance) or AdvanceMax of real
	// time (see Observe). Zero means the default; a negative Advance never
	// runs the page's clock ahead.
	Advance, AdvanceMax time.Duration
	// BrowserContext, when set, confines the judge to the pages of that
	// browser context (the task's): pages of any other context (another
	// task's leftovers, another user's tabs in a shared browser) are
	// released at once and never recorded, observed or counted. Empty
	// follows every page of the browser.
	BrowserContext cdp.BrowserContextID
}

// mine reports whether the judge follows a page of browser context c.
func (o Options) mine(c cdp.BrowserContextID) bool {
	return o.BrowserContext == "" || c == o.BrowserContext
}

func (o Options) withDefaults() Options {
	if o.MaxTexts <= 0 {
		o.MaxTexts = defaultMaxTexts
	}
	if o.MaxTextBytes <= 0 {
		o.MaxTextBytes = defaultMaxTextBytes
	}
	if o.SettleMax <= 0 {
		o.SettleMax = defaultSettleMax
	}
	if o.LoadMax <= 0 {
		o.LoadMax = defaultLoadMax
	}
	if o.Advance == 0 {
		o.Advance = defaultAdvance
	}
	if o.AdvanceMax <= 0 {
		o.AdvanceMax = defaultAdvanceMax
	}
	return o
}

// setupTimeout bounds the commands that prepare one new session. A page
// held at start by the judge is released at the latest after this long,
// even if the browser stops answering the judge.
const setupTimeout = 30 * time.Second

// Judge watches one browser over its own CDP connection for the length of a
// task, and observes its final state. Its methods are safe for concurrent
// use.
type Judge struct {
	opts Options
	conn *cdpconn.Conn

	// bg bounds the background preparation of new sessions; Close ends it.
	bg        context.Context
	stopBg    context.CancelFunc
	preparing sync.WaitGroup

	mu       sync.Mutex
	rec      *recorder
	pages    map[target.ID]*pageState
	sessions map[target.SessionID]*pageState // every session, to the page it belongs to
	// workers maps the session of each service worker the judge follows
	// to the worker: a worker serves pages, and belongs to none.
	workers map[target.SessionID]target.ID
	nextSeq int
	// gone holds the targets the browser reported destroyed, so Attach
	// does not wait for a page that closed before the judge reached it.
	gone map[target.ID]bool
	// refused lists the documents that are not the task's web that a page
	// was asked to show, in order (guard.go).
	refused []contract.Refusal
	// pagesChanged is closed and replaced whenever a page is added or a
	// target is destroyed.
	pagesChanged chan struct{}
	// relay is the tool server's way to the browser, and fronted when
	// the server last brought each page to the front through it
	// (relay.go).
	relay   *relay
	fronted map[target.ID]time.Time

	closeOnce sync.Once
	closeErr  error
}

// pageState is one page target the judge follows.
type pageState struct {
	id      target.ID
	session target.SessionID
	// seq orders pages by when the judge first saw them: the pages open
	// at Attach in the order the browser attached them (which says nothing
	// about their age), then each new page as it opens.
	seq     int
	closed  bool
	crashed bool
	// subtype is the target's subtype: "prerender" for a page Chromium
	// loads ahead in case the agent goes there, which it is not looking
	// at yet. Its requests are real and are recorded.
	subtype string
	// ready is closed once the judge has enabled its domains on the page
	// (and released it, if it was held); err says if that failed.
	ready chan struct{}
	err   error

	// openedAt is when the judge first saw the page, and navigatedAt when
	// the browser (not the page's own script) last started a navigation of
	// its main frame: a link the agent followed, a URL or history step its
	// tool server asked for. Both are on the wall clock, like the times
	// the page itself records (js/watch.js), for the active page rule.
	openedAt, navigatedAt time.Time
	// byPage says another page opened this one (window.open, a link to a
	// new tab): then neither its opening nor the load of what its opener
	// asked for, firstLoad, is the agent's choice of it.
	byPage    bool
	firstLoad network.RequestID
	// advanced, when set, is closed when the page's clock has run as far
	// ahead as the judge asked.
	advanced chan struct{}
}

// navigated notes a navigation of the page's main frame that the page did
// not start itself. Called with j.mu held.
func (p *pageState) navigated(session target.SessionID, ev *network.EventRequestWillBeSent) {
	if session != p.session || ev.Type != network.ResourceTypeDocument || string(ev.FrameID) != string(p.id) {
		return
	}
	// A page another page opened loads first what its opener asked for,
	// with the gesture of the agent's click there if there was one; its
	// redirects are the same request.
	if p.byPage && (p.firstLoad == "" || p.firstLoad == ev.RequestID) {
		p.firstLoad = ev.RequestID
		return
	}
	if ev.HasUserGesture || ev.Initiator == nil || ev.Initiator.Type == network.InitiatorTypeOther {
		p.navigatedAt = time.Now()
	}
}

// Attach connects to the browser whose DevTools endpoint is browserURL
// (http://127.0.0.1:PORT) and starts recording. Call it before the task
// starts: the task's clock starts now, and requests before Attach are not
// seen. It returns once every page open now is being recorded.
//
// The judge holds every page that opens later at its start until it has
// enabled its network and page events there, so even the first request of
// a new tab is recorded; it releases the page within milliseconds. It never
// creates, activates or closes a target, and never answers a dialog while
// the task runs.
func Attach(ctx context.Context, browserURL string, opts Options) (*Judge, error) {
	opts = opts.withDefaults()
	start := time.Now()
	bg, stopBg := context.WithCancel(context.Background())
	j := &Judge{
		opts:         opts,
		bg:           bg,
		stopBg:       stopBg,
		rec:          newRecorder(start),
		pages:        make(map[target.ID]*pageState),
		sessions:     make(map[target.SessionID]*pageState),
		workers:      make(map[target.SessionID]target.ID),
		gone:         make(map[target.ID]bool),
		pagesChanged: make(chan struct{}),
		fronted:      make(map[target.ID]time.Time),
	}
	endpoint, err := cdpconn.Endpoint(browserURL)
	if err != nil {
		stopBg()
		return nil, fmt.Errorf("judge: %w", err)
	}
	j.conn, err = cdpconn.Dial(ctx, browserURL, j.handle)
	if err != nil {
		stopBg()
		return nil, fmt.Errorf("judge: %w", err)
	}
	if j.relay, err = startRelay(endpoint, j.front); err != nil {
		stopBg()
		return nil, errors.Join(fmt.Errorf("judge: %w", err), j.conn.Close())
	}
	j.conn.Listen()
	if err := j.follow(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("judge: %w", err), j.Close())
	}
	return j, nil
}

// follow turns on target events and auto-attach, and waits until every page
// that exists now is prepared.
func (j *Judge) follow(ctx context.Context) error {
	if _, err := cdpconn.Send(ctx, j.conn, "", target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err != nil {
		return err
	}
	// Service workers too: what a page's worker answers is not the
	// server's answer, and the requests the worker makes to the server
	// reach only the worker's own sessions. A worker may start before any
	// page it serves is followed (for the navigation that loads it), and
	// is held at its start like a page.
	if _, err := cdpconn.Send(ctx, j.conn, "", target.SetAutoAttach, target.SetAutoAttachParams{
		AutoAttach:             true,
		WaitForDebuggerOnStart: true,
		Flatten:                new(true),
		Filter:                 target.Filter{{Type: "page"}, {Type: "service_worker"}},
	}); err != nil {
		return err
	}
	targets, err := cdpconn.Send(ctx, j.conn, "", target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return err
	}
	// Auto-attach reaches every page open now; wait for each, but not for
	// ever on one that closed before the judge got to it.
	wctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	for _, info := range targets.TargetInfos {
		if info.Type != "page" || !j.opts.mine(info.BrowserContextID) {
			continue
		}
		if err := j.awaitPage(wctx, info.TargetID); err != nil {
			return fmt.Errorf("page %s (%s): %w", info.TargetID, info.URL, err)
		}
	}
	return nil
}

// awaitPage waits until the judge follows the page id and has prepared it.
func (j *Judge) awaitPage(ctx context.Context, id target.ID) error {
	for {
		j.mu.Lock()
		p, changed, gone := j.pages[id], j.pagesChanged, j.gone[id]
		j.mu.Unlock()
		if p == nil && gone {
			return nil // it closed before the judge reached it
		}
		if p != nil {
			select {
			case <-p.ready:
			case <-ctx.Done():
				return ctx.Err()
			}
			j.mu.Lock()
			defer j.mu.Unlock()
			if p.closed {
				return nil // it closed while being prepared: nothing to record
			}
			return p.err
		}
		select {
		case <-changed:
		case <-time.After(recheckTargets):
			// A page that was closing when the judge listed the targets
			// may be gone without a word to the judge: ask again.
			if !j.targetExists(ctx, id) {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("waiting to attach: %w", ctx.Err())
		case <-j.conn.Done():
			return j.conn.Lost()
		}
	}
}

// recheckTargets is how long Attach waits for a page before it asks the
// browser whether the page still exists.
const recheckTargets = 500 * time.Millisecond

// targetExists reports whether the browser still lists the target; true
// when it cannot tell.
func (j *Judge) targetExists(ctx context.Context, id target.ID) bool {
	targets, err := cdpconn.Send(ctx, j.conn, "", target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return true
	}
	return slices.ContainsFunc(targets.TargetInfos, func(info *target.Info) bool { return info.TargetID == id })
}

// MarkToolCall records that a tool call of the agent starts now. Requests
// that start from now on, until the next mark, are AfterLastToolCall.
func (j *Judge) MarkToolCall() {
	now := time.Now()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.rec.mark(now)
}

// Close detaches the judge from the browser. Pages stay open, as they are;
// a page the judge still held at its start is released by the browser when
// the judge's sessions end. Close is idempotent.
func (j *Judge) Close() error {
	j.closeOnce.Do(func() {
		j.stopBg()
		if err := j.relay.close(); err != nil {
			j.closeErr = fmt.Errorf("judge: closing the tool server's relay: %w", err)
		}
		if err := j.conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			j.closeErr = errors.Join(j.closeErr, fmt.Errorf("judge: closing the connection: %w", err))
		}
		j.preparing.Wait()
	})
	return j.closeErr
}

// ServerURL is the DevTools endpoint the task's tool server is given: the
// browser's, through the judge, which sees there which page the server
// brings to the front (relay.go).
func (j *Judge) ServerURL() string { return j.relay.url() }

// front records that the tool server brought page id to the front.
func (j *Judge) front(id target.ID) {
	j.mu.Lock()
	j.fronted[id] = time.Now()
	j.mu.Unlock()
}

// handle receives every event, on the connection's reading goroutine. It
// only records; work that needs a command runs on its own goroutine.
func (j *Judge) handle(session target.SessionID, msg *cdproto.Message) {
	now := time.Now()
	j.mu.Lock()
	defer j.mu.Unlock()
	if h, ok := eventHandlers[msg.Method]; ok {
		h(j, now, session, msg)
	}
}

// eventHandler records one event that arrived at now on session. It runs
// with j.mu held.
type eventHandler func(j *Judge, now time.Time, session target.SessionID, msg *cdproto.Message)

// eventHandlers are the events the judge records; it ignores every other.
var eventHandlers = map[cdproto.MethodType]eventHandler{
	cdproto.EventNetworkRequestWillBeSent: decoded((*Judge).onRequest),
	cdproto.EventNetworkLoadingFinished: decoded(func(j *Judge, now time.Time, _ target.SessionID, ev *network.EventLoadingFinished) {
		j.rec.finished(now, ev.RequestID)
	}),
	cdproto.EventNetworkResponseReceived: decoded(func(j *Judge, _ time.Time, _ target.SessionID, ev *network.EventResponseReceived) {
		j.rec.responseReceived(ev)
	}),
	cdproto.EventNetworkResponseReceivedExtraInfo: decoded(func(j *Judge, now time.Time, _ target.SessionID, ev *network.EventResponseReceivedExtraInfo) {
		j.rec.responseExtraInfo(now, ev)
	}),
	cdproto.EventNetworkLoadingFailed: decoded(func(j *Judge, now time.Time, _ target.SessionID, ev *network.EventLoadingFailed) {
		j.rec.loadingFailed(now, ev)
	}),
	cdproto.EventPageFrameStoppedLoading:     decoded((*Judge).onFrameStoppedLoading),
	cdproto.EventPageFrameNavigated:          decoded((*Judge).onFrameNavigated),
	cdproto.EventPageFrameStartedNavigating:  decoded((*Judge).onNavigationStarted),
	cdproto.EventFetchRequestPaused:          decoded((*Judge).onRequestPaused),
	cdproto.EventPageJavascriptDialogOpening: decoded((*Judge).onDialogOpening),
	cdproto.EventPageJavascriptDialogClosed: func(j *Judge, _ time.Time, session target.SessionID, _ *cdproto.Message) {
		j.rec.dialogClosed(session)
	},
	cdproto.EventEmulationVirtualTimeBudgetExpired: (*Judge).onVirtualTimeExpired,
	cdproto.EventTargetAttachedToTarget: decoded(func(j *Judge, _ time.Time, session target.SessionID, ev *target.EventAttachedToTarget) {
		j.attached(session, ev)
	}),
	cdproto.EventTargetDetachedFromTarget: decoded((*Judge).onDetached),
	cdproto.EventTargetTargetInfoChanged:  decoded((*Judge).onTargetInfoChanged),
	cdproto.EventTargetTargetDestroyed:    decoded((*Judge).onTargetDestroyed),
	cdproto.EventTargetTargetCrashed:      decoded((*Judge).onTargetCrashed),
}

// decoded makes a handler of an event's params an eventHandler. An event
// whose params do not decode says nothing the judge can use: it is dropped.
func decoded[E any](h func(j *Judge, now time.Time, session target.SessionID, ev *E)) eventHandler {
	return func(j *Judge, now time.Time, session target.SessionID, msg *cdproto.Message) {
		if ev, ok := cdpconn.Decode[E](msg); ok {
			h(j, now, session, ev)
		}
	}
}

// ownPage returns the page whose own session session is; nil for a session
// of one of a page's frames or workers, or of none. Called with j.mu held.
func (j *Judge) ownPage(session target.SessionID) *pageState {
	if p := j.sessions[session]; p != nil && p.session == session {
		return p
	}
	return nil
}

// onRequest records a request: a service worker's as the worker's, any
// other as its page's, where it may be a navigation the agent chose.
func (j *Judge) onRequest(now time.Time, session target.SessionID, ev *network.EventRequestWillBeSent) {
	if w, ok := j.workers[session]; ok {
		j.rec.requestByWorker(now, w, ev)
		return
	}
	var id target.ID
	if p := j.sessions[session]; p != nil {
		id = p.id
		p.navigated(session, ev)
	}
	j.rec.requestWillBeSent(now, id, ev)
}

// onDialogOpening records a dialog of the agent's pages. One that a page of
// the judge's own opens is no part of the task: it is dismissed at once, so
// that the page can be read.
func (j *Judge) onDialogOpening(_ time.Time, session target.SessionID, ev *page.EventJavascriptDialogOpening) {
	if p := j.sessions[session]; p == nil || !j.rec.own[p.id] {
		j.rec.dialogOpening(session, ev)
		return
	}
	j.send(session, page.HandleJavaScriptDialog.Method, page.HandleJavaScriptDialogParams{Accept: false})
}

// onFrameStoppedLoading records that a page's main frame finished loading.
func (j *Judge) onFrameStoppedLoading(now time.Time, session target.SessionID, ev *page.EventFrameStoppedLoading) {
	if p := j.ownPage(session); p != nil && string(ev.FrameID) == string(p.id) {
		j.rec.documentLoaded(now, p.id)
	}
}

// onFrameNavigated records that a page's main frame committed a document.
func (j *Judge) onFrameNavigated(now time.Time, session target.SessionID, ev *page.EventFrameNavigated) {
	if ev.Frame == nil || j.sessions[session] == nil {
		return
	}
	j.blankIfOffWeb(session, ev.Frame)
	if ev.Frame.ParentID != "" {
		return
	}
	if p := j.ownPage(session); p != nil {
		j.rec.documentReplaced(now, p.id, ev.Frame.LoaderID)
		j.watchDocument(session, ev.Frame.ID)
	}
}

// watchDocument runs js/watch.js in the judge's world of the document a
// page's main frame has just committed, where the browser did not run it
// (see the script's header); where it did, the script does nothing.
func (j *Judge) watchDocument(session target.SessionID, frame cdp.FrameID) {
	j.preparing.Add(1)
	go func() {
		defer j.preparing.Done()
		ctx, cancel := context.WithTimeout(j.bg, setupTimeout)
		defer cancel()
		world, err := cdpconn.Send(ctx, j.conn, session, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: worldName})
		if err != nil {
			return // the page moved on or closed: its next document, or none, is watched
		}
		_, _ = cdpconn.Send(ctx, j.conn, session, runtime.Evaluate, runtime.EvaluateParams{Expression: watchJS, ContextID: world.ExecutionContextID})
	}()
}

// onVirtualTimeExpired wakes whoever waits for the page's clock to have
// run as far ahead as asked.
func (j *Judge) onVirtualTimeExpired(_ time.Time, session target.SessionID, _ *cdproto.Message) {
	if p := j.ownPage(session); p != nil && p.advanced != nil {
		close(p.advanced)
		p.advanced = nil
	}
}

// onDetached forgets a session; a page whose own session it was is closed.
func (j *Judge) onDetached(_ time.Time, _ target.SessionID, ev *target.EventDetachedFromTarget) {
	if p := j.ownPage(ev.SessionID); p != nil {
		p.closed = true
	}
	delete(j.sessions, ev.SessionID)
	delete(j.workers, ev.SessionID)
	j.rec.sessionGone(ev.SessionID)
}

// onTargetInfoChanged follows a page's subtype (a prerendered page that
// the agent navigates to becomes a plain page), and blanks a page that
// shows what is not the task's web: a new tab opened at such a URL starts
// navigating before the judge can stop it.
func (j *Judge) onTargetInfoChanged(_ time.Time, _ target.SessionID, ev *target.EventTargetInfoChanged) {
	if ev.TargetInfo == nil {
		return
	}
	if p := j.pages[ev.TargetInfo.TargetID]; p != nil {
		j.blankIfOffWeb(p.session, &cdp.Frame{URL: ev.TargetInfo.URL})
		if p.subtype == "prerender" && ev.TargetInfo.Subtype == "" {
			j.rec.activated[p.id] = true
		}
		p.subtype = ev.TargetInfo.Subtype
	}
}

// onTargetDestroyed closes a page, and tells Attach it is gone.
func (j *Judge) onTargetDestroyed(now time.Time, _ target.SessionID, ev *target.EventTargetDestroyed) {
	if p := j.pages[ev.TargetID]; p != nil {
		p.closed = true
	}
	j.rec.targetGone(now, ev.TargetID)
	j.gone[ev.TargetID] = true
	close(j.pagesChanged)
	j.pagesChanged = make(chan struct{})
}

// onTargetCrashed marks a page whose renderer crashed.
func (j *Judge) onTargetCrashed(_ time.Time, _ target.SessionID, ev *target.EventTargetCrashed) {
	if p := j.pages[ev.TargetID]; p != nil {
		p.crashed = true
	}
}

// attached starts following a session the browser attached the judge to:
// a page or a service worker (from the browser session) or a frame or
// worker of a page (from that page's session). Called with j.mu held.
func (j *Judge) attached(parent target.SessionID, ev *target.EventAttachedToTarget) {
	if j.bg.Err() != nil {
		return
	}
	if ev.TargetInfo.Type == "service_worker" {
		j.attachedWorker(parent, ev)
		return
	}
	var p *pageState
	if parent == "" {
		if ev.TargetInfo.Type != "page" || j.pages[ev.TargetInfo.TargetID] != nil {
			return
		}
		if !j.opts.mine(ev.TargetInfo.BrowserContextID) {
			j.release(ev.SessionID, ev.WaitingForDebugger)
			return
		}
		p = &pageState{
			id:       ev.TargetInfo.TargetID,
			session:  ev.SessionID,
			seq:      j.nextSeq,
			subtype:  ev.TargetInfo.Subtype,
			ready:    make(chan struct{}),
			openedAt: time.Now(),
			byPage:   ev.TargetInfo.OpenerID != "",
		}
		j.nextSeq++
		j.pages[p.id] = p
		close(j.pagesChanged)
		j.pagesChanged = make(chan struct{})
	} else if p = j.sessions[parent]; p == nil {
		return
	}
	j.sessions[ev.SessionID] = p
	j.preparing.Add(1)
	go func() {
		defer j.preparing.Done()
		err := j.prepare(ev.SessionID, ev.TargetInfo.Type, ev.WaitingForDebugger)
		if parent == "" {
			j.mu.Lock()
			p.err = err
			j.mu.Unlock()
			close(p.ready)
		}
	}()
}

// attachedWorker follows a service worker. The browser attaches the judge
// to a worker both for itself and for each followed page it serves; the
// sessions report the same requests, which the recorder counts once.
// Called with j.mu held.
func (j *Judge) attachedWorker(parent target.SessionID, ev *target.EventAttachedToTarget) {
	switch {
	case parent == "" && !j.opts.mine(ev.TargetInfo.BrowserContextID):
		j.release(ev.SessionID, ev.WaitingForDebugger)
		return
	case parent != "" && j.sessions[parent] == nil:
		return
	}
	j.workers[ev.SessionID] = ev.TargetInfo.TargetID
	j.preparing.Add(1)
	go func() {
		defer j.preparing.Done()
		_ = j.prepare(ev.SessionID, ev.TargetInfo.Type, ev.WaitingForDebugger)
	}()
}

// release lets go of a page of another browser context: it runs on, and
// the judge detaches from it without having enabled anything there. Called
// with j.mu held.
func (j *Judge) release(session target.SessionID, held bool) {
	j.preparing.Add(1)
	go func() {
		defer j.preparing.Done()
		ctx, cancel := context.WithTimeout(j.bg, setupTimeout)
		defer cancel()
		if held {
			_ = j.conn.Call(ctx, session, runtime.RunIfWaitingForDebugger.Method, cdp.Empty{}, nil)
		}
		_ = j.conn.Call(ctx, "", target.DetachFromTarget.Method, target.DetachFromTargetParams{SessionID: session}, nil)
	}()
}

// prepare enables the events the judge records on a new session, follows
// the session's own frames and workers, and then lets a held target run.
//
// The commands are sent in one go and only then awaited: a target held
// before its renderer exists (a tab opened by a link) answers none of them
// until it runs. Sent in order on one session, they take effect before the
// release does, and so before the target's first request.
func (j *Judge) prepare(session target.SessionID, kind string, held bool) error {
	ctx, cancel := context.WithTimeout(j.bg, setupTimeout)
	defer cancel()
	type step struct {
		what string
		r    *cdpconn.Reply
	}
	steps := []step{{"enabling network events", j.conn.Start(ctx, session, network.Enable.Method, network.EnableParams{MaxPostDataSize: new(maxPostDataSize)})}}
	if kind == "page" || kind == "iframe" {
		steps = append(steps,
			step{"enabling page events", j.conn.Start(ctx, session, page.Enable.Method, page.EnableParams{})},
			// No local file is read, from the first request on (guard.go).
			step{"refusing local files", j.conn.Start(ctx, session, fetch.Enable.Method, fetch.EnableParams{Patterns: localPatterns})})
	}
	if kind == "page" {
		// Every document of the page records, in the judge's world, when
		// its DOM last changed, when it last had trusted input and when it
		// last came to the front.
		steps = append(steps, step{"watching new documents", j.conn.Start(ctx, session, page.AddScriptToEvaluateOnNewDocument.Method, page.AddScriptToEvaluateOnNewDocumentParams{
			Source:    watchJS,
			WorldName: worldName,
		})})
	}
	// Cross-site frames and workers run in targets of their own, and
	// their requests reach only their own sessions.
	steps = append(steps, step{"following frames and workers", j.conn.Start(ctx, session, target.SetAutoAttach.Method, target.SetAutoAttachParams{
		AutoAttach:             true,
		WaitForDebuggerOnStart: true,
		Flatten:                new(true),
	})})
	if held {
		steps = append(steps, step{"releasing the target", j.conn.Start(ctx, session, runtime.RunIfWaitingForDebugger.Method, cdp.Empty{})})
	}
	var errs []error
	for _, s := range steps {
		if err := s.r.Wait(ctx, nil); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.what, err))
		}
	}
	// Frames and workers are best effort: a worker, for one, cannot
	// auto-attach, and its page's log is complete without it.
	if kind != "page" {
		return nil
	}
	return errors.Join(errs...)
}
