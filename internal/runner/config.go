package runner

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/contract"
	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/webreplay"
)

// Web says where pages come from.
type Web string

const (
	// WebReplay serves the suite's fixture archive under the real host
	// names; nothing else is reachable.
	WebReplay Web = "replay"
	// WebLive uses the real network.
	WebLive Web = "live"
	// WebRecord uses the real network through the recording server, which
	// adds every response to an archive.
	WebRecord Web = "record"
)

// Trace is which results keep the judge's thumbnails of each step.
type Trace string

const (
	TraceOff    Trace = "off"
	TraceOn     Trace = "on"
	TraceFailed Trace = "failed"
	// TraceAuto is TraceOn for a run of up to autoTraceAttempts task
	// attempts, TraceFailed for a larger one; NewPlan resolves it.
	TraceAuto Trace = "auto"
)

// autoTraceAttempts is the largest run (tasks times attempts) that
// TraceAuto traces in full; a larger one keeps thumbnails of the results
// that did not pass only, or takes none when its agent is repeatable.
// Past a few tasks a reader looks at failures, and the report stays small
// (docs/benchmarks/webvoyager.md gives the cost).
const autoTraceAttempts = 20

// ServerFunc starts the MCP tool server for one task, pointed at the
// browser's DevTools endpoint (through the judge, Judge.ServerURL) and,
// when the task has one in a browser it
// shares with the worker's other tasks, its browser context (empty when
// the task has the browser to itself), and returns the transport to reach
// it.
// ctx ends only when the run is aborted: the server must then be killed
// at once, not wait for a graceful exit.
// workDir is an empty folder of the task's, removed when the task ends:
// the server's working directory, so nothing it writes lands elsewhere.
type ServerFunc func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error)

// ProviderFunc returns the LLM provider that plays the agent in one task.
type ProviderFunc func(t *suite.Task) (llm.Provider, error)

// Spec is what a run is to do, as the command that makes it decides from
// its flags and inputs. NewPlan checks it and makes it the run's Plan.
type Spec struct {
	Suite *suite.Suite
	// GitSHA is the commit of the tree the run measures.
	GitSHA string

	// Tasks are the selected tasks in run order, each given Repeat
	// attempts (one when zero). Of those attempts the run makes Shard's
	// part alone, when set, and of that part none that Resume finished:
	// Resume is the report of an earlier run of the same question, whose
	// finished results the new report holds as they were.
	Tasks  []*suite.Task
	Repeat int
	Shard  *report.Shard
	Resume *report.Run

	Agent  Agent
	Server Server
	// Provenance is copied into the report.
	Provenance report.Provenance

	Web Web
	// Archive is the fixture web for WebReplay.
	Archive *webreplay.Archive
	// Recorder collects responses for WebRecord; its handler fetches from
	// the real upstream.
	Recorder *webreplay.Recorder
	// RecordTo, when set, is the folder the command writes what Recorder
	// collected to (Plan.Recorder); it has a recording to write under
	// WebRecord only.
	RecordTo string
	// Sites, when set, returns the suite's interactive sites (the
	// sandbox) in the state every task starts from, in front of the
	// archive's handler (fallback), which answers what they do not. It is
	// called once per task attempt, so nothing one attempt changes
	// reaches another. WebReplay only.
	Sites func(fallback http.Handler) http.Handler
	// WebFaults, when set, makes the web of every attempt fail on purpose
	// while it says so (a chaos test's switch); an attempt whose web
	// failed so ends as an error of the harness, whatever the judge saw.
	WebFaults func() webreplay.Fault

	// Browser configures launched browsers. When BrowserURLs is set, the
	// workers use those running browsers instead, worker i the i-th (so
	// there must be one per worker): with IsolateContext each task gets a
	// fresh context there, with IsolateProcess the worker's tasks share
	// the browser as it is.
	Browser     browser.Options
	BrowserURLs []string
	// Isolate is how tasks are kept apart; empty means IsolateContext.
	Isolate Isolate
	// Parallel is the number of workers (one when zero).
	Parallel int
	// Browsers is how many browsers the workers share under
	// IsolateContext, worker i using browser i mod Browsers; each task
	// still gets a browser context of its own. Zero means one per worker
	// (or, with BrowserURLs, one per endpoint). Under IsolateProcess
	// every task has a browser of its own, so it must be zero or
	// Parallel.
	Browsers int
	// Pace, for a replayed agent, is how long it waits before each model
	// turn; nil waits nothing. No other agent can be paced.
	Pace *Pace
	// Processors is how many processors the run may keep busy; zero means
	// runtime.NumCPU(). While the workers are fewer, each prepares its
	// next task ahead (see worker.work). At most this many tasks are set
	// up at once, whatever Parallel (see admission).
	Processors int

	// Classes are the suite's screenshot classes.
	Classes contract.Classes
	// Caps are the run's budget caps; each task may lower them.
	Caps llm.Caps
	// Prices is the price table used to charge usage.
	Prices *llm.Prices
	// Inputs holds, per task ID, the digests of what the task was loaded
	// from; the runner completes them with the fixture pages served and
	// the browser's version, and stores them in the result.
	Inputs map[string]report.TaskProvenance

	// Trace says after which tool calls the judge takes a thumbnail of the
	// active page, and which results keep them: TraceOn (every result),
	// TraceFailed (taken for all, kept for results that did not pass),
	// TraceOff (none; the zero value) or TraceAuto (one of the three, by
	// the size of the run and whether its agent is repeatable).
	Trace Trace

	// JudgeTimeout is how long each judge's capture may go without a
	// word from the browser before it fails; zero means 20 s. It measures
	// progress, not the capture's length: a capture that keeps hearing
	// from the browser goes on (within 10 minutes).
	JudgeTimeout time.Duration
}

