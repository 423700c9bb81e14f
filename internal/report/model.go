package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"contractbench/internal/contract"
)

// SchemaVersion is the version of the JSON form of Run. It changes whenever
// a field is removed or changes meaning; adding a field does not change it.
// Version 2 keeps the failed clause as one object (failed_clause, its path
// and kind) instead of failed_postcondition, failed_path and failed_kind,
// and the drift in the agent's stop instead of a field of its own; ReadJSON
// upgrades version 1.
const SchemaVersion = 2

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
func (o Outcome) Valid() bool { return slices.Contains(Outcomes, o) }

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

	// Provenance says what produced the run, beyond its settings.
	Provenance Provenance `json:"provenance"`

	// Incomplete reports that the run stopped before every selected task
	// and attempt ran (it was interrupted). Every view says so, so a
	// partial score is never mistaken for a full one.
	Incomplete bool `json:"incomplete"`

	// Regraded is set on a run re-graded offline from a stored report
	// (contractbench regrade): what it was re-graded from and how.
	Regraded *Regraded `json:"regraded,omitempty"`

	// Results holds one entry per task and attempt, in task order and then
	// attempt order.
	Results []TaskResult `json:"results"`
}

// Regraded says where a re-graded run came from. The results' verdicts
// are contract.Evaluate's on the stored Observations against the suite's
// contracts as they were at Regraded.At; everything else (what the agent
// did, durations, costs) is the original run's.
type Regraded struct {
	// From is the report file re-graded; FromGitSHA the commit its run
	// measured (the run's GitSHA is kept as it was).
	From       string    `json:"from"`
	FromGitSHA string    `json:"from_git_sha"`
	At         time.Time `json:"at"`
	// SuiteGitSHA is the commit of the suite whose contracts graded it.
	SuiteGitSHA string `json:"suite_git_sha"`
	// Changed counts results whose outcome changed.
	Changed int `json:"changed"`
	// Warnings say where a verdict may differ from what a new run would
	// give: a contract naming a selector the stored Observation lacks, a
	// task no longer in the suite, a result with no Observation.
	Warnings []string `json:"warnings,omitempty"`
}

// Settings is what the run was asked to do, as the runner derives it from
// the run's plan (runner.NewPlan): a description of the plan, never its
// source.
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
	// Shard, when set, says the run was one part of the selection (see
	// Attempts); merging the parts' reports gives the whole.
	Shard *Shard `json:"shard,omitempty"`
	// Trust is TrustUnrestricted when the agent held raw access to the
	// browser; empty when it reached the browser only through the
	// harness's tool server.
	Trust string `json:"trust,omitempty"`
	// Trace says which results keep a thumbnail of the page after each
	// tool call: on (all), failed (those that did not pass) or off. Empty
	// in reports written before thumbnails existed.
	Trace string `json:"trace,omitempty"`
	// AllTasks reports that the selection is every task of the suite.
	AllTasks bool `json:"all_tasks"`
	// Isolate is how tasks were kept apart: "context" (a browser per
	// worker, a fresh browser context per task) or "process" (a browser
	// per task, or each worker's remote browser shared by its tasks).
	// Empty in reports written before either existed (process).
	Isolate string `json:"isolate,omitempty"`
	// Browsers is "launched" (by the run) or "remote" (--browser-url).
	Browsers string `json:"browsers,omitempty"`
	// WebRoute is how the web reached the browser: "proxy" (the run's
	// replay or recording server, as each task context's proxy),
	// "flags" (the same server, through the launch flags of the task's
	// browser) or "direct" (the browser's own network: --web live).
	WebRoute string `json:"web_route,omitempty"`
	// SharedBrowsers is how many browsers the workers shared (--browsers)
	// when fewer than the workers; zero when each worker had its own.
	SharedBrowsers int `json:"shared_browsers,omitempty"`
	// Pace is how the replayed agent waited before each model turn
	// ("3s", "3s ±500ms, seed 1", "recorded"); empty when it did not.
	Pace string `json:"pace,omitempty"`
}

// ThumbnailsNote says in words which results keep the judge's picture of
// the page after each tool call (Trace): "every task", "failed tasks
// only" or "none".
func (s Settings) ThumbnailsNote() string {
	switch s.Trace {
	case "on":
		return "every task"
	case "failed":
		return "failed tasks only"
	case "", "off":
		return "none"
	}
	return s.Trace
}

