package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// A run's row gives its score with the interval, its gate and its three
// reports, the Markdown one on the first line; under one header, several
// rows make one table.
func TestRunTable(t *testing.T) {
	t.Parallel()
	run := &Run{Results: []TaskResult{
		{Task: "a", Outcome: OutcomePassed},
		{Task: "b", Outcome: OutcomePassed},
		{Task: "c", Outcome: OutcomeFailed},
	}}
	paths := Paths{Markdown: "s/reports/x.md", JSON: "s/reports/x.json", HTML: "s/reports/x.html"}
	gated := NewRunRow("benchmarks/one", run, Verdicts{GateFailed: true}, true, paths)
	ungated := NewRunRow("benchmarks/two", run, Verdicts{}, false, paths)
	if want := "2 / 3 (66.7%) [20.8–93.9%]"; gated.score != want {
		t.Errorf("score %q, want %q", gated.score, want)
	}
	if gated.gate != "FAILED" || ungated.gate != "not gated" {
		t.Errorf("gates %q and %q, want FAILED and not gated", gated.gate, ungated.gate)
	}
	var out bytes.Buffer
	if err := WriteRunTable(&out, true, gated, ungated); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "suite ") || strings.Count(out.String(), "score [95% Wilson interval]") != 1 {
		t.Fatalf("want a header and three lines per run, got:\n%s", out.String())
	}
	for i, want := range []string{"benchmarks/one", "s/reports/x.json", "s/reports/x.html", "benchmarks/two"} {
		if line := lines[i+1]; !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	if !strings.Contains(lines[1], "s/reports/x.md") || !strings.Contains(lines[1], "FAILED") {
		t.Errorf("the first row %q lacks its gate or Markdown report", lines[1])
	}
	if column(lines[1], "s/reports/x.md") != column(lines[2], "s/reports/x.json") {
		t.Errorf("the reports are not in one column:\n%s", out.String())
	}

	// Rows appended to a table begun have no header of their own.
	out.Reset()
	if err := WriteRunTable(&out, false, ungated); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != ungated.String() || strings.Contains(got, "suite ") {
		t.Errorf("a row without the header is %q, want %q", got, ungated.String())
	}
}

// column is where sub begins in line, in characters.
func column(line, sub string) int {
	return utf8.RuneCountInString(line[:strings.Index(line, sub)])
}

// A labelled run has no score, only how often its contract held; an
// incomplete one says so; a report not written leaves its place empty.
func TestRunRowWithoutScore(t *testing.T) {
	t.Parallel()
	run := &Run{Incomplete: true, Settings: Settings{Trust: TrustUnrestricted}, Results: []TaskResult{
		{Task: "a", Outcome: OutcomeFailed, Trust: TrustUnrestricted},
	}}
	row := NewRunRow("s", run, Verdicts{}, false, Paths{})
	if !strings.HasPrefix(row.score, "no score: contract held 0 / 1") || !strings.HasSuffix(row.score, " incomplete") {
		t.Errorf("score %q, want no score and incomplete", row.score)
	}
	if !strings.HasSuffix(row.String(), "  (not written)\n") || strings.Count(row.String(), "\n") != 1 {
		t.Errorf("a row with no reports is %q, want one line ending (not written)", row.String())
	}
}
