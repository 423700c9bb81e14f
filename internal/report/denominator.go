package report

import (
	"fmt"
	"slices"
	"strings"

	"contractbench/internal/contract"
)

// Denominator is every attempt the run was asked for, by what became of
// it, so that no score hides what it left out.
type Denominator struct {
	Passed int `json:"passed"`
	// Failed counts the judged attempts that did not pass for a reason of
	// the agent's: failed, replay_drift, budget_exceeded, timeout,
	// tainted.
	Failed int `json:"failed"`
	// HarnessError counts the attempts the harness broke (error): the
	// score counts them against the agent, diff and the board's tests
	// leave them out.
	HarnessError int `json:"harness_error"`
	// Interrupted counts the attempts stopped before the agent finished,
	// and NotRun those asked for that never started (an interrupted run,
	// a resume not finished, a spending cap reached).
	Interrupted int `json:"interrupted"`
	NotRun      int `json:"not_run"`
	// Counts says which of them the score's denominator counts.
	Counts string `json:"counts"`
}

// scoreCounts is what the score's denominator counts, the same words in
// every view.
const scoreCounts = "passed + failed + harness error; interrupted and not run are left out"

// denominator sorts the results of r, and the attempts it never ran.
func denominator(r *Run, notRun int) Denominator {
	d := Denominator{NotRun: notRun, Counts: scoreCounts}
	for _, res := range r.Results {
		switch o := res.Outcome; {
		case o.Passed():
			d.Passed++
		case o == OutcomeError:
			d.HarnessError++
		case !o.Judged():
			d.Interrupted++
		default:
			d.Failed++
		}
	}
	return d
}

// Asked is every attempt the run was asked for.
func (d Denominator) Asked() int {
	return d.Passed + d.Failed + d.HarnessError + d.Interrupted + d.NotRun
}

// String is the split as every view gives it: "passed 3, failed 1,
// harness error 0, interrupted 0, not run 2 (of 6 asked)".
func (d Denominator) String() string {
	return fmt.Sprintf("passed %d, failed %d, harness error %d, interrupted %d, not run %d (of %d asked)",
		d.Passed, d.Failed, d.HarnessError, d.Interrupted, d.NotRun, d.Asked())
}

// impossibleTag marks a task that cannot be done (the generator's kind
// impossible): the right outcome is to write nothing and end on the page
// that shows why, which its contract checks.
const impossibleTag = "kind:impossible"

// CannotBeDone puts beside the score what a score alone hides: whether the
// agent declines what cannot be done, and whether it does anything at all
// where something must be done. Counts are of judged attempts.
type CannotBeDone struct {
	// Impossible counts the attempts at tasks that cannot be done
	// (impossibleTag); Handled those that passed (nothing written, and
	// the page that shows why open), and ImpossibleUnwritten those whose
	// final state shows no write request, reason shown or not.
	Impossible          int `json:"impossible"`
	Handled             int `json:"handled"`
	ImpossibleUnwritten int `json:"impossible_wrote_nothing"`
	// Write counts the attempts at doable tasks whose contract requires a
	// write (TaskResult.RequiresWrite), and WroteNothing those whose
	// final state shows no write request at all.
	Write        int `json:"write"`
	WroteNothing int `json:"wrote_nothing"`
}

// cannotBeDone counts r's judged attempts at tasks that cannot be done and
// at doable write tasks; nil when it has none of either.
func cannotBeDone(r *Run) *CannotBeDone {
	c := &CannotBeDone{}
	for i := range r.Results {
		res := &r.Results[i]
		if !res.Outcome.Judged() {
			continue
		}
		unwritten := wroteNothing(res.Observation)
		switch {
		case hasTag(res.Tags, impossibleTag):
			c.Impossible++
			if res.Outcome.Passed() {
				c.Handled++
			}
			if unwritten {
				c.ImpossibleUnwritten++
			}
		case res.RequiresWrite:
			c.Write++
			if unwritten {
				c.WroteNothing++
			}
		}
	}
	if c.Impossible == 0 && c.Write == 0 {
		return nil
	}
	return c
}

// wroteNothing reports whether a final state shows that the agent sent no
// write request: none with a write method started once its first tool
// call had, other than one fetched ahead of need. Without an Observation
// nothing is known, and it reports false.
func wroteNothing(obs *contract.Observation) bool {
	return obs != nil && !slices.ContainsFunc(obs.Network, func(n contract.NetworkEntry) bool {
		return contract.IsWrite(n.Method) && !n.BeforeFirstToolCall && !n.Speculative
	})
}

// Lines are the two sentences every view gives.
func (c *CannotBeDone) Lines() []string {
	var out []string
	if c.Impossible > 0 {
		out = append(out, fmt.Sprintf("cannot be done: handled %d / %d (%s): nothing written and the reason shown; %d wrote nothing at all",
			c.Handled, c.Impossible, Percent(ratio(c.Handled, c.Impossible)), c.ImpossibleUnwritten))
	}
	if c.Write > 0 {
		out = append(out, fmt.Sprintf("doable write tasks with nothing written: %d / %d (%s)",
			c.WroteNothing, c.Write, Percent(ratio(c.WroteNothing, c.Write))))
	}
	return out
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func hasTag(tags []string, tag string) bool {
	return slices.ContainsFunc(tags, func(t string) bool { return strings.EqualFold(t, tag) })
}