// Agent is what plays the agent of every task, and how the report names it.
type Agent struct {
	// Name and Model are what the report's settings say played.
	Name, Model string
	// Provider returns each task's LLM provider; Exec plays the agent
	// with an outside command instead. An agent has one or the other.
	Provider ProviderFunc
	Exec     *ExecAgent
	// Replays, for the replayed agent (llm.NameReplay), holds the
	// transcript Provider replays for each task, by task ID: a Pace of
	// the think times they recorded needs them to have recorded some.
	Replays map[string]*transcript.Transcript
}

// Server is the MCP tool server the agent reaches the browser through.
type Server struct {
	// Name is what the report's settings call it.
	Name  string
	Start ServerFunc
	// Allow lists the tools offered to the agent; nil offers all.
	Allow []string
	// Unsafe names the server's tools that could forge the evidence (run
	// page script, rewrite the DOM, upload files, edit storage), with why.
	// They are offered only to a task that lists them in allow_unsafe, and
	// a task that called one is tainted: reported, never passed.
	Unsafe map[string]string
	// Unconfined says the server cannot be confined to a browser context
	// (its command takes no {browser_context}): it would list and open
	// tabs outside the task's, so its tasks need a browser each.
	Unconfined bool
}

// Plan is one run decided in full before it starts: the attempts it
// makes, the agent, the tool server, the web and the browsers, and the
// settings its report states, derived from them. NewPlan makes it;
// nothing changes it after, Run and the reports only read it.
type Plan struct {
	spec     Spec
	settings report.Settings
	// jobs are the attempts the run makes; kept holds the report's
	// results in run order, those kept from the run it resumes (nil at
	// the slot of a job).
	jobs []job
	kept []*report.TaskResult
}