// BrowserNote says in words how the run's browsers were set up and which
// web they saw; empty for reports that do not say.
func (s Settings) BrowserNote() string {
	if s.Isolate == "" {
		return ""
	}
	var b string
	switch {
	case s.Isolate == "context" && s.SharedBrowsers > 0:
		b = fmt.Sprintf("%s, %d shared by %d workers, a fresh browser context per task", s.Browsers, s.SharedBrowsers, s.Parallel)
	case s.Isolate == "context" && s.Browsers == "remote":
		b = "remote, one per worker, a fresh browser context per task"
	case s.Isolate == "context":
		b = "launched, one per worker, a fresh browser context per task"
	case s.Browsers == "remote":
		b = "remote, one per worker, shared by its tasks as it is"
	default:
		b = "launched, one per task"
	}
	switch s.WebRoute {
	case "proxy":
		b += "; the " + s.Web + " web through each context's proxy (the task's own server)"
	case "flags":
		b += "; the " + s.Web + " web through each browser's launch flags (the task's own server)"
	case "direct":
		b += "; the browser's own network"
	}
	return b
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
	// Tags are the task's tags, for filtering views.
	Tags []string `json:"tags,omitempty"`
	// RequiresWrite reports that the task's contract holds only if the
	// browser sent a write request (contract.RequiresWrite): the task asks
	// for a change. False in reports written before it existed.
	RequiresWrite bool `json:"requires_write,omitempty"`
	// Attempt is 1-based.
	Attempt int     `json:"attempt"`
	Outcome Outcome `json:"outcome"`
	// Reason says why the outcome is not passed when the contract alone
	// does not: the drift, the cap that was hit, the error, the timeout.
	// Decide gives both from what the result records.
	Reason string `json:"reason,omitempty"`
	// Stop is how the agent's part ended: a replay drift is recorded
	// even when the contract decided the outcome, so that drift is never
	// silently tolerated. Taint is the call that made the result prove
	// nothing, if one did.
	Stop  Stop   `json:"stop,omitzero"`
	Taint *Taint `json:"taint,omitempty"`

	DurationMS    int64   `json:"duration_ms"`
	ToolCalls     int     `json:"tool_calls"`
	ResponseBytes int64   `json:"response_bytes"`
	Tokens        Tokens  `json:"tokens"`
	USD           float64 `json:"usd"`

	// Failed is the clause that decided a failed verdict
	// (contract.Verdict.FailedPath and FailedKind); nil when the contract
	// held or its verdict does not count. Views name it as
	// "postconditions[0] (url)".
	Failed *Clause `json:"failed_clause,omitempty"`
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

	// Provenance holds the digests of what produced this result.
	Provenance *TaskProvenance `json:"provenance,omitempty"`

	// Answer is the agent's final answer. It is recorded for readers and
	// is never evidence: the judge looks only at the browser.
	Answer string `json:"answer,omitempty"`
	// Calls is every tool call the agent made, in order.
	Calls []Call `json:"calls,omitempty"`
	// Trust is TrustUnrestricted when the agent held raw access to the
	// browser; empty otherwise.
	Trust string `json:"trust,omitempty"`

	// WebMisses lists the requests the replay archive could not answer
	// ("GET https://host/path"), in order; a fixture gap, not the agent's.
	WebMisses []string `json:"web_misses,omitempty"`
	// WebFaults lists the requests the web failed on purpose (a chaos
	// test's faults: "GET https://host/path (fault injected: 500)"), in
	// order. Any makes the attempt an error of the harness.
	WebFaults []string `json:"web_faults,omitempty"`
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
	Seq  int    `json:"seq"`
	Tool string `json:"tool"`
	// Args are the arguments as the agent sent them.
	Args json.RawMessage `json:"args,omitempty"`
	// Reply is the text of the tool's reply as the agent read it, cut to
	// maxReplyBytes by CutReply, which says how much it cut; ResponseBytes
	// is the size of the whole reply as JSON.
	Reply         string `json:"reply,omitempty"`
	DurationMS    int64  `json:"duration_ms"`
	ResponseBytes int64  `json:"response_bytes"`
	// IsError reports that the tool answered with an error result.
	IsError bool `json:"is_error"`
	// Refused reports that the harness did not forward the call because
	// the tool is not on the allow-list.
	Refused bool `json:"refused"`
	// Turn is the 1-based LLM turn that asked for the call. Tokens and USD
	// are that turn's, on the turn's first call only, so that they add up
	// to the result's. Reports written before these existed leave them
	// zero.
	Turn   int     `json:"turn,omitempty"`
	Tokens *Tokens `json:"tokens,omitempty"`
	USD    float64 `json:"usd,omitempty"`
	// Thumbnail is the judge's picture of the active page once the call
	// had answered; nil when tracing was off for the result.
	Thumbnail *Thumbnail `json:"thumbnail,omitempty"`
}

