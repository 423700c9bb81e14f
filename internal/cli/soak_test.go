package cli

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"testing"
	"time"

	"contractbench/internal/report"
)

// TestSoak replays both suites many times over, two tasks at a time, and
// checks that every attempt of a task ends as its first did: the same
// outcome, failed clause and evidence, and the same tool replies (their
// text as the report keeps it, their whole size, their error flag).
// A replayed agent on the hermetic web has nothing that may differ; an
// attempt that does is state leaking between attempts, a judge that reads
// a page differently, or a page that is not deterministic.
//
// The short version (three attempts of two tasks of each suite) runs in go
// test; CONTRACTBENCH_SOAK=N (make bench-soak: 20) gives every task of
// both suites N attempts and logs how many differ and the time taken.
func TestSoak(t *testing.T) {
	repeat, tasks := 3, map[string][]string{suiteDir: {"task-01", "task-07"}, sandboxDir: {"sandbox-01", "sandbox-04"}}
	if n := os.Getenv("CONTRACTBENCH_SOAK"); n != "" {
		var err error
		if repeat, err = strconv.Atoi(n); err != nil || repeat < 2 {
			t.Fatalf("CONTRACTBENCH_SOAK=%q: want a number of attempts, 2 or more", n)
		}
		tasks = map[string][]string{suiteDir: nil, sandboxDir: nil}
	}
	for _, dir := range []string{suiteDir, sandboxDir} {
		out := t.TempDir()
		args := []string{"run", "--suite", dir, "--repeat", strconv.Itoa(repeat), "-j", "2", "--out", out}
		for _, id := range tasks[dir] {
			args = append(args, "--task", id)
		}
		start := time.Now()
		if r := runE2E(t, nil, args...); r.code != 0 {
			t.Errorf("%s: %v; want every attempt passed", dir, r)
		}
		rep := readOnlyReport(t, out)
		differ := soakDifferences(rep)
		for _, d := range differ {
			t.Errorf("%s: %s", dir, d)
		}
		t.Logf("%s: %d attempts of %d tasks in %s; %d differ from their task's first", dir, len(rep.Results),
			len(rep.Settings.Tasks), time.Since(start).Round(time.Second), len(differ))
	}
}

// soakDifferences names each attempt of r that did not end as the first
// attempt of its task did.
func soakDifferences(r *report.Run) []string {
	type ending struct {
		Outcome  report.Outcome
		Failed   *report.Clause
		Evidence any
		Replies  []string
	}
	endingOf := func(res report.TaskResult) ending {
		e := ending{Outcome: res.Outcome, Failed: res.Failed, Evidence: res.Evidence}
		for _, c := range res.Calls {
			e.Replies = append(e.Replies, fmt.Sprintf("%s %v %d %q", c.Tool, c.IsError, c.ResponseBytes, c.Reply))
		}
		return e
	}
	first := map[string]ending{}
	var out []string
	for _, res := range r.Results {
		e := endingOf(res)
		f, ok := first[res.Task]
		if !ok {
			first[res.Task] = e
			continue
		}
		if !reflect.DeepEqual(e, f) {
			out = append(out, fmt.Sprintf("%s#%d ended %s, its first attempt %s", res.Task, res.Attempt, res.Outcome, f.Outcome))
		}
	}
	return out
}
