package runner_test

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/report"
	"contractbench/internal/runner"
)

// TestAbortCutsTheJudgeShort stops a task's browser (SIGSTOP) just as the
// judge starts grading, so the judge can only wait, and then interrupts the
// run twice. The first interrupt lets a judge whose agent had finished go
// on grading; the second (Abort) must end its wait at once. The judge's own
// bound is set far beyond the test's deadline, so only the abort can end
// the task: without it, this test hangs until go test gives up.
func TestAbortCutsTheJudgeShort(t *testing.T) {
	t.Parallel()
	cfg := newConfig(t, variant(t, exampleTask, "abort", nil))
	cfg.JudgeTimeout = time.Hour
	var mu sync.Mutex
	var current string
	cfg.Server.Start = func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		mu.Lock()
		current = browserOf(t, browserURL)
		mu.Unlock()
		return inProcessServer(ctx, browserURL, browserContext, workDir)
	}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	abort := make(chan struct{})
	cfg.Abort = abort
	stopErr := fmt.Errorf("the judge never started")
	cfg.Progress = func(e runner.Event) {
		if e.Step != "judge" {
			return
		}
		mu.Lock()
		browser := current
		mu.Unlock()
		var pid int
		if pid, stopErr = browserPID(browser); stopErr == nil {
			stopErr = syscall.Kill(pid, syscall.SIGSTOP)
		}
		interrupt()
		close(abort)
	}

	run := runner.Run(ctx, cfg.plan(t), cfg.Hooks)
	if stopErr != nil {
		t.Fatalf("stopping the browser: %v", stopErr)
	}
	if !run.Incomplete || len(run.Results) != 1 {
		t.Fatalf("incomplete %v with %d results; want an incomplete run with the aborted task", run.Incomplete, len(run.Results))
	}
	if res := run.Results[0]; res.Outcome != report.OutcomeInterrupted || res.Observation != nil {
		t.Errorf("aborted task: outcome %s (%s), observation %v; want interrupted without one", res.Outcome, res.Reason, res.Observation != nil)
	}
}