// NewPlan checks spec and makes it a plan. The checks of a run's settings
// are made here alone; an error of one is a *FieldError naming the
// fields of spec that are wrong, for the command to name as it sets them.
func NewPlan(spec Spec) (*Plan, error) {
	p := &Plan{spec: spec}
	s := &p.spec
	s.Repeat, s.Parallel = max(s.Repeat, 1), max(s.Parallel, 1)
	s.Processors, s.JudgeTimeout = cmp.Or(s.Processors, runtime.NumCPU()), cmp.Or(s.JudgeTimeout, judgeTimeout)
	for _, check := range []func(*Spec) error{checkTrace, checkCaps, checkAgent, checkPace, checkIsolation, checkBrowsers, checkWeb} {
		if err := check(s); err != nil {
			return nil, err
		}
	}
	p.settings = settingsOf(s)
	kept, err := finished(s, p.settings)
	if err != nil {
		return nil, err
	}
	k := 0
	for _, t := range s.Tasks {
		for n := 1; n <= s.Repeat; n++ {
			if s.Shard.Holds(k) {
				var res *report.TaskResult
				if r, ok := kept[report.Attempt{Task: t.ID, Attempt: n}]; ok {
					res = &r
				} else {
					p.jobs = append(p.jobs, job{t, n, len(p.kept)})
				}
				p.kept = append(p.kept, res)
			}
			k++
		}
	}
	return p, nil
}

// checkTrace checks which results of s keep their thumbnails, and
// resolves TraceAuto and the zero value.
func checkTrace(s *Spec) error {
	switch s.Trace {
	case "":
		s.Trace = TraceOff
	case TraceAuto:
		s.Trace = TraceOn
		if len(s.Tasks)*s.Repeat > autoTraceAttempts {
			s.Trace = TraceFailed
			if s.Agent.repeatable() {
				s.Trace = TraceOff
			}
		}
	case TraceOff, TraceOn, TraceFailed:
	default:
		return fieldErrorf("unknown {trace} %q: want %s, %s, %s or %s", s.Trace, TraceAuto, TraceOn, TraceFailed, TraceOff)
	}
	return nil
}

// checkCaps checks that no task's budget asks for more than the run's
// caps allow: a task may lower a cap, never raise it.
func checkCaps(s *Spec) error {
	for _, t := range s.Tasks {
		if _, err := s.Caps.Lower(taskCaps(t.Budget)); err != nil {
			// Lower's error starts with "budget: " and names the cap.
			return fieldErrorf("%s: %w", t.File, err)
		}
	}
	return nil
}

// checkAgent checks that the agent of s is played one way: by a provider,
// or by an outside command that s names.
func checkAgent(s *Spec) error {
	a := s.Agent
	switch {
	case a.Exec == nil:
		return nil
	case a.Provider != nil && a.Exec.CDP && a.Exec.Command == "":
		return fieldErrorf("{agent_cdp} applies only with {agent} exec")
	case a.Provider != nil:
		return fieldErrorf("{agent_cmd} applies only with {agent} exec")
	case a.Exec.Command == "":
		return fieldErrorf("{agent} exec needs {agent_cmd} 'COMMAND' (docs/agents.md)")
	}
	return nil
}

// checkPace checks that a pace of s paces the replayed agent, by the
// think times its transcripts recorded when it asks for those, and that
// its jitter is no negative duration.
func checkPace(s *Spec) error {
	p := s.Pace
	if p == nil {
		return nil
	}
	if s.Agent.Name != llm.NameReplay {
		return fieldErrorf("{pace} applies only to {agent} replay: every other agent answers at its own pace")
	}
	var untimed []string
	for _, t := range s.Tasks {
		if tr := s.Agent.Replays[t.ID]; p.Recorded && (tr == nil || !transcript.HasThinkTimes(tr)) {
			untimed = append(untimed, t.ID)
		}
	}
	if len(untimed) > 0 {
		return fieldErrorf("{pace} recorded: %d of the %d transcripts record no think times (a reference solution's, an outside agent's, or a model's recorded before think times were kept): %s; pace them with {pace} DURATION", len(untimed), len(s.Tasks), strings.Join(untimed, ", "))
	}
	if p.Jitter < 0 {
		return fieldErrorf("{pace_jitter} %s: want a duration of zero or more", p.Jitter)
	}
	return nil
}

