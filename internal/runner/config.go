package runner

import (
	"context"
	"net/http"
	"runtime"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/contract"
	"contractbench/internal/llm"
	"contractbench/internal/report"
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
)

// ServerFunc starts the MCP tool server for one task, pointed at the
// browser's DevTools endpoint and, when the task has one in a browser it
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

// Config is one run.
type Config struct {
	Suite *suite.Suite
	Tasks []*suite.Task

	// Settings and Provenance are copied into the report.
	Settings   report.Settings
	Provenance report.Provenance

	Provider ProviderFunc
	// Exec, when set, plays the agent with an outside command instead of
	// Provider.
	Exec   *ExecAgent
	Server ServerFunc
	// Allow lists the tools offered to the agent; nil offers all.
	Allow []string
	// Unsafe names the server's tools that could forge the evidence (run
	// page script, rewrite the DOM, upload files, edit storage), with why.
	// They are offered only to a task that lists them in allow_unsafe, and
	// a task that called one is tainted: reported, never passed.
	Unsafe map[string]string

	Web Web
	// Archive is the fixture web for WebReplay.
	Archive *webreplay.Archive
	// Recorder collects responses for WebRecord; its handler fetches from
	// the real upstream.
	Recorder *webreplay.Recorder
	// Sites, when set, returns the suite's interactive sites (the
	// sandbox) in the state every task starts from, in front of the
	// archive's handler (fallback), which answers what they do not. It is
	// called once per task attempt, so nothing one attempt changes
	// reaches another. WebReplay only.
	Sites func(fallback http.Handler) http.Handler

	// Browser configures launched browsers. When BrowserURLs is set, the
	// workers use those running browsers instead, worker i the i-th (so
	// there must be one per worker): with IsolateContext each task gets a
	// fresh context there, with IsolateProcess the worker's tasks share
	// the browser as it is.
	Browser     browser.Options
	BrowserURLs []string
	// Isolate is how tasks are kept apart; empty means IsolateContext.
	Isolate Isolate

	// Classes are the suite's screenshot classes.
	Classes contract.Classes
	// Caps are the run's budget caps; each task may lower them.
	Caps llm.Caps
	// Prices is the price table used to charge usage.
	Prices *llm.Prices

	Parallel int
	// Processors is how many processors the run may keep busy; zero means
	// runtime.NumCPU(). While the workers are fewer, each prepares its
	// next task ahead (see worker.work).
	Processors int
	Repeat     int
	// Keep holds results of an earlier run of the same selection that
	// this run resumes: those attempts are not run again, and the report
	// holds them as they were.
	Keep []report.TaskResult
	// Inputs holds, per task ID, the digests of what the task was loaded
	// from; the runner completes them with the fixture pages served and
	// the browser's version, and stores them in the result.
	Inputs map[string]report.TaskProvenance

	// Trace says after which tool calls the judge takes a thumbnail of the
	// active page, and which results keep them: TraceOn (every result),
	// TraceFailed (taken for all, kept for results that did not pass) or
	// TraceOff (none; the zero value).
	Trace Trace

	// Transcripts, when set, records each task's tool calls: it returns the
	// header of the transcript to start for a task.
	Transcripts func(t *suite.Task, p llm.Provider) transcript.Header

	// Progress receives events as tasks move; it may be called from several
	// goroutines at once.
	Progress func(Event)
	// TaskDone is called once per finished task attempt with its result
	// and, when Transcripts is set, its transcript.
	TaskDone func(t *suite.Task, r *report.TaskResult, rec *transcript.Recorder)

	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// Abort is closed to stop the run at once (a second Ctrl-C): the
	// run's context, when cancelled, stops the agents but lets the judge
	// finish grading a task whose agent had finished and lets tool
	// servers exit gracefully; Abort cuts both short, and the tasks still
	// running end as interrupted. Nil never aborts.
	Abort <-chan struct{}
	// JudgeTimeout bounds each judge's capture; zero means 20 s.
	JudgeTimeout time.Duration
}

// processors returns Processors, or the machine's when zero.
func (c *Config) processors() int {
	if c.Processors > 0 {
		return c.Processors
	}
	return runtime.NumCPU()
}

// isolate returns the isolation in force.
func (c *Config) isolate() Isolate {
	if c.Isolate == "" {
		return IsolateContext
	}
	return c.Isolate
}

func (c *Config) judgeTimeout() time.Duration {
	if c.JudgeTimeout > 0 {
		return c.JudgeTimeout
	}
	return judgeTimeout
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

func (c *Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Config) progress(e Event) {
	if c.Progress != nil {
		c.Progress(e)
	}
}
