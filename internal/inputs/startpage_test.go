package inputs

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// writeTask writes a task of id, with a contract and a reference, into
// the tasks/ folder of the suite at dir, and returns its file.
func writeTask(t *testing.T, dir, id string) string {
	t.Helper()
	task := "id: " + id + `
instruction: Open example.com and tell me what the page's main heading says.
timeout: 60s
start_url: https://example.com/
postconditions:
  - kind: dom_text
    selector: h1
    contains: Example
reference:
  - tool: read_page
    args: {mode: text}
rationale: A task being written.
`
	file := filepath.Join(dir, "tasks", id+".yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(task), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// A suite folder's new tasks are those without a transcript on the
// built-in server; a task file named alone is new whatever is recorded;
// anything else (a missing path, a file outside a tasks/ folder) has none.
func TestNewTasks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTask(t, dir, "recorded")
	fresh := writeTask(t, dir, "fresh")
	tr := filepath.Join(dir, "transcripts", "builtin", "recorded.jsonl")
	if err := os.MkdirAll(filepath.Dir(tr), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tr, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "notes.yaml")
	if err := os.WriteFile(other, []byte("id: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recorded := filepath.Join(dir, "tasks", "recorded.yaml")
	for _, c := range []struct {
		name  string
		paths []string
		want  map[string][]string
	}{
		{"suite folder", []string{dir}, map[string][]string{dir: {"fresh"}}},
		{"task file", []string{recorded}, map[string][]string{dir: {"recorded"}}},
		{"both, each task once", []string{dir, fresh, recorded}, map[string][]string{dir: {"fresh", "recorded"}}},
		{"neither", []string{filepath.Join(dir, "missing"), other}, map[string][]string{}},
	} {
		if got := NewTasks(c.paths); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: NewTasks(%q) = %v, want %v", c.name, c.paths, got, c.want)
		}
	}
}

// A task whose contract held for the do-nothing agent is a problem of its
// file naming each clause and what the judge saw; one that failed is
// none, and one that could not be played, or a suite that could not, is
// said on the writer and is no problem.
func TestCheckStartPages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeTask(t, dir, "held")
	s, err := suite.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := &report.Run{Results: []report.TaskResult{
		{Task: "held", Outcome: report.OutcomePassed, Evidence: []contract.Evidence{
			{Path: "postconditions[0]", Kind: "dom_text", Passed: true, Expected: `visible text of h1 contains "Example"`, Seen: "h1: 1 match"}}},
		{Task: "failed", Outcome: report.OutcomeFailed},
		{Task: "broken", Outcome: report.OutcomeError, Reason: "the browser died"},
	}}
	var played [][]string
	play := func(d string, ids []string) (*report.Run, *suite.Suite, error) {
		played = append(played, append([]string{d}, ids...))
		if d == "unplayable" {
			return nil, nil, errors.New("no browser")
		}
		return run, s, nil
	}
	var w strings.Builder
	problems := CheckStartPages(&w, map[string][]string{dir: {"held", "failed", "broken"}, "unplayable": {"x"}}, play)

	if want := [][]string{{dir, "held", "failed", "broken"}, {"unplayable", "x"}}; !reflect.DeepEqual(played, want) {
		t.Errorf("played %q, want each suite folder once, in order: %q", played, want)
	}
	if len(problems) != 1 {
		t.Fatalf("problems: %v, want the one task whose contract held", problems)
	}
	want := file + `: postconditions: the contract already holds on the start page, before any tool call, so an agent that does nothing passes (run --agent noop): ` +
		`postconditions[0] (dom_text): visible text of h1 contains "Example"; saw h1: 1 match; add a clause that only the task's end state meets`
	if got := problems[0].String(); got != want {
		t.Errorf("problem:\n got %s\nwant %s", got, want)
	}
	said := "playing a do-nothing agent in a browser on the start page of 3 task(s) of " + dir + " without a transcript...\n" +
		"broken: start page not checked: the browser died\n" +
		"playing a do-nothing agent in a browser on the start page of 1 task(s) of unplayable without a transcript...\n" +
		"start pages not checked: no browser\n"
	if w.String() != said {
		t.Errorf("said:\n%s\nwant:\n%s", w.String(), said)
	}
}
