package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/judge"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

var regradeCommand = command{
	name:    "regrade",
	summary: "re-grade a stored report against the suite's current contracts, offline",
	run:     runRegrade,
}

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
	dir := *suiteDir
	if dir == "" {
		dir = old.Settings.Suite
	}
	if dir == "" {
		dir = defaultSuite
	}
	s, err := suite.Load(dir)
	if err != nil {
		return asUsage(err)
	}
	classes, err := loadClasses(s.ClassesDir())
	if err != nil {
		return asUsage(err)
	}

	run := *old
	run.Results = slices.Clone(old.Results)
	reg := &report.Regraded{From: path, FromGitSHA: old.GitSHA, At: st.Now().UTC().Truncate(1e9), SuiteGitSHA: gitSHA(st, s.Dir)}
	run.Regraded = reg
	tasks := map[string]*suite.Task{}
	for _, t := range s.Tasks {
		tasks[t.ID] = t
	}
	for i := range run.Results {
		res := &run.Results[i]
		name := res.Task
		if old.Settings.Repeat > 1 {
			name = fmt.Sprintf("%s#%d", res.Task, res.Attempt)
		}
		t := tasks[res.Task]
		switch {
		case t == nil:
			reg.Warnings = append(reg.Warnings, fmt.Sprintf("%s: not in the suite at %s; kept as it was", name, s.Dir))
			continue
		case res.Observation == nil:
			reg.Warnings = append(reg.Warnings, fmt.Sprintf("%s: %s with no stored Observation; kept as it was", name, res.Outcome))
			continue
		}
		obs := *res.Observation
		res.Observation = &obs
		reg.Warnings = append(reg.Warnings, missingFromObservation(name, t.Postconditions, &obs)...)
		if file := obs.Screenshot.File; file != "" {
			// The screenshot moves along with the report; the verdict
			// reads only its stored hash.
			png, err := os.ReadFile(filepath.Join(filepath.Dir(path), file))
			if err != nil {
				obs.Screenshot.File = ""
				reg.Warnings = append(reg.Warnings, fmt.Sprintf("%s: screenshot %s not found beside the report; the new report has none", name, file))
			} else {
				obs.Screenshot.PNG = png
			}
		}
		before := res.Outcome
		regrade(res, judge.Evaluate(t.Postconditions, &obs, classes))
		if res.Outcome != before {
			reg.Changed++
			fmt.Fprintf(st.Stdout, "%s: %s -> %s\n", name, before, res.Outcome)
		}
	}
	for _, w := range reg.Warnings {
		fmt.Fprintf(st.Stderr, "regrade: warning: %s\n", w)
	}

	outDir := *out
	if outDir == "" {
		outDir = filepath.Join(filepath.Dir(path), "regraded")
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-regraded"
	paths, err := report.WriteFiles(outDir, base, &run)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	fmt.Fprintf(st.Stdout, "regraded %d result(s) from %s; %d outcome(s) changed\nreport: %s, %s, %s\n",
		len(run.Results), path, reg.Changed, paths.Markdown, paths.JSON, paths.JUnit)
	err = verdictOf(st, &run, nil)
	var f1 *failedError
	if err != nil && !errors.As(err, &f1) {
		// A stored harness error is the old run's, not this command's.
		return failed("")
	}
	return err
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

// regrade sets res's verdict to v and its outcome to what the runner
// would have decided with v, from what the stored result says the agent
// did: a drift or a web miss keeps its part of the reason; a stop of the
// agent's own (timeout, budget, error) and a tool-taint keep their
// outcome, since the contract never decided those.
func regrade(res *report.TaskResult, v contract.Verdict) {
	res.SetVerdict(v)
	contractDecided := res.Outcome == report.OutcomePassed || res.Outcome == report.OutcomeFailed ||
		res.Outcome == report.OutcomeReplayDrift ||
		(res.Outcome == report.OutcomeTainted && res.Trust != "" && !toolTainted(res))
	if !contractDecided {
		return
	}
	var missed string
	if len(res.WebMisses) > 0 {
		missed = "replay misses: " + strings.Join(res.WebMisses, ", ")
	}
	switch {
	case res.Drift != "" && v.Passed:
		res.Outcome, res.Reason = report.OutcomeReplayDrift, report.JoinReasons(res.Drift, missed)
	case res.Drift != "":
		res.Outcome, res.Reason = report.OutcomeFailed, report.JoinReasons("contract failed; replay also drifted: "+res.Drift, missed)
	case v.Passed:
		res.Outcome, res.Reason = report.OutcomePassed, ""
	default:
		res.Outcome, res.Reason = report.OutcomeFailed, report.JoinReasons(v.Why(), missed)
	}
	if res.Trust != "" {
		report.Unrestricted(res)
	}
}

// toolTainted reports whether res was tainted by an unsafe tool call,
// which no contract undoes.
func toolTainted(res *report.TaskResult) bool {
	return strings.Contains(res.Reason, "a tainted result never counts as passed")
}
