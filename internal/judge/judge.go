package judge

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/cdpconn"
)

// Defaults for the zero Options.
const (
	// DefaultMaxTexts bounds the texts kept per selector. Contracts name
	// specific elements; fifty matches is more than any of them reads.
	DefaultMaxTexts = 50
	// DefaultMaxTextBytes bounds each text. It is large because dom_text
	// on "body" must see a whole long article, not its first screen.
	DefaultMaxTextBytes = 256 << 10

	// DefaultQuiet is how long a page must be still (no request started
	// or ended, no DOM change) to count as settled.
	DefaultQuiet = 250 * time.Millisecond
	// DefaultSettleMax bounds each wait for a page to settle, in real
	// time.
	DefaultSettleMax = 3 * time.Second
	// DefaultLoadMax bounds, in real time, each wait for a page's
	// document to finish loading. It is longer than DefaultSettleMax: a
	// page takes longer to load on a busy machine, and a verdict must not
	// depend on how busy the machine was.
	DefaultLoadMax = 10 * time.Second
	// DefaultAdvance is how far the judge runs a page's clock ahead before
	// its final reading: a state the page replaces within this much of its
	// own time is transient.
	DefaultAdvance = 5 * time.Second
)

// Options tunes a Judge. The zero value gives the defaults.
type Options struct {
	// MaxTexts is how many visible texts Observe keeps per selector; Count
	// is exact regardless.
	MaxTexts int
	// MaxTextBytes is how many bytes of each visible text Observe keeps, cut
	// at a UTF-8 character boundary.
	MaxTextBytes int
	// Clock gives the time for the task start, tool-call marks and
	// network timings. Nil means time.Now.
	Clock func() time.Time
	// Quiet, SettleMax, LoadMax and Advance tune settling (see Observe);
	// zero means the default. A negative Advance never runs the page's
	// clock ahead.
	Quiet, SettleMax, LoadMax, Advance time.Duration
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
		o.MaxTexts = DefaultMaxTexts
	}
	if o.MaxTextBytes <= 0 {
		o.MaxTextBytes = DefaultMaxTextBytes
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Quiet <= 0 {
		o.Quiet = DefaultQuiet
	}
	if o.SettleMax <= 0 {
		o.SettleMax = DefaultSettleMax
	}
	if o.LoadMax <= 0 {
		o.LoadMax = DefaultLoadMax
	}
	if o.Advance == 0 {
		o.Advance = DefaultAdvance
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
	nextSeq  int
	// gone holds the targets the browser reported destroyed, so Attach
	// does not wait for a page that closed before the judge reached it.
	gone map[target.ID]bool
	// pagesChanged is closed and replaced whenever a page is added or a
	// target is destroyed.
	pagesChanged chan struct{}

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
	start := opts.Clock()
	bg, stopBg := context.WithCancel(context.Background())
	j := &Judge{
		opts:         opts,
		bg:           bg,
		stopBg:       stopBg,
		rec:          newRecorder(start),
		pages:        make(map[target.ID]*pageState),
		sessions:     make(map[target.SessionID]*pageState),
		gone:         make(map[target.ID]bool),
		pagesChanged: make(chan struct{}),
	}
	var err error
	j.conn, err = cdpconn.Dial(ctx, browserURL, j.handle)
	if err != nil {
		stopBg()
		return nil, fmt.Errorf("judge: %w", err)
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
	if _, err := cdpconn.Send(ctx, j.conn, "", target.SetAutoAttach, target.SetAutoAttachParams{
		AutoAttach:             true,
		WaitForDebuggerOnStart: true,
		Flatten:                new(true),
		Filter:                 target.Filter{{Type: "page"}},
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
	for _, info := range targets.TargetInfos {
		if info.TargetID == id {
			return true
		}
	}
	return false
}

// MarkToolCall records that a tool call of the agent starts now. Requests
// that start from now on, until the next mark, are AfterLastToolCall.
func (j *Judge) MarkToolCall() {
	now := j.opts.Clock()
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
		if err := j.conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			j.closeErr = fmt.Errorf("judge: closing the connection: %w", err)
		}
		j.preparing.Wait()
	})
	return j.closeErr
}

// handle receives every event, on the connection's reading goroutine. It
// only records; work that needs a command runs on its own goroutine.
func (j *Judge) handle(session target.SessionID, msg *cdproto.Message) {
	now := j.opts.Clock()
	j.mu.Lock()
	defer j.mu.Unlock()
	switch msg.Method {
	case cdproto.EventNetworkRequestWillBeSent:
		if ev, ok := cdpconn.Decode[network.EventRequestWillBeSent](msg); ok {
			var id target.ID
			if p := j.sessions[session]; p != nil {
				id = p.id
				p.navigated(session, ev)
			}
			j.rec.requestWillBeSent(now, id, ev)
		}
	case cdproto.EventPageFrameStoppedLoading:
		if ev, ok := cdpconn.Decode[page.EventFrameStoppedLoading](msg); ok {
			if p := j.sessions[session]; p != nil && p.session == session && string(ev.FrameID) == string(p.id) {
				j.rec.documentLoaded(now, p.id)
			}
		}
	case cdproto.EventPageFrameNavigated:
		if ev, ok := cdpconn.Decode[page.EventFrameNavigated](msg); ok && ev.Frame != nil && ev.Frame.ParentID == "" {
			if p := j.sessions[session]; p != nil && p.session == session {
				j.rec.documentReplaced(now, p.id, ev.Frame.LoaderID)
			}
		}
	case cdproto.EventNetworkLoadingFinished:
		if ev, ok := cdpconn.Decode[network.EventLoadingFinished](msg); ok {
			j.rec.finished(now, ev.RequestID)
		}
	case cdproto.EventNetworkResponseReceived:
		if ev, ok := cdpconn.Decode[network.EventResponseReceived](msg); ok {
			j.rec.responseReceived(ev)
		}
	case cdproto.EventNetworkLoadingFailed:
		if ev, ok := cdpconn.Decode[network.EventLoadingFailed](msg); ok {
			j.rec.loadingFailed(now, ev)
		}
	case cdproto.EventPageJavascriptDialogOpening:
		if ev, ok := cdpconn.Decode[page.EventJavascriptDialogOpening](msg); ok {
			j.rec.dialogOpening(session, ev)
		}
	case cdproto.EventPageJavascriptDialogClosed:
		j.rec.dialogClosed(session)
	case cdproto.EventEmulationVirtualTimeBudgetExpired:
		if p := j.sessions[session]; p != nil && p.session == session && p.advanced != nil {
			close(p.advanced)
			p.advanced = nil
		}
	case cdproto.EventTargetAttachedToTarget:
		if ev, ok := cdpconn.Decode[target.EventAttachedToTarget](msg); ok {
			j.attached(session, ev)
		}
	case cdproto.EventTargetDetachedFromTarget:
		if ev, ok := cdpconn.Decode[target.EventDetachedFromTarget](msg); ok {
			if p := j.sessions[ev.SessionID]; p != nil && p.session == ev.SessionID {
				p.closed = true
			}
			delete(j.sessions, ev.SessionID)
			j.rec.sessionGone(ev.SessionID)
		}
	case cdproto.EventTargetTargetInfoChanged:
		// A prerendered page that the agent navigates to becomes a
		// plain page.
		if ev, ok := cdpconn.Decode[target.EventTargetInfoChanged](msg); ok && ev.TargetInfo != nil {
			if p := j.pages[ev.TargetInfo.TargetID]; p != nil {
				if p.subtype == "prerender" && ev.TargetInfo.Subtype == "" {
					j.rec.activated[p.id] = true
				}
				p.subtype = ev.TargetInfo.Subtype
			}
		}
	case cdproto.EventTargetTargetDestroyed:
		if ev, ok := cdpconn.Decode[target.EventTargetDestroyed](msg); ok {
			if p := j.pages[ev.TargetID]; p != nil {
				p.closed = true
			}
			j.gone[ev.TargetID] = true
			close(j.pagesChanged)
			j.pagesChanged = make(chan struct{})
		}
	case cdproto.EventTargetTargetCrashed:
		if ev, ok := cdpconn.Decode[target.EventTargetCrashed](msg); ok {
			if p := j.pages[ev.TargetID]; p != nil {
				p.crashed = true
			}
		}
	}
}

// attached starts following a session the browser attached the judge to:
// a page (from the browser session) or a frame or worker of a page (from
// that page's session). Called with j.mu held.
func (j *Judge) attached(parent target.SessionID, ev *target.EventAttachedToTarget) {
	if j.bg.Err() != nil {
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
		steps = append(steps, step{"enabling page events", j.conn.Start(ctx, session, page.Enable.Method, page.EnableParams{})})
	}
	if kind == "page" {
		// Every document of the page records, in the judge's world, when
		// its DOM last changed and when it last had trusted input.
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
