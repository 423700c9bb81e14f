package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"contractbench/internal/report"
	"contractbench/internal/runner"
)

// execute runs plan with h, its progress on stderr (a live line on a
// terminal, plain lines otherwise) and stopped by the process's
// interrupts.
func execute(st *State, plan *runner.Plan, h runner.Hooks) *report.Run {
	h.Now = st.Now
	var ctx context.Context
	var stop func()
	if st.Interrupts != nil {
		ctx, h.Abort, stop = st.Interrupts()
	} else {
		ctx, stop = st.Context()
	}
	defer stop()
	p := runner.NewProgress(st.Stderr, plan.Pending(), st.IsTerminal)
	h.Progress = p.Event
	run := runner.Run(ctx, plan, h)
	p.Clear() // no event comes after Run returns
	if run.Incomplete && ctx.Err() != nil {
		fmt.Fprintln(st.Stderr, "interrupted: the report is marked incomplete")
	}
	return run
}

// writeReport writes the report files, named by report.BaseName, and
// returns their paths; with printMarkdown it prints the Markdown report
// first. A report that does not reach dir (a folder full, removed or made
// read-only at the end) loses nothing: the Markdown is printed, and the
// files go to a new temporary folder, named on stderr.
func writeReport(st *State, dir string, run *report.Run, printMarkdown bool) (report.Paths, error) {
	var md bytes.Buffer
	if err := report.WriteMarkdown(&md, run); err != nil {
		return report.Paths{}, err
	}
	if printMarkdown {
		st.Stdout.Write(md.Bytes())
	}
	base := report.BaseName(run)
	paths, err := report.WriteFiles(dir, base, run)
	if err == nil {
		return paths, nil
	}
	if !printMarkdown {
		st.Stdout.Write(md.Bytes())
	}
	werr := fmt.Errorf("write report to %s: %w", dir, err)
	rescue, terr := os.MkdirTemp("", "contractbench-report-")
	if terr != nil {
		return report.Paths{}, werr
	}
	if paths, err = report.WriteFiles(rescue, base, run); err != nil {
		os.Remove(rescue)
		return report.Paths{}, werr
	}
	fmt.Fprintf(st.Stderr, "contractbench: the report could not be written to %s; it was written to %s instead\n", dir, rescue)
	fmt.Fprintf(st.Stdout, "\nreport: %s, %s, %s, %s\n", paths.Markdown, paths.JSON, paths.HTML, paths.JUnit)
	return paths, werr
}

// verdictOf prints the verdict lines of run (report.WriteVerdicts), with
// the gate of opts.Baseline when it is not nil, and returns the command's
// error: nil only when everything passed.
func verdictOf(st *State, run *report.Run, opts report.VerdictOptions) error {
	// A failed write to stdout does not change what the run decided.
	v, _ := report.WriteVerdicts(st.Stdout, run, opts)
	return verdictErr(run, v)
}

// verdictErr is the command's error for run, whose verdicts were v: nil
// only when everything passed.
func verdictErr(run *report.Run, v report.Verdicts) error {
	switch {
	case v.GateFailed:
		return failed("gate failed")
	case run.Incomplete:
		return interrupted() // execute said so
	case v.Errors > 0:
		return fmt.Errorf("%d task(s) ended in a harness error", v.Errors)
	case v.NotPassed > 0:
		return failed("")
	}
	return nil
}
