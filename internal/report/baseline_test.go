package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

func TestLoadBaseline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "baseline.json")
	writeFile(t, path, `{
  "expected_pass_count": 2,
  "tasks": ["task-01-example-com-title", "task-02-mdn-fetch-syntax"],
  "note": "bootstrap: both replay transcripts pass"
}
`)
	got, err := LoadBaseline(path)
	if err != nil {
		t.Fatalf("LoadBaseline: %v", err)
	}
	want := &Baseline{
		ExpectedPassCount: 2,
		Tasks:             []string{"task-01-example-com-title", "task-02-mdn-fetch-syntax"},
		Note:              "bootstrap: both replay transcripts pass",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LoadBaseline = %+v, want %+v", got, want)
	}
}

func TestLoadBaselineErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		want string // besides the file name, which every error carries
	}{
		{"unknown field", `{"expected_pass_count": 1, "tasks": ["a"], "threshold": 0.8}`, `unknown field "threshold"`},
		{"count missing", `{"tasks": ["a"]}`, "expected_pass_count: missing"},
		{"tasks missing", `{"expected_pass_count": 0}`, "tasks: missing"},
		{"tasks empty", `{"expected_pass_count": 0, "tasks": []}`, "tasks: empty"},
		{"count below the tasks", `{"expected_pass_count": 1, "tasks": ["a", "b"]}`, "expected_pass_count: 1, but tasks lists 2"},
		{"count above the tasks", `{"expected_pass_count": 3, "tasks": ["a", "b"]}`, "expected_pass_count: 3, but tasks lists 2"},
		{"repeated task", `{"expected_pass_count": 3, "tasks": ["a", "b", "a"]}`, `tasks[2]: "a" repeats tasks[0]`},
		{"blank task", `{"expected_pass_count": 2, "tasks": ["a", " "]}`, "tasks[1]: empty task name"},
		{"count of the wrong type", "{\n  \"expected_pass_count\": \"10\",\n  \"tasks\": [\"a\"]\n}", "line 2: expected_pass_count: want int, got JSON string"},
		{"syntax error", "{\n  \"expected_pass_count\": 1,\n  \"tasks\": [\"a\",]\n}", "line 3: invalid character ']'"},
		{"trailing data", `{"expected_pass_count": 1, "tasks": ["a"]} {"tasks": []}`, "unexpected data after the baseline object"},
		{"empty file", ``, "empty file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "baseline.json")
			writeFile(t, path, tc.doc)
			b, err := LoadBaseline(path)
			if err == nil {
				t.Fatalf("LoadBaseline(%s) = %+v, want an error containing %q", tc.doc, b, tc.want)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("LoadBaseline error = %q, want one naming %s and containing %q", err, path, tc.want)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "baseline.json")
		_, err := LoadBaseline(path)
		if err == nil || !strings.Contains(err.Error(), path) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("LoadBaseline of a missing file: %v, want a not-exist error naming the file", err)
		}
	})
}

