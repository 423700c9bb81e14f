package report

import (
	"fmt"
	"io"
	"slices"

	"contractbench/internal/contract"
)

// VerdictOptions are what WriteVerdicts needs besides the run.
type VerdictOptions struct {
	// Baseline, when not nil, is the gate the run is checked against.
	// On a run of a selection (not every task) it covers the selected
	// tasks of the baseline only, and the gate line says so.
	Baseline *Baseline
	// RecordHint returns the command that records task's transcript
	// again, named on a result that drifted from its transcript. Without
	// it the line names none.
	RecordHint func(task string) string
}

// Verdicts is what WriteVerdicts found, for the caller's exit status.
type Verdicts struct {
	// NotPassed counts the results that did not pass; Errors those of
	// them that ended in a harness error.
	NotPassed, Errors int
	// GateFailed reports that the run failed the baseline gate.
	GateFailed bool
}

// WriteVerdicts writes the verdicts of r as a command prints them after a
// run: one line per result with its outcome, failing clause, trust and
// cost; below a result that did not pass, the failing clauses' evidence
// (as contract.Evaluate decided it) and the reason; for a run with a
// trust label, how often the contract held (Held), which is never a pass;
// then the estimated cost in total and, with a baseline, the gate.
func WriteVerdicts(w io.Writer, r *Run, opts VerdictOptions) (Verdicts, error) {
	p := &printer{w: w}
	var v Verdicts
	var usd float64
	for _, res := range r.Results {
		usd += res.USD
		writeVerdictLine(p, r, &res, opts.RecordHint)
		if !res.Outcome.Passed() {
			v.NotPassed++
			if res.Failed != nil {
				p.printf("  judged by contract.Evaluate on the browser's final state:\n")
				for _, e := range res.Evidence {
					if !e.Passed {
						p.printf("  %s (%s): expected %s; saw %s\n", e.Path, e.Kind, e.Expected, e.Seen)
					}
				}
			}
			if res.Reason != "" {
				p.printf("  reason: %s\n", res.Reason)
			}
		}
		if res.Outcome == OutcomeError {
			v.Errors++
		}
	}
	if h := Summarize(r).Held; h != nil {
		p.printf("%s\n", h)
	}
	if usd > 0 {
		p.printf("estimated cost: %s in total\n", formatUSD(usd))
	}
	if opts.Baseline != nil {
		v.GateFailed = !writeGate(p, r, opts.Baseline)
	}
	return v, p.err
}

// writeVerdictLine writes the line of one result.
func writeVerdictLine(p *printer, r *Run, res *TaskResult, recordHint func(string) string) {
	line := fmt.Sprintf("%s: %s", res.Task, res.Outcome)
	if r.Settings.Repeat > 1 {
		line = fmt.Sprintf("%s#%d: %s", res.Task, res.Attempt, res.Outcome)
	}
	if res.Failed != nil {
		line += " | failed_postcondition: " + res.Failed.String()
	}
	if res.Trust != "" {
		line += " | trust: " + res.Trust
	}
	if res.Outcome == OutcomeReplayDrift && res.Drift() != "" && recordHint != nil {
		// The drift says why; the fix is always to record again.
		line += " | the transcript no longer matches; re-record with: " + recordHint(res.Task)
	}
	if res.USD > 0 {
		line += " | cost " + formatUSD(res.USD)
	}
	p.printf("%s\n", line)
}

// writeGate writes the gate's verdict on r and reports whether it passed.
// A gate on a selection covers the selected tasks of the baseline and
// says so; the others were not asked for.
func writeGate(p *printer, r *Run, b *Baseline) bool {
	scope := ""
	if !r.Settings.AllTasks {
		sel := slices.DeleteFunc(slices.Clone(b.Tasks), func(t string) bool { return !slices.Contains(r.Settings.Tasks, t) })
		scope = fmt.Sprintf(", the %d of the baseline's %d that were selected", len(sel), len(b.Tasks))
		b = &Baseline{ExpectedPassCount: len(sel), Tasks: sel}
	}
	failures := gateFailures(b, r)
	if len(failures) == 0 {
		p.printf("gate: passed (%d / %d%s)\n", b.ExpectedPassCount, len(b.Tasks), scope)
		return true
	}
	// A task repeated fails once per failed attempt; the line counts tasks.
	failed := map[string]bool{}
	for _, f := range failures {
		if f.Task != "" { // the rest are about the run as a whole
			failed[f.Task] = true
		}
	}
	p.printf("gate: FAILED (%d of %d covered tasks%s)\n", len(failed), len(b.Tasks), scope)
	for _, f := range failures {
		p.printf("  %s\n", f)
	}
	return false
}

// formatUSD formats dollars as the verdicts give them: four decimals,
// since one task can cost a fraction of a cent.
func formatUSD(v float64) string { return fmt.Sprintf("$%.4f", v) }

// WriteUnrestrictedVerdict writes the verdict v of task's contract on
// obs, the final state of a browser the agent held itself (contractbench
// judge): the final URL, the trust label, every tamper signal, every
// clause's evidence, and a last line that says the contract failed or
// held, never that the task passed (TrustUnrestricted).
func WriteUnrestrictedVerdict(w io.Writer, task string, v contract.Verdict, obs *contract.Observation) error {
	p := &printer{w: w}
	p.printf("%s: final URL %s\n", task, obs.URL)
	p.printf("trust: %s: %s\n", TrustUnrestricted, UnrestrictedNote)
	for _, sig := range TamperSignals(obs) {
		p.printf("tamper signal: %s\n", sig)
	}
	for _, e := range v.Evidence {
		mark := "ok  "
		if !e.Passed {
			mark = "FAIL"
		}
		p.printf("  %s %s (%s): expected %s; saw %s\n", mark, e.Path, e.Kind, e.Expected, e.Seen)
	}
	if !v.Passed {
		p.printf("%s: failed | failed_postcondition: %s | trust: %s\n", task, v.FailedClause(), TrustUnrestricted)
	} else {
		p.printf("%s: contract held, not passed | trust: %s\n", task, TrustUnrestricted)
	}
	return p.err
}
