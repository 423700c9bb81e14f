package cli

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/inputs"
	"contractbench/internal/judge"
	"contractbench/internal/phash"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

const regradeHelp = `
Re-grades a run offline: every result's stored Observation (the final state
the judge captured) is evaluated with contract.Evaluate against the task's
contract as the suite has it now. No browser, no agent, no network: for a
contract fixed after a run. What the agent did (its calls, answer, stops,
replay drift, cost) is the original run's; only the verdicts are new.

Writes the new report to <out>/<name>-regraded.{md,json} and junit.xml
(default out: a regraded/ folder beside REPORT.json), saying it was
regraded and from what, and prints each changed outcome. A warning names
every place a verdict may differ from a new run's: a contract naming a
selector, a dom_text string over texts the judge cut, or a screenshot
class the stored Observation has no answer for, since the judge captured
only what the old contract asked; a task no longer in the suite; a result
without an Observation (an error before the judge ran).

Exit codes: 0 every result passed; 1 one did not; 2 bad usage or input.
`

func runRegrade(st *State, args []string) error {
	fs := newFlags(st, "contractbench regrade [--suite DIR] [--out DIR] REPORT.json", regradeHelp)
	suiteDir := fs.String("suite", "", "suite whose contracts grade the run (default: the one the report names)")
	out := fs.String("out", "", "folder for the new report (default: regraded/ beside REPORT.json)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("regrade: want one REPORT.json (run contractbench regrade --help)")
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		return usagef("regrade: %v", err)
	}
	old, err := report.ReadJSON(f)
	f.Close()
	if err != nil {
		return usagef("regrade: %s: %v", path, err)
	}
	dir := cmp.Or(*suiteDir, old.Settings.Suite, defaultSuite)
	s, err := suite.Load(dir)
	if err != nil {
		return asUsage(err)
	}
	classes, err := inputs.LoadClasses(s.ClassesDir())
	if err != nil {
		return asUsage(err)
	}
	run := regraded(st, path, old, s, classes)
	for _, w := range run.Regraded.Warnings {
		fmt.Fprintf(st.Stderr, "regrade: warning: %s\n", w)
	}
	outDir := cmp.Or(*out, filepath.Join(filepath.Dir(path), "regraded"))
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-regraded"
	paths, err := report.WriteFiles(outDir, base, run)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	fmt.Fprintf(st.Stdout, "regraded %d result(s) from %s; %d outcome(s) changed\nreport: %s, %s, %s\n",
		len(run.Results), path, run.Regraded.Changed, paths.Markdown, paths.JSON, paths.JUnit)
	// The stored report is all there is of the run: its settings say how
	// to record a drifted transcript again.
	hint := func(task string) string { return inputs.RecordHint(run.Settings.Suite, run.Settings.Server, "", task) }
	err = verdictOf(st, run, report.VerdictOptions{RecordHint: hint})
	var f1 *failedError
	if err != nil && !errors.As(err, &f1) {
		// A stored harness error is the old run's, not this command's.
		return failed("")
	}
	return err
}

// regraded returns the run of the report at path, old, re-graded against
// the contracts of suite s, saying so and from what; it prints each
// changed outcome on stdout.
func regraded(st *State, path string, old *report.Run, s *suite.Suite, classes phash.Classes) *report.Run {
	run := *old
	run.Results = slices.Clone(old.Results)
	reg := &report.Regraded{From: path, FromGitSHA: old.GitSHA, At: st.Now().UTC().Truncate(1e9), SuiteGitSHA: gitSHA(st, s.Dir)}
	run.Regraded = reg
	for i := range run.Results {
		res := &run.Results[i]
		name := res.Task
		if old.Settings.Repeat > 1 {
			name = fmt.Sprintf("%s#%d", res.Task, res.Attempt)
		}
		t, ok := s.Task(res.Task)
		switch {
		case !ok:
			reg.Warnings = append(reg.Warnings, fmt.Sprintf("%s: not in the suite at %s; kept as it was", name, s.Dir))
			continue
		case res.Observation == nil:
			reg.Warnings = append(reg.Warnings, fmt.Sprintf("%s: %s with no stored Observation; kept as it was", name, res.Outcome))
			continue
		}
		before := res.Outcome
		reg.Warnings = append(reg.Warnings, regrade(res, name, t, classes, filepath.Dir(path))...)
		if res.Outcome != before {
			reg.Changed++
			fmt.Fprintf(st.Stdout, "%s: %s -> %s\n", name, before, res.Outcome)
		}
	}
	return &run
}

// regrade gives res, named name, the verdict of t's contract on its
// stored Observation, with the screenshot stored beside the report in
// dir, and decides its outcome again with the stored stop, taint and
// trust, as the run decided. It returns where the verdict may differ
// from a new run's.
func regrade(res *report.TaskResult, name string, t *suite.Task, classes phash.Classes, dir string) []string {
	obs := *res.Observation
	res.Observation = &obs
	warnings := missingFromObservation(name, t.Postconditions, &obs)
	if file := obs.Screenshot.File; file != "" {
		// The screenshot moves along with the report; the verdict
		// reads only its stored hash.
		png, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			obs.Screenshot.File = ""
			warnings = append(warnings, fmt.Sprintf("%s: screenshot %s not found beside the report; the new report has none", name, file))
		} else {
			obs.Screenshot.PNG = png
		}
	}
	res.SetVerdict(judge.Evaluate(t.Postconditions, &obs, classes))
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
