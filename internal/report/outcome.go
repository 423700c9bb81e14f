package report

import (
	"fmt"
	"strings"

	"contractbench/internal/contract"
)

// StopKind is how the agent's part of an attempt ended; the values are
// agent.Stop's.
type StopKind string

// The ways an agent's part ends.
const (
	StopAnswer      StopKind = "answer"
	StopBudget      StopKind = "budget"
	StopDrift       StopKind = "drift"
	StopTimeout     StopKind = "timeout"
	StopInterrupted StopKind = "interrupted" // the run was stopped before the agent finished
	StopError       StopKind = "error"       // the provider, the tool server or the harness failed
)

// Stop is how the agent's part of an attempt ended, kept so that the
// outcome can be decided again from it.
type Stop struct {
	Kind StopKind `json:"kind"`
	// Error says why the agent stopped without an answer: the cap, the
	// drift, the failure.
	Error string `json:"error,omitempty"`
	// Stale reports a drift found before the transcript's first call:
	// nothing of it ran, so the browser holds the start page.
	Stale bool `json:"stale,omitempty"`
}

// Taint is the first call to a tool that could have written the evidence
// itself; Why says what the tool can do ("runs page script").
type Taint struct {
	Seq  int    `json:"seq"`
	Tool string `json:"tool"`
	Why  string `json:"why"`
}

// Clause names one clause of a contract.
type Clause struct {
	Path string        `json:"path"`
	Kind contract.Kind `json:"kind,omitempty"`
}

// String is the clause as views name it, "postconditions[0] (url)"; "" for
// none.
func (c *Clause) String() string {
	if c == nil {
		return ""
	}
	return contract.Verdict{FailedPath: c.Path, FailedKind: c.Kind}.FailedClause()
}

// facts are what an attempt's outcome is decided from.
type facts struct {
	// Verdict is the judge's; it decides only an agent that answered or
	// whose replay drifted once it had started.
	Verdict contract.Verdict
	Stop    Stop
	Taint   *Taint
	// Trust is TrustUnrestricted when the agent held raw access to the
	// browser, and Signals then what suggests it used it (TamperSignals).
	Trust   string
	Signals []string
	// WebMisses are the requests the replay web could not answer, and
	// WebFaults those it failed on purpose.
	WebMisses, WebFaults []string
}

// The sentences of Decide's reasons, by which reports of schema_version 1
// are read back too.
const (
	interruptedReason  = "interrupted: the run was stopped before the agent finished"
	timeoutReason      = "the task's timeout passed before the agent answered"
	staleReason        = "transcript not replayed: "
	taintedReason      = "a tainted result never counts as passed"
	unrestrictedReason = "the contract held, but the agent held raw CDP access to the browser, " +
		"so it could have written the evidence itself: an unrestricted result never counts as passed"
	tamperReason = "tamper signal: "
	faultReason  = "harness: the web failed on purpose (fault injection), so the attempt says nothing of the agent: "
)

// decideOutcome returns an attempt's outcome and its reason; it is the only place
// either is decided. An interrupted attempt says nothing, and a stop of the
// agent's own (error, budget, timeout) decides whatever the contract says.
// Otherwise the contract decides, but a replay that drifted is never
// passed, and a stale transcript is replay_drift whatever the judge saw. A
// taint makes any judged outcome tainted, and an unrestricted agent's pass
// is tainted too.
func decideOutcome(f facts) (Outcome, string) {
	var o Outcome
	var why string
	switch s := f.Stop; {
	case s.Kind == StopInterrupted:
		return OutcomeInterrupted, interruptedReason
	case len(f.WebFaults) > 0:
		return OutcomeError, faultReason + strings.Join(f.WebFaults, ", ")
	case s.Kind == StopError:
		o, why = OutcomeError, s.Error
	case s.Kind == StopBudget:
		o, why = OutcomeBudgetExceeded, s.Error
	case s.Kind == StopTimeout:
		o, why = OutcomeTimeout, timeoutReason
	case s.Kind == StopDrift && s.Stale:
		o, why = OutcomeReplayDrift, staleReason+s.Error
	case s.Kind == StopDrift && !f.Verdict.Passed:
		o, why = OutcomeFailed, "contract failed; replay also drifted: "+s.Error
	case s.Kind == StopDrift:
		o, why = OutcomeReplayDrift, s.Error
	case f.Verdict.Passed:
		o = OutcomePassed
	default:
		o, why = OutcomeFailed, f.Verdict.Why()
	}
	if o != OutcomePassed && len(f.WebMisses) > 0 {
		why = joinReasons(why, "replay misses: "+strings.Join(f.WebMisses, ", "))
	}
	if t := f.Taint; t != nil && o != OutcomeError {
		o, why = OutcomeTainted, joinReasons(why, fmt.Sprintf("call %d used %s, which %s: %s", t.Seq, t.Tool, t.Why, taintedReason))
	}
	if f.Trust != "" && o == OutcomePassed {
		o, why = OutcomeTainted, unrestrictedReason
	}
	for _, sig := range f.Signals {
		why = joinReasons(why, tamperReason+sig)
	}
	return o, why
}

// decideOutcome sets the result's outcome and reason from what it records. A
// stale transcript's verdict is cleared first: nothing of the transcript
// ran, so the judge saw the start page, not the agent's work.
func (r *TaskResult) Decide() {
	if r.Stop.Kind == StopDrift && r.Stop.Stale {
		r.ClearVerdict()
	}
	f := facts{Verdict: r.Verdict(), Stop: r.Stop, Taint: r.Taint, Trust: r.Trust, WebMisses: r.WebMisses, WebFaults: r.WebFaults}
	if r.Trust != "" {
		f.Signals = TamperSignals(r.Observation)
	}
	r.Outcome, r.Reason = decideOutcome(f)
}

// SetVerdict records the judge's verdict: its evidence and, when it
// failed, the clause that decided it.
func (r *TaskResult) SetVerdict(v contract.Verdict) {
	r.Evidence, r.Unsettled, r.Undecided, r.Failed = v.Evidence, v.Unstable, v.Undecided, nil
	if !v.Passed {
		r.Failed = &Clause{Path: v.FailedPath, Kind: v.FailedKind}
	}
}

// ClearVerdict forgets the judge's verdict, all of it, for a result the
// judge's reading does not speak for.
func (r *TaskResult) ClearVerdict() { r.SetVerdict(contract.Verdict{Passed: true}) }

// Verdict is the judge's verdict as the result records it. Without
// evidence it did not pass: a contract that held has a leaf that did.
func (r *TaskResult) Verdict() contract.Verdict {
	v := contract.Verdict{Passed: r.Failed == nil && len(r.Evidence) > 0, Evidence: r.Evidence, Undecided: r.Undecided, Unstable: r.Unsettled}
	if r.Failed != nil {
		v.FailedPath, v.FailedKind = r.Failed.Path, r.Failed.Kind
	}
	return v
}

// Drift is the replay drift that stopped the agent; "" when none did.
func (r *TaskResult) Drift() string {
	if r.Stop.Kind != StopDrift {
		return ""
	}
	return r.Stop.Error
}