// checkWeb checks where the pages of s come from: the fixture web under
// WebReplay, which the suite must have; the network otherwise, where the
// sandbox's sites are not (they exist only in this repository, so there
// is nothing there to use or to record); and a recording's folder only
// for a run that records.
func checkWeb(s *Spec) error {
	switch s.Web {
	case WebReplay:
		if s.Archive == nil {
			return fieldErrorf("{web} replay: the suite has no fixture web (%s)", s.Suite.WebDir())
		}
	case WebLive, WebRecord:
	default:
		return fieldErrorf("unknown {web} %q: want replay, live or record", s.Web)
	}
	if s.RecordTo != "" && s.Web != WebRecord {
		return fieldErrorf("{record_to} applies only with {web} record")
	}
	if s.Web == WebReplay {
		return nil
	}
	for _, t := range s.Tasks {
		u, err := url.Parse(t.StartURL)
		if err != nil || !sandbox.IsHost(u.Hostname()) {
			continue
		}
		return fieldErrorf("{web} %s: %s starts on %s, a sandbox site that exists only in this repository (internal/sandbox), so there is nothing on the network to %s; run it with {web} replay",
			s.Web, t.ID, u.Hostname(), map[Web]string{WebLive: "use", WebRecord: "record"}[s.Web])
	}
	return nil
}

// checkIsolation checks how the tasks of s are kept apart, and sets the
// default: context for a server that can be confined to a browser context,
// process for one that cannot (docs/decisions/0011-browser-per-worker.md)
// and for an agent given the browser's raw CDP endpoint, which reaches
// every context of it.
func checkIsolation(s *Spec) error {
	cdp := s.Agent.Exec != nil && s.Agent.Exec.CDP
	switch {
	case s.Isolate == "" && (s.Server.Unconfined || cdp):
		s.Isolate = IsolateProcess
	case s.Isolate == "":
		s.Isolate = IsolateContext
	case s.Isolate != IsolateContext && s.Isolate != IsolateProcess:
		return fieldErrorf("unknown {isolate} %q: want %s or %s", s.Isolate, IsolateContext, IsolateProcess)
	case s.Isolate == IsolateContext && cdp:
		return fieldErrorf("{isolate} context: {agent_cdp} gives the agent the whole browser, every context of it; run it with {isolate} process, its default")
	case s.Isolate == IsolateContext && s.Server.Unconfined:
		return fieldErrorf("{isolate} context: server %s cannot be confined to a browser context (its command takes no {browser_context}: it would list and open tabs outside the task's context); run it with {isolate} process, its default", s.Server.Name)
	}
	// Under process isolation a running browser keeps the network it
	// has: the hermetic web reaches a browser through its launch flags
	// (host mapping, certificate pin) or a context's proxy, and a shared
	// default context has neither.
	if len(s.BrowserURLs) > 0 && s.Web != WebLive && s.Isolate == IsolateProcess {
		why := "{isolate} process"
		if s.Server.Unconfined {
			why = fmt.Sprintf("server %s cannot be confined to a browser context (its command takes no {browser_context}), so its tasks share the browser's default context", s.Server.Name)
		}
		return fieldErrorf("{browser_urls} with {web} %s: %s, which a running browser cannot be given the %s web in (it is wired in through launch flags or a browser context's proxy); pass {web} live to use that browser's own network, or drop {browser_urls}", s.Web, why, s.Web)
	}
	return nil
}

