package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"contractbench/internal/report"
)

// runRow is one run's row of the table run prints at its end: the suite,
// its score with the 95% Wilson interval, the gate's verdict and the
// report files.
type runRow struct {
	suite string
	score string
	gate  string
	files []string // Markdown, JSON, HTML
}

// Widths of the table's first three columns; a longer value widens its
// own row only, the paths still last.
const (
	suiteWidth = 24
	scoreWidth = 36
	gateWidth  = 10
)

// newRunRow is the row of run, a run of the suite at dir, whose verdicts
// were v (the gate's among them when gated).
func newRunRow(dir string, run *report.Run, v report.Verdicts, gated bool, paths report.Paths) runRow {
	s := report.Summarize(run)
	row := runRow{suite: dir, gate: "not gated"}
	if s.Held != nil {
		// A labelled run has no score (report.Held).
		row.score = fmt.Sprintf("no score: contract held %d / %d", s.Held.Held, s.Held.Judged)
	} else {
		row.score = fmt.Sprintf("%d / %d (%.1f%%) [%.1f–%.1f%%]", s.Passed, s.Total, 100*s.Score, 100*s.Wilson95Low, 100*s.Wilson95High)
	}
	if run.Incomplete {
		row.score += " incomplete"
	}
	if gated {
		row.gate = "passed"
		if v.GateFailed {
			row.gate = "FAILED"
		}
	}
	row.files = slices.DeleteFunc([]string{paths.Markdown, paths.JSON, paths.HTML}, func(p string) bool { return p == "" })
	return row
}

// runTableHeader heads the table of runRows.
func runTableHeader() string {
	return fmt.Sprintf("%-*s  %-*s  %-*s  %s\n", suiteWidth, "suite", scoreWidth, "score [95% Wilson interval]", gateWidth, "gate", "report (Markdown, JSON, HTML)")
}

// String is the row as lines of the table: the first with the suite,
// score, gate and Markdown report, then one line for each other file.
func (r runRow) String() string {
	var b strings.Builder
	first := "(not written)"
	if len(r.files) > 0 {
		first = r.files[0]
	}
	fmt.Fprintf(&b, "%-*s  %-*s  %-*s  %s\n", suiteWidth, r.suite, scoreWidth, r.score, gateWidth, r.gate, first)
	for _, f := range r.files[min(1, len(r.files)):] {
		fmt.Fprintf(&b, "%*s%s\n", suiteWidth+scoreWidth+gateWidth+6, "", f)
	}
	return b.String()
}

// writeRunTable prints row as a table of its own on w, and with a summary
// file appends it to that file's table (the header first when the file
// is new or empty), so that several runs (make bench's three suites) end
// with one table of all of them.
func writeRunTable(w io.Writer, row runRow, summaryFile string) error {
	fmt.Fprint(w, "\n"+runTableHeader()+row.String())
	if summaryFile == "" {
		return nil
	}
	f, err := os.OpenFile(summaryFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--summary: %w", err)
	}
	text := row.String()
	if info, err := f.Stat(); err == nil && info.Size() == 0 {
		text = runTableHeader() + text
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("--summary: %s: %w", summaryFile, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--summary: %s: %w", summaryFile, err)
	}
	return nil
}

// checkSummaryFile makes sure, before the first task, that the run's row
// can be appended to path ("" for no summary file).
func checkSummaryFile(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return usagef("--summary: %v", err)
	}
	return f.Close()
}
