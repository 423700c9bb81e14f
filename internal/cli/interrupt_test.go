package cli

// Ctrl-C in the middle of a run: the command returns, writes the report
// marked incomplete, and leaves no browser behind.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"contractbench/internal/report"
)

// proc is one process as /proc shows it.
type proc struct {
	pid, ppid, pgid int
	state           byte // R, S, Z...
	comm            string
	cmdline         string // arguments joined by spaces
}

// processes lists the processes running now. One that ends while it is
// read is left out.
func processes(t *testing.T) []proc {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and
		// parentheses, so it ends at the last ')'.
		s := string(stat)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		var state byte
		var ppid, pgid int
		if _, err := fmt.Sscanf(s[end+1:], " %c %d %d", &state, &ppid, &pgid); err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, proc{pid: pid, ppid: ppid, pgid: pgid, state: state, comm: s[open+1 : end],
			cmdline: strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))})
	}
	return out
}

// browsersOf returns the process groups of the Chromiums this process
// launched (the browser package gives each its own group), with each one's
// profile folder.
func browsersOf(t *testing.T, pid int) map[int]string {
	t.Helper()
	groups := map[int]string{}
	for _, p := range processes(t) {
		// "chromium", or "chromium-headle" for the headless shell.
		if p.ppid != pid || !strings.HasPrefix(p.comm, "chromium") || p.state == 'Z' {
			continue
		}
		for _, arg := range strings.Fields(p.cmdline) {
			if dir, ok := strings.CutPrefix(arg, "--user-data-dir="); ok {
				groups[p.pgid] = dir
			}
		}
	}
	return groups
}

// toolServersOf returns the built-in MCP tool servers this process spawned
// that are running.
func toolServersOf(t *testing.T, pid int) []int {
	t.Helper()
	var out []int
	for _, p := range processes(t) {
		if p.ppid == pid && p.state != 'Z' && strings.Contains(p.cmdline, " mcp --cdp ") {
			out = append(out, p.pid)
		}
	}
	return out
}

// TestInterruptedRun is not parallel: it watches the browsers this test
// process launches, and other tests' runs would launch some too.
func TestInterruptedRun(t *testing.T) {
	me := os.Getpid()
	shared := browsersOf(t, me) // the package's shared browser, not the run's

	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	st, stdout, stderr := e2eState(nil)
	st.Context = func() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }
	out := t.TempDir()
	tasks := []string{task01, "task-02-mdn-fetch-syntax", "task-03-wikipedia-eiffel-height"}
	done := make(chan int, 1)
	go func() {
		args := []string{"run", "--suite", suiteDir, "-j", "1", "--out", out}
		for _, id := range tasks {
			args = append(args, "--task", id)
		}
		done <- Main(args, st)
	}()

	// Interrupt once the first task's tool server has ended and the
	// second's has been up for a moment: the first task is done, the
	// second one's agent is at work, the third has not started (the
	// worker may have set it up already: it has a processor to spare).
	launched := map[int]string{}
	servers := map[int]bool{}
	first := 0 // the first task's tool server, the first one up
	deadline := time.After(90 * time.Second)
	var code int
	var interruptedAt time.Time
watch:
	for {
		select {
		case code = <-done:
			break watch
		case <-deadline:
			interrupt()
			t.Fatalf("the run neither reached its second task nor ended in 90 s")
		case <-time.After(20 * time.Millisecond):
		}
		for pgid, dir := range browsersOf(t, me) {
			if _, ok := shared[pgid]; !ok {
				launched[pgid] = dir
			}
		}
		up := toolServersOf(t, me)
		for _, pid := range up {
			servers[pid] = true
		}
		if first == 0 && len(up) > 0 {
			first = slices.Min(up)
		}
		if first != 0 && !slices.Contains(up, first) && len(servers) >= 2 && interruptedAt.IsZero() {
			time.Sleep(200 * time.Millisecond)
			interrupt()
			interruptedAt = time.Now()
		}
	}
	if interruptedAt.IsZero() {
		t.Fatalf("the run ended before it was interrupted (saw %d browsers, %d tool servers):\nexit %d\n%s%s",
			len(launched), len(servers), code, stdout, stderr)
	}
	// One worker keeps one browser for its tasks (a fresh context each).
	if len(launched) < 1 {
		t.Errorf("saw none of the run's browsers: what is left of them cannot be checked")
	}
	r := result{code, stdout.String(), stderr.String()}
	t.Logf("interrupted after %d browser launches; returned %v later with exit %d",
		len(launched), time.Since(interruptedAt).Round(time.Millisecond), code)
	if code != exitInterrupted {
		t.Errorf("an interrupted run exited %d, want %d:\n%v", code, exitInterrupted, r)
	}
	if !strings.Contains(r.stderr, "interrupted: the report is marked incomplete") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", r.stderr)
	}

	rep := readReport(t, out)
	if !rep.Incomplete {
		t.Errorf("report: incomplete is false after an interrupt")
	}
	if len(rep.Settings.Tasks) != len(tasks) {
		t.Errorf("report: settings.tasks %q, want the %d selected", rep.Settings.Tasks, len(tasks))
	}
	if len(rep.Results) == 0 || len(rep.Results) >= len(tasks) {
		t.Fatalf("report: %d results, want the finished task and the interrupted one, not the third", len(rep.Results))
	}
	for _, res := range rep.Results {
		t.Logf("%s: %s (%s)", res.Task, res.Outcome, res.Reason)
	}
	if first := rep.Results[0]; first.Task != task01 || first.Outcome != report.OutcomePassed {
		t.Errorf("report: first result %s %s, want %s passed (it finished before the interrupt)", first.Task, first.Outcome, task01)
	}
	if len(rep.Results) == 2 {
		if got := rep.Results[1]; got.Outcome != report.OutcomeInterrupted || !strings.HasPrefix(got.Reason, "interrupted") {
			t.Errorf("report: %s ended %s (%s), want interrupted", got.Task, got.Outcome, got.Reason)
		}
		// An interrupted attempt says nothing about the agent: it is
		// left out of the score rather than counted as an error.
		if s := report.Summarize(rep); s.Total != 1 || s.ByOutcome[report.OutcomeError] != 0 {
			t.Errorf("report: score over %d results with %d errors, want over the 1 finished task with none", s.Total, s.ByOutcome[report.OutcomeError])
		}
	}

	// Nothing of the run's browsers is left: no process in their groups
	// or using their profiles, and their folders are gone. Killed
	// processes take a moment to go.
	var left []string
	for end := time.Now().Add(5 * time.Second); ; {
		left = left[:0]
		for _, p := range processes(t) {
			if p.state == 'Z' {
				continue // dead; only its parent's reaping is missing
			}
			for pgid, dir := range launched {
				if p.pgid == pgid || strings.Contains(p.cmdline, dir) {
					left = append(left, fmt.Sprintf("pid %d (%s, group %d): %.120s", p.pid, p.comm, p.pgid, p.cmdline))
					break
				}
			}
		}
		if len(left) == 0 || time.Now().After(end) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("processes of the run's browsers are still running:\n%s", strings.Join(left, "\n"))
	}
	for _, dir := range launched {
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("browser profile %s still exists (err %v)", dir, err)
		}
	}
	if pids := toolServersOf(t, me); len(pids) > 0 {
		t.Errorf("the run's MCP tool servers are still running: pids %v", pids)
	}
}
