package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/report"
)

// Each run prints its row under the table's header; with a summary
// file, several runs' rows gather under one header there.
func TestRunTable(t *testing.T) {
	t.Parallel()
	run := &report.Run{Results: []report.TaskResult{
		{Task: "a", Outcome: report.OutcomePassed},
		{Task: "b", Outcome: report.OutcomePassed},
		{Task: "c", Outcome: report.OutcomeFailed},
	}}
	paths := report.Paths{Markdown: "s/reports/x.md", JSON: "s/reports/x.json", HTML: "s/reports/x.html"}
	gated := report.NewRunRow("benchmarks/one", run, report.Verdicts{GateFailed: true}, true, paths)
	ungated := report.NewRunRow("benchmarks/two", run, report.Verdicts{}, false, paths)
	file := filepath.Join(t.TempDir(), "summary.txt")
	var out bytes.Buffer
	for _, row := range []report.RunRow{gated, ungated} {
		if err := writeRunTable(&out, row, file); err != nil {
			t.Fatal(err)
		}
	}
	table, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := report.WriteRunTable(&want, true, gated, ungated); err != nil {
		t.Fatal(err)
	}
	if string(table) != want.String() {
		t.Errorf("the summary file is\n%s\nwant both rows under one header:\n%s", table, want.String())
	}
	// Each run prints its own row under the header too, after a blank line.
	if strings.Count(out.String(), "score [95% Wilson interval]") != 2 || !strings.HasPrefix(out.String(), "\nsuite ") {
		t.Errorf("each run should print its table:\n%s", out.String())
	}
}

// run writes the whole Markdown report to its file and prints it only
// with --markdown; it ends with the table naming the reports it wrote.
func TestRunPrintsTheTableNotTheReport(t *testing.T) {
	t.Parallel()
	for _, markdown := range []bool{false, true} {
		out := t.TempDir()
		args := []string{"run", "--suite", suiteDir, "--task", task01, "--gate", "--out", out, "--trace", "off"}
		if markdown {
			args = append(args, "--markdown")
		}
		r := runE2E(t, nil, args...)
		if r.code != exitOK {
			t.Fatalf("run: %v", r)
		}
		if got := strings.Contains(r.stdout, "contract-eval score"); got != markdown {
			t.Errorf("--markdown=%v: the Markdown report printed: %v\n%v", markdown, got, r)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) < 4 || !strings.HasPrefix(lines[len(lines)-4], "suite ") {
			t.Fatalf("stdout does not end with the table:\n%s", r.stdout)
		}
		row := strings.Fields(lines[len(lines)-3])
		if row[0] != suiteDir || !strings.Contains(lines[len(lines)-3], "1 / 1 (100.0%) [20.7–100.0%]") || row[len(row)-2] != "passed" {
			t.Errorf("the table's row %q lacks the suite, score or gate", lines[len(lines)-3])
		}
		files := []string{row[len(row)-1], strings.TrimSpace(lines[len(lines)-2]), strings.TrimSpace(lines[len(lines)-1])}
		for i, ext := range []string{".md", ".json", ".html"} {
			if filepath.Dir(files[i]) != out || filepath.Ext(files[i]) != ext {
				t.Errorf("report %d is %q, want a %s file in %s", i, files[i], ext, out)
			}
			if _, err := os.Stat(files[i]); err != nil {
				t.Errorf("the table names %s: %v", files[i], err)
			}
		}
	}
}
