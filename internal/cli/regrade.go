package cli

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/inputs"
	"contractbench/internal/judge"
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
	contracts := map[string]contract.Postconditions{}
	for _, t := range s.Tasks {
		contracts[t.ID] = t.Postconditions
	}
	from := report.Regraded{From: path, FromGitSHA: old.GitSHA, At: st.Now().UTC().Truncate(1e9), SuiteGitSHA: inputs.Commit(s.Dir, st.Now())}
	run, changes := report.Regrade(old, from, report.Regrading{Contracts: contracts, Suite: s.Dir, Dir: filepath.Dir(path),
		Evaluate: func(pc contract.Postconditions, obs *contract.Observation) contract.Verdict {
			return judge.Evaluate(pc, obs, classes)
		}})
	for _, c := range changes {
		fmt.Fprintln(st.Stdout, c)
	}
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
