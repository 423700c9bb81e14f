package runner_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/transcript/transcripttest"
)

// fakeWaits is a clock whose waits take no real time: each wait moves
// the clock on by its duration and is remembered, in order.
type fakeWaits struct {
	mu     sync.Mutex
	offset time.Duration
	waits  []time.Duration
}

func (f *fakeWaits) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return time.Now().Add(f.offset)
}

func (f *fakeWaits) wait(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.offset += d
	f.waits = append(f.waits, d)
	return ctx.Err()
}

// replayOf replays the suite's recorded transcript of t on the built-in
// server, as run --agent replay does.
func replayOf(tb testing.TB) runner.ProviderFunc {
	return func(t *suite.Task) (llm.Provider, error) {
		tr, err := transcripttest.ReadFile(filepath.Join(suiteDir, "transcripts", "builtin", t.ID+".jsonl"))
		if err != nil {
			return nil, err
		}
		canon, err := t.AgentTask()
		if err != nil {
			return nil, err
		}
		digest, err := transcript.TaskDigest(canon)
		if err != nil {
			return nil, err
		}
		return llm.NewReplay(tr, digest), nil
	}
}

// TestPacedWaitsAreTheAgentsTime replays a task paced at an hour a turn,
// on a clock whose waits take no real time. The replay waits once before
// each model turn (each call, then the answer), the task still passes,
// and the waits are in the task's duration, in none of its calls': a
// call's duration is the tool server's, measured on its own, and no call
// takes an hour.
func TestPacedWaitsAreTheAgentsTime(t *testing.T) {
	t.Parallel()
	const pace = time.Hour
	cfg := newConfig(t, task(t, exampleTask))
	cfg.Agent = runner.Agent{Name: llm.NameReplay, Provider: replayOf(t)}
	cfg.Pace = &runner.Pace{Fixed: pace}
	clock := &fakeWaits{}
	cfg.Now, cfg.Wait = clock.now, clock.wait
	run := runWithin(t, context.Background(), cfg)
	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1", len(run.Results))
	}
	r := run.Results[0]
	if r.Outcome != report.OutcomePassed {
		t.Fatalf("%s: %s (%s), want passed", r.Task, r.Outcome, r.Reason)
	}
	turns := r.ToolCalls + 1
	if want := slices.Repeat([]time.Duration{pace}, turns); !slices.Equal(clock.waits, want) {
		t.Errorf("the replay waited %v; want %v, once before each of its %d turns", clock.waits, want, turns)
	}
	if paced := time.Duration(turns) * pace; time.Duration(r.DurationMS)*time.Millisecond < paced {
		t.Errorf("the task took %d ms; want at least its %s of paced waits, which are the agent's time", r.DurationMS, paced)
	}
	for _, c := range r.Calls {
		if time.Duration(c.DurationMS)*time.Millisecond >= pace {
			t.Errorf("call %d (%s) took %d ms: a paced wait was counted in the tool server's time", c.Seq, c.Tool, c.DurationMS)
		}
	}
}

// TestPaceStopsWithTheRun: a run stopped while a replay waits its pace
// ends the task as interrupted, not as an error or a failure of the
// agent.
func TestPaceStopsWithTheRun(t *testing.T) {
	t.Parallel()
	cfg := newConfig(t, task(t, exampleTask))
	cfg.Agent = runner.Agent{Name: llm.NameReplay, Provider: replayOf(t)}
	cfg.Pace = &runner.Pace{Fixed: 24 * time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The run is stopped (Ctrl-C) during the first wait.
	cfg.Wait = func(wctx context.Context, d time.Duration) error {
		cancel()
		<-wctx.Done()
		return wctx.Err()
	}
	run := runWithin(t, ctx, cfg)
	if len(run.Results) != 1 || run.Results[0].Outcome != report.OutcomeInterrupted || !run.Incomplete {
		t.Fatalf("results %+v, incomplete %v; want one interrupted result in an incomplete report", run.Results, run.Incomplete)
	}
}

// TestPaceRefusedForOutsideAgents: an outside agent answers at its own
// pace, which nothing here can slow down.
func TestPaceRefusedForOutsideAgents(t *testing.T) {
	cfg := newConfig(t, task(t, exampleTask))
	cfg.Agent = runner.Agent{Name: "exec", Exec: &runner.ExecAgent{Command: "true"}}
	cfg.Pace = &runner.Pace{Fixed: time.Second}
	var fe *runner.FieldError
	if _, err := runner.NewPlan(cfg.Spec); !errors.As(err, &fe) || fe.Fields[0] != runner.FieldPace {
		t.Fatalf("NewPlan = %v; want a refusal naming the pace field first", err)
	}
}
