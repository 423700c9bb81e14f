package report

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"contractbench/internal/contract"
)

// Regrading is what Regrade grades a stored run with: the contracts as
// they are now, and the judge's rule for reaching a verdict on a stored
// Observation.
type Regrading struct {
	// Contracts are the tasks' contracts by task id, those of the suite
	// at Suite, which the warning for a task not among them names.
	Contracts map[string]contract.Postconditions
	Suite     string
	// Evaluate gives a contract's verdict on an Observation: the judge's
	// own rule (judge.Evaluate with the suite's screenshot classes), so
	// that a stored Observation is graded as a live one is.
	Evaluate func(contract.Postconditions, *contract.Observation) contract.Verdict
	// Dir is the folder of the stored report, where the screenshots its
	// Observations name are.
	Dir string
}

// Regrade returns run graded again offline: every result with a stored
// Observation gets the verdict of its task's contract in how on it, and
// its outcome decided again (Decide) from the stored stop, taint and
// trust, as the run decided it. What the agent did is run's; run itself
// is left as it was. The new run's Regraded is from, with the number of
// changed outcomes and a warning for every place its verdict may differ
// from a new run's (Regraded.Warnings). It also returns each changed
// outcome as a line "task: before -> after" (task#attempt when the run
// repeated its tasks).
func Regrade(run *Run, from Regraded, how Regrading) (*Run, []string) {
	out := *run
	out.Results = slices.Clone(run.Results)
	reg := &from
	out.Regraded = reg
	var changes []string
	for i := range out.Results {
		res := &out.Results[i]
		name := res.Task
		if run.Settings.Repeat > 1 {
			name = fmt.Sprintf("%s#%d", res.Task, res.Attempt)
		}
		pc, ok := how.Contracts[res.Task]
		switch {
		case !ok:
			reg.Warnings = append(reg.Warnings, fmt.Sprintf("%s: not in the suite at %s; kept as it was", name, how.Suite))
			continue
		case res.Observation == nil:
			reg.Warnings = append(reg.Warnings, fmt.Sprintf("%s: %s with no stored Observation; kept as it was", name, res.Outcome))
			continue
		}
		before := res.Outcome
		reg.Warnings = append(reg.Warnings, how.regrade(res, name, pc)...)
		if res.Outcome != before {
			reg.Changed++
			changes = append(changes, fmt.Sprintf("%s: %s -> %s", name, before, res.Outcome))
		}
	}
	return &out, changes
}

// regrade gives res, named name, the verdict of pc on its stored
// Observation, with the screenshot stored in how.Dir, and decides its
// outcome again. It returns where the verdict may differ from a new
// run's.
func (how Regrading) regrade(res *TaskResult, name string, pc contract.Postconditions) []string {
	obs := *res.Observation
	res.Observation = &obs
	warnings := missingFromObservation(name, pc, &obs)
	if file := obs.Screenshot.File; file != "" {
		// The screenshot moves along with the report; the verdict
		// reads only its stored hash.
		png, err := os.ReadFile(filepath.Join(how.Dir, file))
		if err != nil {
			obs.Screenshot.File = ""
			warnings = append(warnings, fmt.Sprintf("%s: screenshot %s not found beside the report; the new report has none", name, file))
		} else {
			obs.Screenshot.PNG = png
		}
	}
	res.SetVerdict(how.Evaluate(pc, &obs))
	res.Decide()
	return warnings
}

// missingFromObservation warns of every selector, string and screenshot
// the contract reads that the stored Observation has no answer for: the
// judge captured what the contract of its day asked, so a new selector
// or a new dom_text string over cut texts cannot be decided, and fails,
// where a new run might pass.
func missingFromObservation(name string, pc contract.Postconditions, obs *contract.Observation) []string {
	var out []string
	for _, q := range contract.Queries(pc) {
		el, ok := obs.Elements[q.Selector]
		if !ok {
			out = append(out, fmt.Sprintf("%s: the contract names selector %q, which the stored Observation lacks (undecided, so failed; a new run would capture it)", name, q.Selector))
			continue
		}
		for _, want := range q.Contains {
			if _, answered := el.Contains[want]; !answered && el.TextsCut {
				out = append(out, fmt.Sprintf("%s: the contract looks for %q in %q, which the stored Observation has no answer for and whose texts it cut (undecided, so failed)", name, want, q.Selector))
			}
		}
	}
	if len(contract.ClassIDs(pc)) > 0 && obs.Screenshot.PHash == "" {
		out = append(out, fmt.Sprintf("%s: the contract has a screenshot_class clause but the stored Observation has no screenshot hash", name))
	}
	return out
}
