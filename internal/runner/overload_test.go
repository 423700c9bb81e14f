package runner_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/runner"
)

// TestSetUpIsNotTheAgentsTime: a task whose set-up took longer than its
// whole timeout (here the run's clock jumps twice the timeout while the
// tool server starts, as on a machine that queued the set-up) still gives
// its agent the whole timeout, and passes; its duration counts the set-up.
func TestSetUpIsNotTheAgentsTime(t *testing.T) {
	t.Parallel()
	tk := task(t, exampleTask)
	cfg := newConfig(t, tk)
	var mu sync.Mutex
	var skew time.Duration
	cfg.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(skew)
	}
	start := cfg.Server.Start
	cfg.Server.Start = func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		mu.Lock()
		skew += 2 * tk.Timeout
		mu.Unlock()
		return start(ctx, browserURL, browserContext, workDir)
	}
	run := runWithin(t, context.Background(), cfg)
	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1", len(run.Results))
	}
	res := run.Results[0]
	if !res.Outcome.Passed() {
		t.Fatalf("%s (%s), want passed: the set-up's time was charged to the agent", res.Outcome, res.Reason)
	}
	if got := time.Duration(res.DurationMS) * time.Millisecond; got < 2*tk.Timeout {
		t.Errorf("duration %v, want at least the set-up's %v", got, 2*tk.Timeout)
	}
}

// TestSetUpsWaitForAProcessor: with one processor and three workers, a
// second task's set-up does not begin while the first one's is under way
// (held here in its tool server's start until the test lets it go), and
// every task still passes.
func TestSetUpsWaitForAProcessor(t *testing.T) {
	t.Parallel()
	var tasks = []string{"gate-1", "gate-2", "gate-3"}
	cfg := newConfig(t)
	for _, id := range tasks {
		cfg.Tasks = append(cfg.Tasks, variant(t, exampleTask, id, nil))
	}
	cfg.Parallel, cfg.Processors = 3, 1
	var mu sync.Mutex
	inSetUp, most, setups := 0, 0, 0
	release := make(chan struct{})
	cfg.Progress = func(e runner.Event) {
		if e.Step != "setup" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		setups++
		inSetUp++
		most = max(most, inSetUp)
	}
	start := cfg.Server.Start
	cfg.Server.Start = func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		mu.Lock()
		first := setups == 1
		mu.Unlock()
		if first {
			// Long enough for the other workers to ask; they must wait.
			select {
			case <-release:
			case <-time.After(500 * time.Millisecond):
			}
		}
		tr, err := start(ctx, browserURL, browserContext, workDir)
		// The rest of the set-up (connecting, the start page's wait) is
		// counted as over here: the gate is what is tested, and it
		// admits a set-up only after the last one's end.
		mu.Lock()
		inSetUp--
		mu.Unlock()
		return tr, err
	}
	run := runWithin(t, context.Background(), cfg)
	close(release)
	for _, res := range run.Results {
		if !res.Outcome.Passed() {
			t.Errorf("%s: %s (%s), want passed", res.Task, res.Outcome, res.Reason)
		}
	}
	if len(run.Results) != len(tasks) {
		t.Fatalf("%d results, want %d", len(run.Results), len(tasks))
	}
	if most != 1 {
		t.Errorf("%d set-ups at once on one processor, want 1", most)
	}
}
