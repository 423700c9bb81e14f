package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/security"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/browser"
	"contractbench/internal/cdpconn"
	"contractbench/internal/report"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/webreplay"
)

// Isolate says how the tasks a worker runs one after another are kept
// apart.
type Isolate string

const (
	// IsolateContext gives each worker one browser for all its tasks and
	// each task a fresh browser context in it (cookies, storage, cache,
	// permissions and its own network route), disposed when the task
	// ends. The default.
	IsolateContext Isolate = "context"
	// IsolateProcess gives each task a browser of its own, launched for
	// it and killed after it (or, with browser endpoints, the worker's
	// browser as it is, shared by its tasks one after another).
	IsolateProcess Isolate = "process"
)

// disposeTimeout bounds the disposal of a task's browser context, after
// the task, whatever state its context is in.
const disposeTimeout = 20 * time.Second

// worker is one of the run's parallel slots. Under IsolateContext it runs
// its tasks in a browser it shares with the other workers of its
// browserSlot (all of them, by default, being one).
type worker struct {
	cfg  *config
	slot *browserSlot
}

// browserSlot is one of the run's browsers under IsolateContext, shared
// by the workers given it (Spec.Browsers): it holds the browser across
// their tasks, with a browser-level connection of its own, and launches
// (or attaches) it again when it has ended. Each task in it has a browser
// context of its own.
type browserSlot struct {
	cfg *config
	// endpoint is the DevTools endpoint of the browser when it runs
	// elsewhere; empty launches one.
	endpoint string

	mu   sync.Mutex
	b    *browser.Browser
	conn *cdpconn.Conn
	// authority mints the certificates of the replay or recording
	// servers of every task in the browser; a launched browser is
	// started pinned to it.
	authority *webreplay.Authority
}

// job is one attempt of a task, and the slot of its result in the run.
type job struct {
	task    *suite.Task
	attempt int
	slot    int
}

// aheadWait bounds the wait of a task prepared ahead (see work).
const aheadWait = 2 * time.Second

// work runs the jobs it takes from queue, one after another, and hands
// each result to done, until queue is closed. A job taken once ctx has
// ended is skipped: the feed's select picks at random between a free
// worker and an ended ctx, so a job can arrive after the run was stopped,
// and it could only end as a harness error.
//
// Under IsolateContext, and while the workers are fewer than the
// processors, a worker whose tasks are quick prepares its next task while
// the agent of the current one runs: the next job's browser context,
// judge, start page and tool server are set up meanwhile, in the same
// browser, each confined to its own context as always (the judge and the
// tool server of one task ignore the other's pages), so the next agent
// starts as soon as the current task is graded. That uses a processor the
// workers leave idle; with a worker per processor there is none, and
// preparing ahead only costs CPU time (docs/benchmarks/webvoyager.md has
// the measurements). A worker prepares ahead while its last task took
// less than aheadWait from its agent's start to its verdict (replayed
// transcripts; not a model, whose next start page would sit open for
// minutes), and it sets a prepared task up again when it waited longer
// than aheadWait or its browser ended meanwhile (a crash in the task
// before it): no agent starts on a page that sat open longer than a quick
// task takes, or in a browser that is gone.
func (w *worker) work(ctx context.Context, queue <-chan job, done func(job, *report.TaskResult, *transcript.Recorder)) {
	var ahead <-chan prepared
	quick := true
	spare := w.cfg.Isolate == IsolateContext && w.cfg.Parallel < w.cfg.Processors
	for {
		var p prepared
		if ahead != nil {
			p, ahead = <-ahead, nil
		} else {
			p.job, p.ok = <-queue
		}
		if !p.ok {
			return
		}
		r := p.run
		if r != nil && (ctx.Err() != nil || !w.fresh(r)) {
			r.discard()
			r = nil
		}
		if ctx.Err() != nil {
			continue
		}
		if r == nil {
			r = w.prepare(ctx, p.job.task, p.job.attempt)
		}
		if quick && spare {
			ahead = w.prepareNext(ctx, queue)
		}
		started := w.cfg.Now()
		res, rec := r.finish(ctx)
		quick = w.cfg.Now().Sub(started) < aheadWait
		done(p.job, res, rec)
	}
}

// prepared is a job taken from the queue (ok is false once it is closed)
// and, unless the run was stopped, its task set up.
type prepared struct {
	job job
	ok  bool
	run *taskRun
}

// prepareNext takes the next job from queue and prepares its task, in the
// background.
func (w *worker) prepareNext(ctx context.Context, queue <-chan job) <-chan prepared {
	out := make(chan prepared, 1)
	go func() {
		var p prepared
		p.job, p.ok = <-queue
		if p.ok && ctx.Err() == nil {
			p.run = w.prepare(ctx, p.job.task, p.job.attempt)
		}
		out <- p
	}()
	return out
}

// fresh reports whether a task prepared ahead can start as it is: it has
// waited at most aheadWait, and the browser it was set up in still runs
// (a set-up that failed before it had one keeps its error).
func (w *worker) fresh(r *taskRun) bool {
	if w.cfg.Now().Sub(r.ready) > aheadWait {
		return false
	}
	return r.browserConn == nil || !ended(r.browser, r.browserConn)
}

// ended reports whether a worker's browser has ended, or its connection to
// it: either way the worker needs another.
func ended(b *browser.Browser, conn *cdpconn.Conn) bool {
	select {
	case <-b.Done():
		return true
	case <-conn.Done():
		return true
	default:
		return false
	}
}