// checkBrowsers checks the browsers the workers of s use (no endpoint of
// BrowserURLs twice) and how many they share, and sets the default: one
// a worker, or one an endpoint of BrowserURLs.
func checkBrowsers(s *Spec) error {
	for i, u := range s.BrowserURLs {
		if slices.Contains(s.BrowserURLs[:i], u) {
			return fieldErrorf("{browser_urls}: %s is given twice; each worker needs a browser of its own", u)
		}
	}
	n := len(s.BrowserURLs)
	switch {
	case s.Browsers < 0:
		return fieldErrorf("{browsers} %d: want 1 or more", s.Browsers)
	case s.Browsers > s.Parallel:
		return fieldErrorf("{browsers} %d with {parallel} %d: more browsers than workers; a browser serves at least one worker", s.Browsers, s.Parallel)
	case s.Browsers > 0 && s.Browsers < s.Parallel && s.Isolate != IsolateContext:
		return fieldErrorf("{browsers} %d with {parallel} %d: under {isolate} %s every task has a Chromium of its own (a server that cannot be confined to a browser context needs one), so {parallel} is also the number of browsers, and memory bounds it: about 330 MiB for the browser of each task, and the tool server's process besides; share browsers with {isolate} context, on a server confined to a context (the built-in one)", s.Browsers, s.Parallel, s.Isolate)
	case n > 0 && s.Browsers == 0 && n != s.Parallel:
		return fieldErrorf("{browser_urls}: %d browser endpoints for {parallel} %d: each worker needs a browser of its own (pass as many endpoints as {parallel}, or leave {parallel} out)", n, s.Parallel)
	case n > 0 && s.Browsers > 0 && s.Browsers != n:
		return fieldErrorf("{browsers} %d with %d {browser_urls} endpoints: the workers share the endpoints given, so pass as many", s.Browsers, n)
	}
	if s.Browsers == 0 {
		s.Browsers = cmp.Or(n, s.Parallel)
	}
	return nil
}

// settingsOf is what the report of a run of s says it was asked to do.
func settingsOf(s *Spec) report.Settings {
	set := report.Settings{
		Suite: s.Suite.Dir, Agent: s.Agent.Name, Model: s.Agent.Model, Server: s.Server.Name, Web: string(s.Web),
		Caps:   report.Caps{MaxTokensPerTurn: s.Caps.MaxTokensPerTurn, MaxToolIterations: s.Caps.MaxToolIterations, MaxUSD: s.Caps.MaxUSD},
		Repeat: s.Repeat, Parallel: s.Parallel, Shard: s.Shard, Trace: string(s.Trace), AllTasks: len(s.Tasks) == len(s.Suite.Tasks),
		Isolate: string(s.Isolate), Browsers: "launched", WebRoute: "direct",
	}
	for _, t := range s.Tasks {
		set.Tasks = append(set.Tasks, t.ID)
	}
	if s.Agent.Exec != nil && s.Agent.Exec.CDP {
		set.Trust = report.TrustUnrestricted
	}
	if len(s.BrowserURLs) > 0 {
		set.Browsers = "remote"
	}
	if s.Browsers < s.Parallel {
		set.SharedBrowsers = s.Browsers
	}
	if s.Pace != nil {
		set.Pace = s.Pace.String()
	}
	if s.Web != WebLive {
		set.WebRoute = map[Isolate]string{IsolateContext: "proxy", IsolateProcess: "flags"}[s.Isolate]
	}
	return set
}

// finished returns the finished results of the run s resumes, by attempt
// (none when it resumes none), once it is sure that run asked the same
// question of the same shard.
func finished(s *Spec, set report.Settings) (map[report.Attempt]report.TaskResult, error) {
	prior := s.Resume
	if prior == nil {
		return nil, nil
	}
	now := &report.Run{GitSHA: s.GitSHA, Settings: set, Provenance: s.Provenance}
	if err := report.SameQuestion(prior, now); err != nil {
		return nil, fieldErrorf("{resume}: not the same run: %w", err)
	}
	if !reflect.DeepEqual(prior.Settings.Shard, set.Shard) {
		return nil, fieldErrorf("{resume}: it is shard %v, this run is %v", prior.Settings.Shard, set.Shard)
	}
	out := map[report.Attempt]report.TaskResult{}
	for _, res := range prior.Results {
		if report.Finished(res) {
			out[report.Attempt{Task: res.Task, Attempt: res.Attempt}] = res
		}
	}
	return out, nil
}