func TestGate(t *testing.T) {
	t.Parallel()
	all := &Baseline{ExpectedPassCount: 10, Tasks: webvoyagerTasks}
	first3 := &Baseline{ExpectedPassCount: 3, Tasks: webvoyagerTasks[:3]}
	allPassed := func() *Run {
		r := testRun(t)
		for i := range r.Results {
			r.Results[i] = passedResult(r.Results[i].Task, 1, i, "https://example.com/")
		}
		return r
	}
	tests := []struct {
		name     string
		baseline *Baseline
		run      *Run
		want     []string
	}{
		{name: "every covered task passed", baseline: all, run: allPassed()},
		{
			name:     "a failed task shows the clause and its evidence",
			baseline: all,
			run: func() *Run {
				r := allPassed()
				r.Results[0].Outcome = OutcomeFailed
				r.Results[0].Failed = &Clause{Path: "postconditions[0]", Kind: contract.KindURL}
				r.Results[0].Evidence = []contract.Evidence{{
					Path: "postconditions[0]", Kind: contract.KindURL,
					Expected: `url matching ^https://example\.com/$`, Seen: "https://wrong.example/",
				}}
				return r
			}(),
			want: []string{`task-01-example-com-title: failed | failed_postcondition: postconditions[0] (url) | expected url matching ^https://example\.com/$, saw https://wrong.example/`},
		},
		{
			name:     "the mixed fixture run fails on each non-passed result",
			baseline: all,
			run:      testRun(t),
			want: []string{
				`task-03-wikipedia-eiffel-height: failed | failed_postcondition: postconditions[1] (or) | expected visible text of .infobox contains "330 m", saw .infobox: 1 match; longest part found is "33", in match 1: "…Height 312 m (1,024 ft) (original); 330 m (1,083 ft) is given as 33O m…"; expected visible text of .infobox contains "330 metres", saw .infobox: 1 match; longest part found is "33", in match 1: "…33O m…"`,
				`task-06-arxiv-2401-13919-abstract: replay_drift | call 3: args digest mismatch: recorded 9b1c…e2, got 51aa…07 (click {"ref":"e14"})`,
				`task-08-mdn-array-map-return: error | browser: chromium exited during the task: signal: killed`,
			},
		},
		{
			name:     "a covered task missing from the run",
			baseline: all,
			run: func() *Run {
				r := allPassed()
				r.Results = append(r.Results[:4], r.Results[5:]...)
				return r
			}(),
			want: []string{"task-05-w3c-html-section-definition: not run | covered by the baseline but absent from the run"},
		},
		{
			name:     "drift fails even beside a passing contract",
			baseline: all,
			run: func() *Run {
				r := allPassed()
				r.Results[1].Stop = Stop{Kind: StopDrift, Error: "call 2: response kind error, recorded ok"}
				return r
			}(),
			want: []string{"task-02-mdn-fetch-syntax: passed | replay drift: call 2: response kind error, recorded ok"},
		},
		{
			name:     "tasks outside the baseline are not gated",
			baseline: first3,
			run: func() *Run {
				r := allPassed()
				r.Results[9].Outcome = OutcomeTimeout
				return r
			}(),
		},
		{
			name:     "every attempt of a repeated task must pass",
			baseline: first3,
			run:      testRepeatRun(t),
			want: []string{
				"task-02-mdn-fetch-syntax (attempt 2): timeout | task timeout 2m0s reached after 14 tool calls",
				"task-03-wikipedia-eiffel-height (attempt 1): budget_exceeded | max_usd 0.50 reached: spent 0.5120",
				`task-03-wikipedia-eiffel-height (attempt 2): failed | failed_postcondition: postconditions[0] (url) | expected URL matches ^https://en\.wikipedia\.org/wiki/Eiffel_Tower$, saw https://en.wikipedia.org/wiki/Eiffel_Tower_(disambiguation)`,
				`task-03-wikipedia-eiffel-height (attempt 3): failed | failed_postcondition: postconditions[0] (url) | expected URL matches ^https://en\.wikipedia\.org/wiki/Eiffel_Tower$, saw https://en.wikipedia.org/wiki/Eiffel_Tower_(disambiguation)`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range gateFailures(tc.baseline, tc.run) {
				got = append(got, f.String())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Gate failures:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestGateOnAJudgedObservation runs the real judge on the corrupted final
// URL of the seed's second scenario and checks the line CI prints.
func TestGateOnAJudgedObservation(t *testing.T) {
	t.Parallel()
	post := contract.Postconditions{&contract.URL{Pattern: `^https://example\.com/$`}}
	v := contract.Evaluate(post, contract.Observation{URL: "https://wrong.example/"}, nil)
	r := &Run{Results: []TaskResult{{Task: "task-01-example-com-title", Attempt: 1, Stop: Stop{Kind: StopAnswer}}}}
	r.Results[0].SetVerdict(v)
	r.Results[0].Decide()
	fs := gateFailures(&Baseline{ExpectedPassCount: 1, Tasks: []string{"task-01-example-com-title"}}, r)
	if len(fs) != 1 {
		t.Fatalf("Gate returned %d failures, want 1: %v", len(fs), fs)
	}
	line := fs[0].String()
	for _, want := range []string{
		"task-01-example-com-title: failed | failed_postcondition: postconditions[0] (url) | expected ",
		`^https://example\.com/$`,
		"saw https://wrong.example/",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("gate line %q lacks %q", line, want)
		}
	}
}

func TestCheckRaised(t *testing.T) {
	t.Parallel()
	b := func(tasks ...string) *Baseline { return &Baseline{ExpectedPassCount: len(tasks), Tasks: tasks} }
	tests := []struct {
		name      string
		prev, cur *Baseline
		want      string // empty: accepted
	}{
		{"no previous baseline", nil, b("a"), ""},
		{"unchanged", b("a", "b"), b("a", "b"), ""},
		{"raised", b("a"), b("a", "b"), ""},
		{"reordered", b("a", "b"), b("b", "a"), ""},
		{"lowered", b("a", "b"), b("a"), "expected_pass_count went from 2 to 1"},
		{"task swapped for another", b("a", "b"), b("a", "c"), "tasks no longer covered: b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := checkRaised(tc.prev, tc.cur)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("CheckRaised = %v, want accepted", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("CheckRaised = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// The baselines are raised, never lowered: the working tree's baseline of
// each suite may not cover fewer tasks than HEAD's, nor HEAD's fewer than
// its parent's.
func TestBaselineNeverLowered(t *testing.T) {
	for _, rel := range []string{"benchmarks/webvoyager/baseline.json", "benchmarks/sandbox/baseline.json", "benchmarks/generated/baseline.json"} {
		cur, err := LoadBaseline(filepath.Join("../..", rel))
		if errors.Is(err, fs.ErrNotExist) {
			t.Logf("no %s in the working tree", rel)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		compare := func(newer *Baseline, rev string) *Baseline {
			out, err := exec.Command("git", "-C", "../..", "show", rev+":"+rel).Output()
			if err != nil {
				t.Logf("no %s at %s (first commit with it, or not a git checkout): nothing to compare", rel, rev)
				return nil
			}
			file := filepath.Join(t.TempDir(), "baseline.json")
			if err := os.WriteFile(file, out, 0o644); err != nil {
				t.Fatal(err)
			}
			prev, err := LoadBaseline(file)
			if err != nil {
				t.Fatalf("%s at %s: %v", rel, rev, err)
			}
			if err := checkRaised(prev, newer); err != nil {
				t.Errorf("%s was lowered against %s: %v", rel, rev, err)
			}
			return prev
		}
		if head := compare(cur, "HEAD"); head != nil {
			compare(head, "HEAD~1")
		}
	}
	cur, err := LoadBaseline("../../benchmarks/webvoyager/baseline.json")
	if err != nil || cur.ExpectedPassCount < 10 {
		t.Errorf("the WebVoyager baseline (%v) must cover at least the seed's ten tasks", err)
	}
}

// checkRaised reports an error unless cur keeps or raises prev: the count
// may not go down and no task prev covers may be dropped (replacing a task
// with another would keep the count while lowering what is protected).
// A nil prev (no earlier baseline) accepts anything.
func checkRaised(prev, cur *Baseline) error {
	if prev == nil {
		return nil
	}
	if cur.ExpectedPassCount < prev.ExpectedPassCount {
		return fmt.Errorf("baseline lowered: expected_pass_count went from %d to %d; it may only go up", prev.ExpectedPassCount, cur.ExpectedPassCount)
	}
	have := map[string]bool{}
	for _, t := range cur.Tasks {
		have[t] = true
	}
	var dropped []string
	for _, t := range prev.Tasks {
		if !have[t] {
			dropped = append(dropped, t)
		}
	}
	if len(dropped) > 0 {
		return fmt.Errorf("baseline lowered: tasks no longer covered: %s", strings.Join(dropped, ", "))
	}
	return nil
}
