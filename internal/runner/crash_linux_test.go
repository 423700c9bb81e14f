package runner_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// TestBrowserCrashEndsTheTaskAsError kills a task's browser at the agent's
// first call. That task must end as a harness error naming the crash, and
// the next task must still run and pass: under either isolation in a new
// browser (under IsolateContext, the worker's browser relaunched).
func TestBrowserCrashEndsTheTaskAsError(t *testing.T) {
	t.Parallel()
	for _, iso := range []runner.Isolate{runner.IsolateContext, runner.IsolateProcess} {
		t.Run(string(iso), func(t *testing.T) {
			t.Parallel()
			testBrowserCrash(t, iso)
		})
	}
}

func testBrowserCrash(t *testing.T, iso runner.Isolate) {
	crash := variant(t, exampleTask, "crash", nil)
	next := task(t, exampleTask)
	cfg := newConfig(t, crash, next)
	cfg.Isolate = iso

	// Tasks run one at a time, so the last browser a server was started
	// for is the running task's.
	var mu sync.Mutex
	var current string
	browsers := map[string]string{}
	cfg.Server.Start = func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		mu.Lock()
		current = browserOf(t, browserURL)
		mu.Unlock()
		return inProcessServer(ctx, browserURL, browserContext, workDir)
	}
	cfg.TaskDone = func(tk *suite.Task, _ *report.TaskResult, _ *transcript.Recorder) {
		mu.Lock()
		browsers[tk.ID] = current
		mu.Unlock()
	}
	killErr := fmt.Errorf("the crash task made no call")
	cfg.Progress = func(e runner.Event) {
		if e.Task == "crash" && e.Step == "call" && e.Seq == 1 {
			mu.Lock()
			u := current
			mu.Unlock()
			killErr = killBrowser(u)
		}
	}

	run := runWithin(t, context.Background(), cfg)
	if killErr != nil {
		t.Fatalf("killing the browser: %v", killErr)
	}
	if len(run.Results) != 2 {
		t.Fatalf("%d results, want 2: the run goes on after a crash", len(run.Results))
	}
	got := run.Results[0]
	if got.Outcome != report.OutcomeError ||
		!strings.HasPrefix(got.Reason, "browser: ended during the task: ") ||
		!strings.Contains(got.Reason, "ended unexpectedly (signal: killed)") {
		t.Errorf("crashed task: outcome %s, reason %q; want error, %q with the signal", got.Outcome, got.Reason, "browser: ended during the task: ")
	}
	if got.Observation != nil {
		t.Errorf("crashed task has an observation of a browser that was gone: %+v", got.Observation)
	}
	if r := run.Results[1]; r.Task != next.ID || r.Outcome != report.OutcomePassed {
		t.Errorf("next task %s: %s (%s), want %s passed", r.Task, r.Outcome, r.Reason, next.ID)
	}
	if browsers[next.ID] == browsers[crash.ID] {
		t.Errorf("the next task ran on %s, the browser that was killed; want a new one", browsers[next.ID])
	}
}

// killBrowser sends SIGKILL to the Chromium browserOf named, as a crash
// would end it, and waits until it has been reaped.
func killBrowser(browser string) error {
	pid, err := browserPID(browser)
	if err != nil {
		return err
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill %d: %w", pid, err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); os.IsNotExist(err) {
			return nil
		}
	}
	return fmt.Errorf("chromium %d still exists 10s after SIGKILL", pid)
}

// browserPID finds the Chromium browserOf named. Launched browsers are
// children of this process; the one meant is the child whose profile's
// DevToolsActivePort names the same browser WebSocket.
func browserPID(browser string) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || parentOf(pid) != os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		for arg := range bytes.SplitSeq(cmdline, []byte{0}) {
			dir, ok := strings.CutPrefix(string(arg), "--user-data-dir=")
			if !ok {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
			if lines := strings.SplitN(string(data), "\n", 3); err == nil && len(lines) > 1 && strings.TrimSpace(lines[1]) == browser {
				return pid, nil
			}
		}
	}
	return 0, fmt.Errorf("no child process serves DevTools as %s", browser)
}

// parentOf returns the parent pid of pid from /proc/<pid>/stat, or -1.
func parentOf(pid int) int {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return -1
	}
	// The command name is in parentheses and may contain spaces; the
	// fields after it are state, then ppid.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return -1
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return -1
	}
	return ppid
}
