package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// RunRow is one run's row of the table a run prints at its end: the
// suite, its score with the 95% Wilson interval, the gate's verdict and
// the report files.
type RunRow struct {
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

// NewRunRow is the row of run, a run of the suite at dir, whose verdicts
// were v (the gate's among them when gated), written to paths.
func NewRunRow(dir string, run *Run, v Verdicts, gated bool, paths Paths) RunRow {
	s := Summarize(run)
	row := RunRow{suite: dir, gate: "not gated"}
	if s.Held != nil {
		// A labelled run has no score (Held).
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

// runTableHeader heads the table of RunRows.
func runTableHeader() string {
	return fmt.Sprintf("%-*s  %-*s  %-*s  %s\n", suiteWidth, "suite", scoreWidth, "score [95% Wilson interval]", gateWidth, "gate", "report (Markdown, JSON, HTML)")
}

// String is the row as lines of the table: the first with the suite,
// score, gate and Markdown report, then one line for each other file.
func (r RunRow) String() string {
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

// WriteRunTable writes rows on w in one write, under the table's header
// when header is set: a table of their own, or rows appended to a table
// already begun (one file gathering the rows of several runs, as make
// bench's three suites end with one table of all of them).
func WriteRunTable(w io.Writer, header bool, rows ...RunRow) error {
	var b strings.Builder
	if header {
		b.WriteString(runTableHeader())
	}
	for _, r := range rows {
		b.WriteString(r.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}