// newSlots returns the run's browser slots, one a browser (Spec.Browsers,
// which NewPlan set), the i-th on the i-th endpoint when the browsers run
// elsewhere.
func newSlots(cfg *config) []*browserSlot {
	slots := make([]*browserSlot, max(cfg.Browsers, 1))
	for i := range slots {
		slots[i] = &browserSlot{cfg: cfg}
		if len(cfg.BrowserURLs) > 0 {
			slots[i].endpoint = cfg.BrowserURLs[i] // NewPlan saw to one a slot
		}
	}
	return slots
}

// newWorker returns worker number i of the run, on slot i mod len(slots).
func newWorker(cfg *config, i int, slots []*browserSlot) *worker {
	return &worker{cfg: cfg, slot: slots[i%len(slots)]}
}

// serverAuthority returns the authority for the replay servers of the
// worker's tasks under IsolateContext (its browser's, made on first use),
// nil under IsolateProcess, where each server pins its own in the browser
// launched for it.
func (w *worker) serverAuthority() (*webreplay.Authority, error) {
	if w.cfg.Isolate != IsolateContext {
		return nil, nil
	}
	s := w.slot
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.authority == nil {
		a, err := webreplay.NewAuthority()
		if err != nil {
			return nil, err
		}
		s.authority = a
	}
	return s.authority, nil
}

// browser returns the slot's running browser and its connection to it,
// starting (or attaching) one when there is none or the last one ended: a
// crash ends the tasks it happened in, not the workers. The workers
// sharing the slot wait for one another here, so a browser that ended is
// replaced once.
func (s *browserSlot) browser(ctx context.Context) (*browser.Browser, *cdpconn.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b != nil {
		if !ended(s.b, s.conn) {
			return s.b, s.conn, nil
		}
		s.closeLocked()
	}
	var b *browser.Browser
	var err error
	if s.endpoint != "" {
		b, err = browser.Attach(ctx, s.endpoint)
	} else {
		opts := s.cfg.Browser
		opts.Flags = slices.Clone(opts.Flags) // the plan's are shared by every worker
		if s.authority != nil {
			opts.Flags = append(opts.Flags, s.authority.ChromiumFlag())
		}
		if s.cfg.Web == WebReplay {
			// Only a task's context has a route to the web (its
			// proxy); anything outside one, such as the first window's
			// tab, resolves no name but loopback's, so nothing leaks.
			opts.Flags = append(opts.Flags, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
		}
		b, err = browser.Launch(ctx, opts)
	}
	if err != nil {
		return nil, nil, err
	}
	conn, err := cdpconn.Dial(ctx, b.URL(), nil)
	if err != nil {
		return nil, nil, errors.Join(err, b.Close())
	}
	conn.Listen()
	if s.endpoint != "" && s.cfg.Web != WebLive {
		// A browser started elsewhere was not pinned to the replay
		// authority, and a context cannot be. It accepts every
		// certificate while this connection holds the setting, every
		// context of it alike; a task's context reaches nothing but its
		// replay server, whose proxy refuses every other host.
		if err := conn.Call(ctx, "", security.SetIgnoreCertificateErrors.Method, security.SetIgnoreCertificateErrorsParams{Ignore: true}, nil); err != nil {
			return nil, nil, errors.Join(fmt.Errorf("accepting the replay web's certificates: %w", err), conn.Close(), b.Close())
		}
	}
	s.b, s.conn = b, conn
	return b, conn, nil
}

// close ends the slot's browser (a launched one) or its hold on it.
func (s *browserSlot) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

// closeLocked is close with s.mu held.
func (s *browserSlot) closeLocked() {
	if s.b == nil {
		return
	}
	s.conn.Close()
	s.b.Close()
	s.b, s.conn = nil, nil
}

// taskContext is a task's browser context and the page it starts on.
type taskContext struct {
	id   cdp.BrowserContextID
	page target.ID
}

// newContext creates a fresh browser context for a task in b (over conn,
// its connection), routed through proxy when it is set (the task's replay
// server), with one blank page in it. dispose removes the context and everything in it; an abort of the
// run cuts its wait short.
func (s *browserSlot) newContext(ctx context.Context, b *browser.Browser, conn *cdpconn.Conn, proxy, bypass string) (tc taskContext, dispose func(), err error) {
	params := target.CreateBrowserContextParams{
		// Should this process die, the browser (one elsewhere, above
		// all) drops the context with the connection.
		DisposeOnDetach: new(true),
		ProxyServer:     proxy,
		ProxyBypassList: bypass,
	}
	bc, err := cdpconn.Send(ctx, conn, "", target.CreateBrowserContext, params)
	if err != nil {
		return tc, nil, fmt.Errorf("creating the task's browser context: %w", err)
	}
	tc.id = bc.BrowserContextID
	dispose = func() {
		actx, stop := abortContext(context.Background(), s.cfg.Abort)
		defer stop()
		dctx, cancel := context.WithTimeout(actx, disposeTimeout)
		defer cancel()
		// A browser that ended took the context with it.
		_ = conn.Call(dctx, "", target.DisposeBrowserContext.Method, target.DisposeBrowserContextParams{BrowserContextID: tc.id}, nil)
	}
	page, err := cdpconn.Send(ctx, conn, "", target.CreateTarget, target.CreateTargetParams{
		URL:              "about:blank",
		BrowserContextID: tc.id,
		// The same viewport as a launched browser's first window.
		Width:  browser.ViewportWidth,
		Height: int64(b.WindowHeight()),
	})
	if err != nil {
		dispose()
		return tc, nil, fmt.Errorf("opening the task's page: %w", err)
	}
	tc.page = page.TargetID
	return tc, dispose, nil
}
