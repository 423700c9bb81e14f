package runner

import (
	"context"
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

// ServerFunc starts the MCP tool server for one task, pointed at the
// browser's DevTools endpoint, and returns the transport to reach it.
// ctx ends only when the run is aborted: the server must then be killed
// at once, not wait for a graceful exit.
// workDir is an empty folder of the task's, removed when the task ends:
// the server's working directory, so nothing it writes lands elsewhere.
type ServerFunc func(ctx context.Context, browserURL, workDir string) (mcp.Transport, error)

// ProviderFunc returns the LLM provider that plays the agent in one task.
type ProviderFunc func(t *suite.Task) (llm.Provider, error)

// Config is one run.
type Config struct {
	Suite *suite.Suite
	Tasks []*suite.Task

	// Settings are copied into the report.
	Settings report.Settings

	Provider ProviderFunc
	Server   ServerFunc
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

	// Browser configures launched browsers. When BrowserURL is set, tasks
	// use that running browser instead (and must then run one at a time).
	Browser    browser.Options
	BrowserURL string

	// Classes are the suite's screenshot classes.
	Classes contract.Classes
	// Caps are the run's budget caps; each task may lower them.
	Caps llm.Caps
	// Prices is the price table used to charge usage.
	Prices *llm.Prices

	Parallel int
	Repeat   int

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
	// Step is "start", "call", "judge" or "done".
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