// Settings returns what the report of the plan says it was asked to do.
func (p *Plan) Settings() report.Settings {
	set := p.settings
	set.Tasks = slices.Clone(set.Tasks)
	return set
}

// Pending returns how many attempts the run makes: those of its part of
// the selection that the run it resumes did not finish.
func (p *Plan) Pending() int { return len(p.jobs) }

// MaxUSD is what one attempt of t may spend: the run's cap, or the
// task's own when it is lower.
func (p *Plan) MaxUSD(t *suite.Task) float64 {
	if b := t.Budget.MaxUSD; b > 0 && b < p.spec.Caps.MaxUSD {
		return b
	}
	return p.spec.Caps.MaxUSD
}

// WorstCaseUSD is what the run may spend at most: every pending
// attempt's MaxUSD.
func (p *Plan) WorstCaseUSD() float64 {
	sum := 0.0
	for _, j := range p.jobs {
		sum += p.MaxUSD(j.task)
	}
	return sum
}

// LargestMaxUSD is the largest MaxUSD of a pending attempt.
func (p *Plan) LargestMaxUSD() float64 {
	m := 0.0
	for _, j := range p.jobs {
		m = max(m, p.MaxUSD(j.task))
	}
	return m
}

// Recorder returns the recorder of a run on WebRecord, nil for others.
func (p *Plan) Recorder() *webreplay.Recorder { return p.spec.Recorder }

// Hooks are how the caller follows a run and stops it. None of them
// changes what an attempt does.
type Hooks struct {
	// Progress receives events as tasks move; it may be called from several
	// goroutines at once.
	Progress func(Event)
	// Transcripts, when set, records each task's tool calls: it returns the
	// header of the transcript to start for a task.
	Transcripts func(t *suite.Task, p llm.Provider) transcript.Header
	// TaskDone is called once per finished task attempt with its result
	// and, when Transcripts is set, its transcript.
	TaskDone func(t *suite.Task, r *report.TaskResult, rec *transcript.Recorder)
	// Abort is closed to stop the run at once (a second Ctrl-C): the
	// run's context, when cancelled, stops the agents but lets the judge
	// finish grading a task whose agent had finished and lets tool
	// servers exit gracefully; Abort cuts both short, and the tasks still
	// running end as interrupted. Nil never aborts.
	Abort <-chan struct{}
	// Admit, when set, is asked before each attempt starts; false
	// starts no more attempts (those running finish) and the report is
	// marked incomplete: a total budget stops a run this way.
	Admit func(t *suite.Task) bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Wait waits d or until ctx ends, returning ctx's error then: the
	// paced waits of a replayed agent (Spec.Pace). Nil waits on the real
	// clock.
	Wait func(ctx context.Context, d time.Duration) error
}

// config is what the workers of one run read: the plan's spec and the
// caller's hooks, their clock and progress never nil.
type config struct {
	*Spec
	Hooks
	// admission admits the set-ups of the run's tasks.
	admission *admission
}

// Event is a progress update.
type Event struct {
	Task    string
	Attempt int
	// Step is "setup" (the task's set-up begins, ahead of its turn when
	// its worker prepares it while another task runs), "start" (its turn
	// has come: its agent starts unless the set-up failed), "call",
	// "judge" or "done". Elapsed counts the task's own time: its set-up
	// and, from "start" on, the time since.
	Step    string
	Seq     int
	Tool    string
	Elapsed time.Duration
	// Result is set on "done".
	Result *report.TaskResult
}