// maxReplyBytes bounds the reply text a Call keeps: enough for the start
// of a page read and the whole of a short reply, while a report of a
// suite stays small enough to read in a browser.
const maxReplyBytes = 4 << 10

// CutReply returns a reply's text whole when it is at most MaxReplyBytes
// long, and otherwise its first MaxReplyBytes, cut at a character
// boundary, followed by a line saying how many bytes were left out.
func CutReply(s string) string {
	if len(s) <= maxReplyBytes {
		return s
	}
	cut := maxReplyBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "\n…(+" + strconv.Itoa(len(s)-cut) + " bytes)"
}

// Thumbnail is a small JPEG of the active page, taken by the judge over its
// own connection after a tool call. It shows readers what happened; it is
// never evidence.
type Thumbnail struct {
	// JPEG holds the image. Reports store it beside the JSON as a file
	// (File), never inline; the HTML view embeds it.
	JPEG []byte `json:"-"`
	File string `json:"file,omitempty"`
	// URL is the page's address when the picture was taken.
	URL string `json:"url,omitempty"`
	// DurationMS is how long taking it held up the task.
	DurationMS int64 `json:"duration_ms"`
	// Error says why there is no picture (a dialog was showing, no page
	// was visible, the page did not answer in time).
	Error string `json:"error,omitempty"`
}

// Provenance is what produced a run: the versions of the parts that can
// change a result although the suite did not.
type Provenance struct {
	// Contractbench is this program's version (cli.Version).
	Contractbench string `json:"contractbench"`
	// ServerPackage is the npm package and version of a peer MCP server,
	// "" for the built-in one (whose version is Contractbench's).
	ServerPackage string `json:"server_package,omitempty"`
}

// TaskProvenance is what one result was produced from, as digests: change
// any input and its digest changes.
type TaskProvenance struct {
	// Spec is the SHA-256 of the task's canonical spec (every field), and
	// Contract of its postconditions' canonical JSON.
	Spec     string `json:"spec"`
	Contract string `json:"contract"`
	// Transcript is the SHA-256 of the transcript file a replay agent
	// played; "" for other agents.
	Transcript string `json:"transcript,omitempty"`
	// Fixtures digests every fixture page the replay web served during
	// the task (webreplay.Replayer.ServedDigest); "" with the live web.
	Fixtures string `json:"fixtures,omitempty"`
	// Chromium is the browser's product and version, from its DevTools
	// endpoint.
	Chromium string `json:"chromium,omitempty"`
}

// TrustUnrestricted labels a verdict on a browser the agent could drive
// with raw CDP (contractbench judge, run --agent exec --agent-cdp). With
// raw CDP an agent can run script in the page or rewrite the DOM, the
// network and the dialogs the judge reads, so the verdict says what the
// final state was but not that the agent reached it by doing the task.
const TrustUnrestricted = "unrestricted agent"

// UnrestrictedNote is what every view says beside the label.
const UnrestrictedNote = "the agent held raw CDP access to the browser and could have written the evidence itself (page script, DOM rewriting), so no result of this run counts as passed and the gate fails (docs/agents.md)"

// joinReasons joins the non-empty parts of a result's reason with "; ".
func joinReasons(parts ...string) string {
	return strings.Join(slices.DeleteFunc(slices.Clone(parts), func(s string) bool { return s == "" }), "; ")
}

// TamperSignals lists what in obs suggests the page was changed by
// something other than the page and the harness's tools. It is run only
// for unrestricted agents, and it can only see traces in the stored
// Observation: script run over CDP (Runtime.evaluate) or DOM rewriting
// (DOM.setOuterHTML) leaves none the judge can tell from the page's own
// scripts. A signal is a hint for a reader, never a verdict: a
// single-page application changes its address without a document load
// too.
func TamperSignals(obs *contract.Observation) []string {
	if obs == nil {
		return nil
	}
	final, _, _ := strings.Cut(obs.URL, "#")
	if !strings.HasPrefix(final, "https://") && !strings.HasPrefix(final, "http://") {
		return nil
	}
	for _, n := range obs.Network {
		if u, _, _ := strings.Cut(n.URL, "#"); u == final && (n.ResourceType == "" || n.ResourceType == "Document") {
			return nil
		}
	}
	return []string{fmt.Sprintf("the final URL %s was never loaded: no document request for it is in the network log, "+
		"so the address changed without a load (history API, or script run over CDP)", obs.URL)}
}
