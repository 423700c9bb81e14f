package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"contractbench/internal/report"
)

// verdicts is what must not depend on how a run was split: each attempt's
// outcome and failed clause, and the summary's counts and interval.
type verdicts struct {
	Outcomes map[report.Attempt]string
	Passed   int
	Total    int
	Low      float64
	High     float64
	NotRun   int
}

func verdictsOf(r *report.Run) verdicts {
	s := report.Summarize(r)
	v := verdicts{Outcomes: map[report.Attempt]string{}, Passed: s.Passed, Total: s.Total, Low: s.Wilson95Low, High: s.Wilson95High, NotRun: s.NotRun}
	for _, res := range r.Results {
		v.Outcomes[report.Attempt{Task: res.Task, Attempt: res.Attempt}] = string(res.Outcome) + " " + res.Failed.String()
	}
	return v
}

// TestShardsMergeAndResume: shards 1/2 and 2/2 of a repeated selection,
// merged, give the verdicts, counts and interval of the whole run; and a
// run that lost half its attempts, resumed, gives the whole run again,
// running only what it lacked.
func TestShardsMergeAndResume(t *testing.T) {
	t.Parallel()
	sel := []string{"run", "--suite", suiteDir, "--task", "task-01", "--task", "task-07", "--repeat", "2"}
	wholeDir := t.TempDir()
	if r := runE2E(t, nil, append(sel, "--out", wholeDir)...); r.code != exitOK {
		t.Fatalf("whole run: %v", r)
	}
	whole := readReport(t, wholeDir)
	if len(whole.Results) != 4 {
		t.Fatalf("whole run has %d results, want 4", len(whole.Results))
	}

	var parts []string
	for _, shard := range []string{"1/2", "2/2"} {
		dir := t.TempDir()
		if r := runE2E(t, nil, append(sel, "--shard", shard, "--out", dir)...); r.code != exitOK {
			t.Fatalf("shard %s: %v", shard, r)
		}
		part := readReport(t, dir)
		if len(part.Results) != 2 || part.Incomplete {
			t.Errorf("shard %s: %d results, incomplete=%v; want 2 and complete", shard, len(part.Results), part.Incomplete)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		parts = append(parts, files...)
	}
	mergedDir := t.TempDir()
	if r := runE2E(t, nil, append([]string{"merge", "-o", mergedDir}, parts...)...); r.code != exitOK {
		t.Fatalf("merge: %v", r)
	}
	merged := readReport(t, mergedDir)
	if got, want := verdictsOf(merged), verdictsOf(whole); !reflect.DeepEqual(got, want) {
		t.Errorf("merged shards: %+v\nwhole run: %+v", got, want)
	}

	// The same selection interrupted half-way: two attempts done, the
	// third ended as a harness error, the fourth never started.
	cut := *whole
	cut.Results = append([]report.TaskResult(nil), whole.Results[:3]...)
	cut.Results[2].Outcome, cut.Results[2].Reason = report.OutcomeError, "harness: browser: ended during the task"
	cut.Incomplete = true
	partial := filepath.Join(t.TempDir(), "partial.json")
	writeRun(t, partial, &cut)
	resumedDir := t.TempDir()
	r := runE2E(t, nil, append(sel, "--resume", partial, "--out", resumedDir)...)
	if r.code != exitOK {
		t.Fatalf("resume: %v", r)
	}
	resumed := readReport(t, resumedDir)
	if got, want := verdictsOf(resumed), verdictsOf(whole); !reflect.DeepEqual(got, want) {
		t.Errorf("resumed run: %+v\nwhole run: %+v", got, want)
	}
	for i := range 2 {
		if !reflect.DeepEqual(resumed.Results[i], cut.Results[i]) {
			t.Errorf("resumed result %d was not kept as it was", i)
		}
	}

	// A report of another selection cannot be resumed.
	if r := runE2E(t, nil, "run", "--suite", suiteDir, "--task", "task-01", "--resume", partial, "--out", t.TempDir()); r.code != exitUsage {
		t.Errorf("resuming another selection: want exit %d, got %v", exitUsage, r)
	}
}

func writeRun(t *testing.T, path string, r *report.Run) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := report.WriteJSON(f, r); err != nil {
		t.Fatal(err)
	}
}
