package report

import (
	"time"

	"contractbench/internal/contract"
)

// SchemaVersion is the version of the JSON form of Run. It changes whenever
// a field is removed or changes meaning; adding a field does not change it.
const SchemaVersion = 1

// Outcome is how one attempt at one task ended.
type Outcome string

// The closed set of outcomes. The package documentation explains each.
const (
	OutcomePassed         Outcome = "passed"
	OutcomeFailed         Outcome = "failed"
	OutcomeReplayDrift    Outcome = "replay_drift"
	OutcomeBudgetExceeded Outcome = "budget_exceeded"
	OutcomeTimeout        Outcome = "timeout"
	OutcomeError          Outcome = "error"
	OutcomeTainted        Outcome = "tainted"
	OutcomeInterrupted    Outcome = "interrupted"
)

// Outcomes lists every Outcome in the order reports present them.
var Outcomes = []Outcome{
	OutcomePassed, OutcomeFailed, OutcomeReplayDrift, OutcomeBudgetExceeded,
	OutcomeTimeout, OutcomeError, OutcomeTainted, OutcomeInterrupted,
}

// Passed reports whether the outcome is a success. Only OutcomePassed is.
func (o Outcome) Passed() bool { return o == OutcomePassed }

// Judged reports whether the attempt counts in the score: every outcome
// but interrupted, which says only that the run was stopped before the
// agent finished (Ctrl-C, a closed terminal), nothing about the agent.
func (o Outcome) Judged() bool { return o != OutcomeInterrupted }

// Valid reports whether o is one of Outcomes.
func (o Outcome) Valid() bool {
	for _, k := range Outcomes {
		if o == k {
			return true
		}
	}
	return false
}

// Run is the result of one benchmark run: what was asked for and what every
// attempt at every task did. The runner fills it; every view renders it.
type Run struct {
	// SchemaVersion is SchemaVersion when the run was written. It is the
	// first field of the JSON form so a reader can check it before
	// anything else.
	SchemaVersion int `json:"schema_version"`
	// GitSHA is the commit of the tree the run measured.
	GitSHA string `json:"git_sha"`
	// Started is when the run began; DurationMS is its wall-clock length.
	Started    time.Time `json:"started"`
	DurationMS int64     `json:"duration_ms"`

	Settings Settings `json:"settings"`

	// Incomplete reports that the run stopped before every selected task
	// and attempt ran (it was interrupted). Every view says so, so a
	// partial score is never mistaken for a full one.
	Incomplete bool `json:"incomplete"`

	// Results holds one entry per task and attempt, in task order and then
	// attempt order.
	Results []TaskResult `json:"results"`
}

// Settings is what the run was asked to do.
type Settings struct {
	Suite  string `json:"suite"`
	Agent  string `json:"agent"`  // replay, reference, anthropic, openai
	Server string `json:"server"` // the MCP tool server: builtin or a peer
	Model  string `json:"model"`
	Web    string `json:"web"` // replay, live or record
	Caps   Caps   `json:"caps"`
	// Repeat is how many attempts each task was given (1 when not
	// repeated); Parallel how many tasks ran at once.
	Repeat   int `json:"repeat"`
	Parallel int `json:"parallel"`
	// Tasks is the selection, in run order. With Results it tells which
	// tasks an incomplete run never reached.
	Tasks []string `json:"tasks"`
	// AllTasks reports that the selection is every task of the suite.
	AllTasks bool `json:"all_tasks"`
}

// Caps are the budget caps of the run, as applied to every task.
type Caps struct {
	MaxTokensPerTurn  int     `json:"max_tokens_per_turn"`
	MaxToolIterations int     `json:"max_tool_iterations"`
	MaxUSD            float64 `json:"max_usd"`
}

// TaskResult is one attempt at one task.
type TaskResult struct {
	Task string `json:"task"`
	// Attempt is 1-based.
	Attempt int     `json:"attempt"`
	Outcome Outcome `json:"outcome"`
	// Reason says why the outcome is not passed when the contract alone
	// does not: the drift, the cap that was hit, the error, the timeout.
	Reason string `json:"reason,omitempty"`
	// Drift is replay drift seen while the task ran although the outcome
	// was decided by the contract (the judge still graded the final
	// state). It is recorded so that drift is never silently tolerated.
	Drift string `json:"drift,omitempty"`

	DurationMS    int64   `json:"duration_ms"`
	ToolCalls     int     `json:"tool_calls"`
	ResponseBytes int64   `json:"response_bytes"`
	Tokens        Tokens  `json:"tokens"`
	USD           float64 `json:"usd"`

	// FailedPostcondition is the first clause that did not hold, as a path
	// and kind: "postconditions[0] (url)", for people. Empty when the
	// contract held or was not evaluated. FailedPath and FailedKind are
	// the same clause for programs.
	FailedPostcondition string        `json:"failed_postcondition,omitempty"`
	FailedPath          string        `json:"failed_path,omitempty"`
	FailedKind          contract.Kind `json:"failed_kind,omitempty"`
	// Unsettled says why the contract failed although it held on one of
	// the two states the judge read (contract.Verdict.Unstable), and
	// Undecided that the observation could not decide the failed clause.
	Unsettled string `json:"unsettled,omitempty"`
	Undecided bool   `json:"undecided,omitempty"`
	// Evidence is what the judge compared for every leaf it evaluated.
	Evidence []contract.Evidence `json:"evidence,omitempty"`
	// Observation is the final browser state the judge captured, so the
	// result can be re-graded offline. Its screenshot is written beside
	// the report as a file (Screenshot.File), never inline.
	Observation *contract.Observation `json:"observation,omitempty"`

	// Answer is the agent's final answer. It is recorded for readers and
	// is never evidence: the judge looks only at the browser.
	Answer string `json:"answer,omitempty"`
	// Calls is every tool call the agent made, in order.
	Calls []Call `json:"calls,omitempty"`
	// WebMisses lists the requests the replay archive could not answer
	// ("GET https://host/path"), in order; a fixture gap, not the agent's.
	WebMisses []string `json:"web_misses,omitempty"`
}

// Tokens counts LLM tokens as the provider reported them.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
}

// add returns the sum of t and u.
func (t Tokens) add(u Tokens) Tokens {
	return Tokens{
		Input:      t.Input + u.Input,
		Output:     t.Output + u.Output,
		CacheRead:  t.CacheRead + u.CacheRead,
		CacheWrite: t.CacheWrite + u.CacheWrite,
	}
}

// Call is one tool call of the agent.
type Call struct {
	Seq           int    `json:"seq"`
	Tool          string `json:"tool"`
	DurationMS    int64  `json:"duration_ms"`
	ResponseBytes int64  `json:"response_bytes"`
	// IsError reports that the tool answered with an error result.
	IsError bool `json:"is_error"`
	// Refused reports that the harness did not forward the call because
	// the tool is not on the allow-list.
	Refused bool `json:"refused"`
}

// SetVerdict records the judge's verdict on the task: its evidence and,
// when it failed, the clause that decided it.
func (r *TaskResult) SetVerdict(v contract.Verdict) {
	r.Evidence = v.Evidence
	r.FailedPostcondition, r.FailedPath, r.FailedKind = "", "", ""
	r.Unsettled, r.Undecided = v.Unstable, v.Undecided
	if !v.Passed {
		r.FailedPostcondition, r.FailedPath, r.FailedKind = v.FailedClause(), v.FailedPath, v.FailedKind
	}
}
