package runner_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"contractbench/internal/runner"
	"contractbench/internal/suite"
)

// aheadRun runs three copies of task-01 on one worker with the clock now,
// on processors processors, and returns the progress events, "<task> <step>", in order, failing the
// test unless every task passed.
func aheadRun(t *testing.T, processors int, now func() time.Time, onEvent func(runner.Event)) []string {
	t.Helper()
	var tasks []*suite.Task
	for _, id := range []string{"ahead-1", "ahead-2", "ahead-3"} {
		tasks = append(tasks, variant(t, exampleTask, id, nil))
	}
	cfg := newConfig(t, tasks...)
	cfg.Now = now
	cfg.Processors = processors
	var mu sync.Mutex
	var events []string
	cfg.Progress = func(e runner.Event) {
		if e.Step != "setup" && e.Step != "done" {
			return
		}
		mu.Lock()
		events = append(events, e.Task+" "+e.Step)
		mu.Unlock()
		if onEvent != nil {
			onEvent(e)
		}
	}
	run := runWithin(t, context.Background(), cfg)
	for _, res := range run.Results {
		if !res.Outcome.Passed() {
			t.Errorf("%s: %s (%s), want passed", res.Task, res.Outcome, res.Reason)
		}
	}
	if len(run.Results) != 3 {
		t.Fatalf("%d results, want 3", len(run.Results))
	}
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(events)
}

// TestWorkerPreparesTheNextTaskAhead: with a processor to spare and tasks
// that are quick (here a
// clock that stands still, so every task takes no time and nothing waits
// too long), a worker sets each next task up while the current one runs,
// once, and runs it as it was prepared.
func TestWorkerPreparesTheNextTaskAhead(t *testing.T) {
	t.Parallel()
	events := aheadRun(t, 2, standingClock, nil)
	for _, id := range []string{"ahead-1", "ahead-2", "ahead-3"} {
		if n := count(events, id+" setup"); n != 1 {
			t.Errorf("%s was set up %d times, want once; events: %q", id, n, events)
		}
	}
	for _, pair := range [][2]string{{"ahead-2", "ahead-1"}, {"ahead-3", "ahead-2"}} {
		next, cur := slices.Index(events, pair[0]+" setup"), slices.Index(events, pair[1]+" done")
		if next < 0 || cur < 0 || next > cur {
			t.Errorf("%s was not set up while %s ran; events: %q", pair[0], pair[1], events)
		}
	}
}

// TestWorkerSetsUpAgainAPreparedTaskThatWaited: a task prepared ahead that
// waited longer than a quick task takes (here the clock jumps a minute as
// each task ends) is set up again before its agent starts, and a worker
// whose last task was slow stops preparing ahead.
func TestWorkerSetsUpAgainAPreparedTaskThatWaited(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var skew time.Duration
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(skew)
	}
	events := aheadRun(t, 2, now, func(e runner.Event) {
		if e.Step == "done" {
			mu.Lock()
			skew += time.Minute
			mu.Unlock()
		}
	})
	want := []string{
		"ahead-1 setup",
		"ahead-2 setup", // prepared ahead during the first task
		"ahead-1 done",
		"ahead-2 setup", // it waited "a minute": set up again
		"ahead-2 done",  // the first task was "slow": nothing prepared ahead
		"ahead-3 setup",
		"ahead-3 done",
	}
	if !slices.Equal(events, want) {
		t.Errorf("events:\n%q\nwant\n%q", events, want)
	}
}

// TestWorkerPreparesNothingAheadWithoutASpareProcessor: a worker for each
// processor keeps them busy, and sets each task up in its turn.
func TestWorkerPreparesNothingAheadWithoutASpareProcessor(t *testing.T) {
	t.Parallel()
	events := aheadRun(t, 1, standingClock, nil)
	want := []string{"ahead-1 setup", "ahead-1 done", "ahead-2 setup", "ahead-2 done", "ahead-3 setup", "ahead-3 done"}
	if !slices.Equal(events, want) {
		t.Errorf("events:\n%q\nwant\n%q", events, want)
	}
}

// standingClock is a clock that stands still: every task takes no time.
func standingClock() time.Time { return time.Date(2026, 3, 21, 12, 0, 0, 0, time.UTC) }

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}
