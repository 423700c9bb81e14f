package runner

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"contractbench/internal/agent"
	"contractbench/internal/browser"
	"contractbench/internal/cdpconn"
	"contractbench/internal/contract"
	"contractbench/internal/judge"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
	"contractbench/internal/report"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/webreplay"
)

// judgeTimeout bounds how long the judge's capture, which runs after the
// task's own deadline may have passed, may go without a word from the
// browser (progressContext); Spec.JudgeTimeout overrides it. judgeLimit
// bounds the whole capture, however much the browser says meanwhile.
const (
	judgeTimeout = 20 * time.Second
	judgeLimit   = 10 * time.Minute
)

// abortContext returns a context that keeps parent's values but not its
// cancellation, and ends when abort is closed (or stop is called).
func abortContext(parent context.Context, abort <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	if abort != nil {
		go func() {
			select {
			case <-abort:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// browserEndGrace bounds how long grade waits, after the judge failed, for
// the browser to report that it ended. A launched browser reports within a
// second of dying (it collects the last of its output first).
const browserEndGrace = 3 * time.Second

// harnessError marks a failure of the harness (browser, server, web layer),
// as opposed to something the agent did.
type harnessError struct {
	// stage says where ("browser", "tool server"); empty when err names it
	// already, as the judge's errors do.
	stage string
	err   error
}

func (e *harnessError) Error() string {
	if e.stage == "" {
		return e.err.Error()
	}
	return e.stage + ": " + e.err.Error()
}

func (e *harnessError) Unwrap() error { return e.err }

// taskRun is everything one attempt of one task holds.
type taskRun struct {
	cfg     *config
	task    *suite.Task
	attempt int
	// start is when the task's set-up began; finish moves it on by the
	// time the prepared task waited for its turn. ready is when its
	// set-up ended, setupErr what went wrong in it.
	start    time.Time
	ready    time.Time
	setupErr error

	// abort outlives the task's context (its timeout, the first Ctrl-C)
	// and ends only when the run is aborted: what must run after the
	// agent stopped (the judge, the server's graceful exit) runs in it.
	abort     context.Context
	stopAbort context.CancelFunc

	// worker is the slot the task runs in, which holds the browser under
	// IsolateContext.
	worker  *worker
	cleanup []func()
	replay  *webreplay.Replayer
	// faults are the attempt's web's failures on purpose (Spec.WebFaults).
	faults  *webreplay.Faults
	browser *browser.Browser
	// browserConn is the worker's connection to the browser under
	// IsolateContext, nil otherwise.
	browserConn *cdpconn.Conn
	// context is the task's browser context and first page under
	// IsolateContext; zero when the task has a browser to itself.
	context taskContext
	judge   *judge.Judge
	// What the agent gets: its provider (nil for an outside agent), its
	// caps and its session with the tool server.
	provider llm.Provider
	caps     llm.Caps
	session  *mcpclient.Session
	// thumbs holds the judge's thumbnail after each tool call, by seq;
	// thumbTime is the time taking them has cost the task so far.
	thumbs    map[int]*report.Thumbnail
	thumbTime time.Duration
}

// thumbnailShare bounds the time thumbnails may take from a task: a tenth
// of its timeout. On a machine so loaded that pictures are slow, tracing
// stops rather than push the task towards its timeout.
const thumbnailShare = 10

// prepare starts an attempt of a task in the worker's browser and sets it
// up to the moment its agent can start: the web layer, the browser context
// (or browser), the judge, the start page loaded and settled, the tool
// server connected. It first waits for the run's admission (what the
// machine can take), which is no part of the task's time. The set-up is
// the harness's, so the task's timeout, the agent's, does not bound it:
// setupLimit does, against a harness that is stuck. It never fails: a
// set-up that went wrong is kept for finish to report.
func (w *worker) prepare(ctx context.Context, t *suite.Task, attempt int) *taskRun {
	cfg := w.cfg
	r := &taskRun{cfg: cfg, task: t, attempt: attempt, worker: w}
	r.abort, r.stopAbort = abortContext(ctx, cfg.Abort)
	if err := cfg.admission.enter(ctx); err != nil {
		r.start = cfg.Now()
		r.setupErr, r.ready = err, r.start
		return r
	}
	defer cfg.admission.leave()
	r.start = cfg.Now()
	cfg.Progress(Event{Task: t.ID, Attempt: attempt, Step: "setup"})
	sctx, cancel := context.WithTimeout(ctx, max(t.Timeout, setupLimit))
	defer cancel()
	r.setupErr = r.setUp(sctx)
	r.ready = cfg.Now()
	return r
}

// setupLimit bounds a task's set-up when its timeout is shorter: a set-up
// that takes minutes is a harness that is stuck, not a slow machine (a
// set-up takes about half a second of a processor).
const setupLimit = 5 * time.Minute

// finish runs the prepared task's agent, grades the result and closes
// everything the task held. The task's clock leaves out the time it waited
// prepared: its duration is its set-up's plus its own. Its timeout is its
// agent's alone: the agent's turns and tool calls count, the harness's
// set-up and judging never do.
func (r *taskRun) finish(ctx context.Context) (*report.TaskResult, *transcript.Recorder) {
	cfg := r.cfg
	setup := r.ready.Sub(r.start)
	r.start = cfg.Now().Add(-setup)
	cfg.Progress(Event{Task: r.task.ID, Attempt: r.attempt, Step: "start", Elapsed: setup})
	defer r.discard()
	res, rec := r.run(ctx, r.task.Timeout)
	if ctx.Err() != nil && (res.Outcome == report.OutcomeError || res.Outcome == report.OutcomeInterrupted) {
		// Whatever broke once the run was stopped (a browser or server
		// killed mid-start, a judge cut short) broke because of the stop.
		res.Stop, res.Observation = report.Stop{Kind: report.StopInterrupted}, nil
		res.ClearVerdict()
		res.Decide()
	}
	res.DurationMS = cfg.Now().Sub(r.start).Milliseconds()
	cfg.Progress(Event{Task: r.task.ID, Attempt: r.attempt, Step: "done", Elapsed: cfg.Now().Sub(r.start), Result: res})
	return res, rec
}

// discard closes everything the task holds, in the reverse order of set-up.
func (r *taskRun) discard() {
	for i := len(r.cleanup) - 1; i >= 0; i-- {
		r.cleanup[i]()
	}
	r.cleanup = nil
	r.stopAbort()
}

func (r *taskRun) onClose(f func()) { r.cleanup = append(r.cleanup, f) }

// run runs the agent of a task that has been set up, within left of its
// timeout, and grades what it left.
func (r *taskRun) run(parent context.Context, left time.Duration) (*report.TaskResult, *transcript.Recorder) {
	res := &report.TaskResult{Task: r.task.ID, Attempt: r.attempt, Tags: r.task.Tags,
		RequiresWrite: contract.RequiresWrite(r.task.Postconditions)}
	if x := r.cfg.Agent.Exec; x != nil && x.CDP {
		// The judge's verdict stands as evidence of the final state, but
		// not of who produced it.
		res.Trust = report.TrustUnrestricted
	}
	if r.setupErr != nil {
		return errorResult(res, r.setupErr), nil
	}
	ctx, cancel := context.WithTimeout(parent, left)
	defer cancel()

	budget, err := llm.NewBudget(r.caps, r.cfg.Prices)
	if err != nil {
		return errorResult(res, fmt.Errorf("task %s: budget: %w", r.task.ID, err)), nil
	}
	var rec *transcript.Recorder
	if r.cfg.Transcripts != nil {
		rec = transcript.NewRecorder(r.cfg.Transcripts(r.task, r.provider))
	}
	var out *agent.Outcome
	if r.cfg.Agent.Exec != nil {
		out = r.runExec(ctx, r.session, budget, rec)
	} else {
		out = agent.Run(ctx, r.agentProvider(rec), r.session, agent.Options{
			Instruction: r.task.Instruction,
			Budget:      budget,
			Recorder:    rec,
			BeforeCall:  r.beforeCall,
			AfterCall:   func(seq int, _ string) { r.thumbnail(ctx, seq) },
		})
	}
	fillAgent(res, out)
	res.Taint = r.taint(out)
	defer r.keepThumbnails(res)
	if out.Stop == agent.StopInterrupted {
		// The run was stopped (Ctrl-C): the state the agent left says
		// nothing about the task, so the judge does not wait on it.
		res.Decide()
		return res, rec
	}

	// The judge grades whatever state the browser is in, even after a
	// timeout or a budget stop, with a deadline of its own.
	r.cfg.Progress(Event{Task: r.task.ID, Attempt: r.attempt, Step: "judge", Elapsed: r.cfg.Now().Sub(r.start)})
	jctx, jcancel := progressContext(r.abort, r.judge.Heard, r.cfg.JudgeTimeout, judgeLimit, time.Now, time.After)
	defer jcancel()
	verdict, obs, err := r.grade(jctx)
	if err != nil {
		return errorResult(res, err), rec
	}
	res.Observation = obs
	if res.Taint == nil {
		res.Taint = offWebTaint(obs.Refused, out.Calls)
	}
	res.SetVerdict(verdict)
	res.WebMisses, res.WebFaults = r.misses()
	res.Provenance = r.provenance(jctx)
	res.Decide()
	return res, rec
}

// setUp readies the task for its agent: the browser side (setUpBrowser),
// the start page opened and settled, the agent's provider and caps, and
// the tool server connected, its session in r.session.
func (r *taskRun) setUp(ctx context.Context) error {
	if err := r.setUpBrowser(ctx); err != nil {
		return err
	}
	startLoaded := r.openStartPage(ctx)
	if r.cfg.Agent.Exec == nil { // an outside agent has no provider
		var err error
		if r.provider, err = r.cfg.Agent.Provider(r.task); err != nil {
			return &harnessError{"agent", err}
		}
	}
	// NewPlan refused a budget that would raise a cap (checkCaps).
	r.caps, _ = r.cfg.Caps.Lower(taskCaps(r.task.Budget))
	workDir, removeWorkDir, err := servers.NewWorkDir()
	if err != nil {
		return &harnessError{"tool server", err}
	}
	r.onClose(removeWorkDir)
	// The server lives until the task's cleanup closes it, past the
	// task's own deadline (the judge grades first); only an abort kills
	// it early.
	// The server reaches the browser through the judge, which sees there
	// the pages the server brings to the front.
	transport, err := r.cfg.Server.Start(r.abort, r.judge.ServerURL(), string(r.context.id), workDir)
	if err != nil {
		return &harnessError{"tool server", err}
	}
	session, err := mcpclient.Connect(ctx, transport, mcpclient.Options{Allow: r.allow()})
	if err != nil {
		return &harnessError{"tool server", err}
	}
	r.session = session
	r.onClose(func() { session.Close() })
	// The agent starts on the loaded, settled start page, as a user would.
	return startLoaded()
}

// setUpBrowser starts the web layer, the browser (or the task's context in
// the worker's browser) and the judge, in that order: the judge is
// attached before anything of the task happens in the browser.
func (r *taskRun) setUpBrowser(ctx context.Context) error {
	opts := r.cfg.Browser
	var handler http.Handler
	var hosts []string
	switch r.cfg.Web {
	case WebReplay:
		r.replay = webreplay.Replay(r.cfg.Archive)
		handler, hosts = r.replay, r.cfg.Archive.Hosts()
		if r.cfg.Sites != nil {
			// This attempt's own state, reset by being new.
			handler = r.cfg.Sites(r.replay)
		}
	case WebRecord:
		// No host list: every host maps to the recording server.
		handler = r.cfg.Recorder
	}
	var srv *webreplay.Server
	if handler != nil && r.cfg.WebFaults != nil {
		r.faults = webreplay.NewFaults(r.cfg.WebFaults)
		handler = r.faults.Wrap(handler)
	}
	if handler != nil {
		authority, err := r.worker.serverAuthority()
		if err != nil {
			return &harnessError{"web replay", err}
		}
		if srv, err = webreplay.NewServer(handler, webreplay.ServerOptions{Hosts: hosts, Authority: authority}); err != nil {
			return &harnessError{"web replay", err}
		}
		r.onClose(func() { srv.Close() })
	}
	if r.cfg.Isolate == IsolateContext {
		b, conn, err := r.worker.slot.browser(ctx)
		if err != nil {
			return &harnessError{"browser", err}
		}
		r.browser, r.browserConn = b, conn
		// The task's web reaches its context, and only its context,
		// through the context's proxy: the task's own server.
		var proxy, bypass string
		if srv != nil {
			proxy, bypass = srv.ProxyURL(), srv.ProxyBypass()
		}
		tc, dispose, err := r.worker.slot.newContext(ctx, b, conn, proxy, bypass)
		if err != nil {
			return &harnessError{"browser", err}
		}
		r.context = tc
		r.onClose(dispose)
	} else {
		if srv != nil {
			opts.Flags = append(append([]string(nil), opts.Flags...), srv.ChromiumFlags()...)
		}
		var err error
		if endpoint := r.worker.slot.endpoint; endpoint != "" {
			r.browser, err = browser.Attach(ctx, endpoint)
		} else {
			r.browser, err = browser.Launch(ctx, opts)
		}
		if err != nil {
			return &harnessError{"browser", err}
		}
		r.onClose(func() { r.browser.Close() })
	}
	var err error
	r.judge, err = judge.Attach(ctx, r.browser.URL(), judge.Options{BrowserContext: r.context.id})
	if err != nil {
		return &harnessError{err: err}
	}
	r.onClose(func() { r.judge.Close() })
	return nil
}

// openStartPage opens the task's start URL, if it has one, in the
// background: the tool server can start meanwhile. The returned function
// waits for the page to have loaded and then settled: what the start page
// still fetches after its load is its own, not the agent's, so it ends
// before the agent's first call.
func (r *taskRun) openStartPage(ctx context.Context) (wait func() error) {
	if r.task.StartURL == "" {
		return func() error { return nil }
	}
	done := make(chan error, 1)
	go func() {
		if err := openStart(ctx, r.browser.URL(), r.context.page, r.task.StartURL); err != nil {
			done <- &harnessError{"start page", err}
			return
		}
		if _, err := r.judge.Settle(ctx); err != nil {
			done <- &harnessError{err: err}
			return
		}
		done <- nil
	}()
	wait = sync.OnceValue(func() error { return <-done })
	// A task that ends early still waits for it before the browser closes.
	r.onClose(func() { wait() })
	return wait
}

// allow is the task's allow-list: the run's (the server profile's), plus
// the unsafe tools the task explicitly allows. A run without an allow-list
// offers every tool the server lists.
func (r *taskRun) allow() []string {
	if r.cfg.Server.Allow == nil {
		return nil
	}
	out := slices.Clone(r.cfg.Server.Allow)
	for _, tool := range r.task.AllowUnsafe {
		if _, ok := r.cfg.Server.Unsafe[tool]; ok && !slices.Contains(out, tool) {
			out = append(out, tool)
		}
	}
	return out
}

// taint returns the first call the agent made to a tool that could have
// written the evidence itself, nil when it made none. Such a result proves
// nothing about the task, whatever the contract says.
func (r *taskRun) taint(out *agent.Outcome) *report.Taint {
	for _, c := range out.Calls {
		if why, unsafe := r.cfg.Server.Unsafe[c.Tool]; unsafe && !c.Refused {
			return &report.Taint{Seq: c.Seq, Tool: c.Tool, Why: why}
		}
	}
	return nil
}

// offWebTaint is the first document outside the task's web that a page
// was asked to show, which the judge refused (contract.Refusal), as the
// call that asked for it: the agent reached for this machine's files or
// the browser's own pages, which no task offers, so its result proves
// nothing. nil when there was none.
func offWebTaint(refused []contract.Refusal, calls []agent.Call) *report.Taint {
	if len(refused) == 0 {
		return nil
	}
	r := refused[0]
	t := &report.Taint{Seq: r.Call, Why: fmt.Sprintf("asked the browser for %s, %s, which is not the task's web (the judge refused it)", r.URL, r.What)}
	if r.Call >= 1 && r.Call <= len(calls) {
		t.Tool = calls[r.Call-1].Tool
	}
	return t
}

// thumbnail has the judge take a picture of the active page after tool
// call seq, when the run traces. A picture that could not be taken is
// recorded with why; the task goes on either way.
func (r *taskRun) thumbnail(ctx context.Context, seq int) {
	if r.cfg.Trace != TraceOn && r.cfg.Trace != TraceFailed {
		return
	}
	if r.thumbs == nil {
		r.thumbs = map[int]*report.Thumbnail{}
	}
	left := r.task.Timeout/thumbnailShare - r.thumbTime
	if left <= 0 {
		r.thumbs[seq] = &report.Thumbnail{Error: fmt.Sprintf("not taken: thumbnails had used a tenth of the task's %s timeout", r.task.Timeout)}
		return
	}
	start := r.cfg.Now()
	th, err := r.judge.Thumbnail(ctx, judge.ThumbnailOptions{Timeout: min(left, judge.DefaultThumbnailTimeout)})
	took := r.cfg.Now().Sub(start)
	r.thumbTime += took
	t := &report.Thumbnail{JPEG: th.JPEG, URL: th.URL, DurationMS: took.Milliseconds()}
	if err != nil {
		t.Error = err.Error()
	}
	r.thumbs[seq] = t
}

// keepThumbnails attaches the thumbnails to the result's calls, unless
// the run keeps them only for results that did not pass and this one did.
func (r *taskRun) keepThumbnails(res *report.TaskResult) {
	if r.cfg.Trace == TraceFailed && res.Outcome.Passed() {
		return
	}
	for i := range res.Calls {
		res.Calls[i].Thumbnail = r.thumbs[res.Calls[i].Seq]
	}
}

// grade has the judge observe the browser and evaluate the contract.
func (r *taskRun) grade(ctx context.Context) (contract.Verdict, *contract.Observation, error) {
	if err := r.browserEnded(ctx, 0); err != nil {
		return contract.Verdict{}, nil, err
	}
	verdict, obs, err := r.judge.Grade(ctx, r.task.Postconditions, r.cfg.Classes)
	if err != nil {
		// The judge loses its connection the moment the browser dies,
		// a little before the browser's own report (exit status, last
		// output) is in. That report says what happened; a lost
		// connection does not. So give it a moment to arrive.
		if berr := r.browserEnded(ctx, browserEndGrace); berr != nil {
			return contract.Verdict{}, nil, berr
		}
		return contract.Verdict{}, nil, &harnessError{err: err}
	}
	return verdict, &obs, nil
}

// browserEnded returns the harness error for a browser that has ended,
// waiting up to wait for it to end; nil if it still runs.
func (r *taskRun) browserEnded(ctx context.Context, wait time.Duration) error {
	ended := func() error {
		return &harnessError{"browser", fmt.Errorf("ended during the task: %w", r.browser.Err())}
	}
	select {
	case <-r.browser.Done():
		return ended()
	default:
	}
	if wait <= 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-r.browser.Done():
		return ended()
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil
}

// provenance is what the result was produced from: the task's inputs, the
// fixture pages served, and the browser's version.
func (r *taskRun) provenance(ctx context.Context) *report.TaskProvenance {
	p := r.cfg.Inputs[r.task.ID]
	if r.replay != nil {
		p.Fixtures = r.replay.ServedDigest()
	}
	if v, err := cdpconn.FetchVersion(ctx, r.browser.URL()); err == nil {
		p.Chromium = v.Browser
	}
	return &p
}

// misses lists the replay server's misses, for the reason of a failure,
// and the requests the web failed on purpose (Spec.WebFaults).
func (r *taskRun) misses() (misses, faults []string) {
	if r.replay != nil {
		for _, m := range r.replay.Misses() {
			misses = append(misses, m.Method+" "+m.URL)
		}
	}
	if r.faults != nil {
		for _, m := range r.faults.Hits() {
			faults = append(faults, m.Method+" "+m.URL+" ("+m.Reason+")")
		}
	}
	return misses, faults
}

// fillAgent records what the agent did: how it stopped, its answer, calls
// and costs.
func fillAgent(res *report.TaskResult, out *agent.Outcome) {
	res.Stop = report.Stop{Kind: report.StopKind(out.Stop)}
	if out.Err != nil {
		var d *llm.DriftError
		res.Stop.Error, res.Stop.Stale = out.Err.Error(), errors.As(out.Err, &d) && d.Stale
	}
	res.Answer = out.Answer
	res.ToolCalls = len(out.Calls)
	res.ResponseBytes = out.ResponseBytes()
	res.Tokens = report.Tokens{Input: out.Usage.InputTokens, Output: out.Usage.OutputTokens,
		CacheRead: out.Usage.CacheReadTokens, CacheWrite: out.Usage.CacheWriteTokens}
	res.USD = out.USD
	for _, c := range out.Calls {
		call := report.Call{Seq: c.Seq, Tool: c.Tool, Args: c.Args, Reply: report.CutReply(c.Reply),
			DurationMS: c.Duration.Milliseconds(), ResponseBytes: int64(c.Bytes), IsError: c.IsError,
			Refused: c.Refused, Turn: c.Turn, USD: c.USD}
		if c.Usage != (llm.Usage{}) {
			call.Tokens = &report.Tokens{Input: c.Usage.InputTokens, Output: c.Usage.OutputTokens,
				CacheRead: c.Usage.CacheReadTokens, CacheWrite: c.Usage.CacheWriteTokens}
		}
		res.Calls = append(res.Calls, call)
	}
}

// errorResult ends res in a failure of the harness, which leaves the agent
// unjudged whatever it did.
func errorResult(res *report.TaskResult, err error) *report.TaskResult {
	res.Stop = report.Stop{Kind: report.StopError, Error: err.Error()}
	var h *harnessError
	if !errors.As(err, &h) {
		res.Stop.Error = "harness: " + res.Stop.Error
	}
	res.Decide()
	return res
}

// taskCaps converts a task's budget overrides to caps; zero keeps the
// run's value.
func taskCaps(b suite.Budget) llm.Caps {
	return llm.Caps{MaxTokensPerTurn: b.MaxTokensPerTurn, MaxToolIterations: b.MaxToolIterations, MaxUSD: b.MaxUSD}
}
