package cli

// Signals and child processes: a closed terminal (SIGHUP) is an interrupt
// like Ctrl-C, a second Ctrl-C ends the run at once, and a tool server's
// whole process tree goes with it. The program runs as the real binary
// here, so the signals are real.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"contractbench/internal/report"
)

func TestWatchSignals(t *testing.T) {
	t.Parallel()
	sigs := make(chan os.Signal)
	ctx, abort, stop := watchSignals(sigs)
	defer stop()
	sigs <- syscall.SIGHUP
	<-ctx.Done() // the first signal stops the run...
	select {
	case <-abort:
		t.Fatal("the first signal aborted the run")
	default:
	}
	sigs <- syscall.SIGINT
	<-abort                // ...and the second ends it at once
	sigs <- syscall.SIGINT // later ones are ignored, not a panic
}

// TestSignalsEndARun runs the binary, waits until its task's browser and
// tool server are up, and signals it. Not parallel with other tests that
// watch processes: it only looks at the children of its own subprocess.
func TestSignalsEndARun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		signals []syscall.Signal
	}{
		{"a closed terminal", []syscall.Signal{syscall.SIGHUP}},
		{"Ctrl-C twice", []syscall.Signal{syscall.SIGINT, syscall.SIGINT}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			cmd := exec.Command(e2e.bin, "run", "--suite", suiteDir, "--task", "task-02-mdn-fetch-syntax", "--out", out)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			pid := cmd.Process.Pid

			var profiles []string
			deadline := time.After(3 * time.Minute)
		wait:
			for {
				select {
				case err := <-done:
					t.Fatalf("the run ended (%v) before its browser and server were seen:\n%s%s", err, stdout.String(), stderr.String())
				case <-deadline:
					cmd.Process.Kill()
					t.Fatal("the run's browser and tool server did not both appear within 3 minutes")
				case <-time.After(50 * time.Millisecond):
				}
				profiles = profiles[:0]
				for _, dir := range browsersOf(t, pid) {
					profiles = append(profiles, dir)
				}
				if len(profiles) > 0 && len(toolServersOf(t, pid)) > 0 {
					break wait
				}
			}
			for _, s := range tc.signals {
				if err := cmd.Process.Signal(s); err != nil {
					t.Fatal(err)
				}
			}
			err := <-done
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
				t.Fatalf("after %v: %v, want exit %d:\n%s%s", tc.signals, err, exitInterrupted, stdout.String(), stderr.String())
			}
			rep := readReport(t, out)
			if !rep.Incomplete {
				t.Errorf("report not marked incomplete after %v", tc.signals)
			}
			for _, res := range rep.Results {
				if res.Outcome != report.OutcomeInterrupted {
					t.Errorf("%s: %s (%s), want interrupted", res.Task, res.Outcome, res.Reason)
				}
			}
			for _, dir := range profiles {
				if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("browser profile %s left behind (err %v)", dir, err)
				}
			}
			var left []string
			for _, p := range processes(t) {
				for _, dir := range profiles {
					if p.state != 'Z' && strings.Contains(p.cmdline, dir) {
						left = append(left, fmt.Sprintf("%d %s", p.pid, p.comm))
					}
				}
			}
			if len(left) > 0 {
				t.Errorf("browser processes left: %v", left)
			}
		})
	}
}

// A tool server started through a shell leaves a child of that shell
// behind on main; the server's whole process group goes when the task
// ends.
func TestToolServerTreeEndsWithTheTask(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := fmt.Sprint(800000 + os.Getpid()%100000) // a sleep nobody else runs
	profile := `format_version: 1
servers:
  - name: wrapped
    command: [sh, -c, 'sleep ` + marker + ` & exec "$0" mcp --cdp "$1"', "{self}", "{cdp_url}"]
    snapshot_format: builtin
    allow: [navigate, read_page, find, click, type, press_key, select_option, scroll, go_back, wait_for, screenshot, tabs]
    page_tools: [read_page]
    actions:
      navigate: {tool: navigate, args: {url: "{url}"}}
      read: {tool: read_page, args: {mode: text}}
      click: {tool: click, args: {ref: "{ref}"}}
      type: {tool: type, args: {ref: "{ref}", text: "{text}", submit: "{submit}"}}
      press_key: {tool: press_key, args: {key: "{key}"}}
      back: {tool: go_back}
`
	file := filepath.Join(dir, "servers.yaml")
	writeFileT(t, file, profile)
	r := runE2E(t, map[string]string{"PATH": os.Getenv("PATH")}, "run", "--suite", suiteDir, "--task", task01,
		"--servers", file, "--server", "wrapped", "--agent", "reference", "--out", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("want the task to pass through the wrapped server, got:\n%v", r)
	}
	var left []string
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left = left[:0]
		for _, p := range processes(t) {
			if p.state != 'Z' && p.cmdline == "sleep "+marker {
				left = append(left, fmt.Sprintf("pid %d (parent %d)", p.pid, p.ppid))
			}
		}
		if len(left) == 0 || time.Now().After(end) {
			break
		}
	}
	if len(left) > 0 {
		for _, l := range left {
			var pid int
			fmt.Sscanf(l, "pid %d", &pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Errorf("the server's child outlived the task: %v", left)
	}
}
