package cli

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"contractbench/internal/report"
)

// chaosSetting is one size of the chaos test: the run's flags and the
// faults its schedule delivers before the SIGTERM.
type chaosSetting struct {
	j, browsers, repeat, faults int
	pace                        string
}

// TestChaos runs the sandbox suite with the replay agent, paced, many
// tasks at a time in shared browsers, as its own process, while a seeded
// schedule kills browsers and tool server processes of the run and makes
// its web answer 500 or drop connections for a moment; then it
// stops the run with SIGTERM and finishes it with --resume. Whatever the
// faults hit:
//
//   - every attempt ends with exactly one result, and the report after the
//     resume is complete;
//   - a fault is never blamed on the agent: the interrupted run's results
//     are passed (no fault touched them: the verdict of a clean run) or
//     error (a fault did) or interrupted (the SIGTERM did), never failed,
//     and every attempt whose web failed on purpose is an error;
//   - no process of the run outlives it, and it leaves nothing in its
//     temporary folder.
//
// The short version (-j 8 over 2 browsers, 4 faults) runs in go test; the
// long one (-j 32 over 4 browsers, 12 faults) with CONTRACTBENCH_CHAOS=long
// (make bench-chaos). Which task a fault hits depends on timing; what is
// checked holds for any.
func TestChaos(t *testing.T) {
	set := chaosSetting{j: 8, browsers: 2, repeat: 2, faults: 4, pace: "2s"}
	if os.Getenv("CONTRACTBENCH_CHAOS") == "long" {
		set = chaosSetting{j: 32, browsers: 4, repeat: 6, faults: 12, pace: "3s"}
	}
	tmp := t.TempDir()
	outA, outB, scratch := filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "tmp")
	for _, d := range []string{outA, outB, scratch} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"run", "--suite", chaosSuite, "--pace", set.pace, "-j", strconv.Itoa(set.j),
		"--browsers", strconv.Itoa(set.browsers), "--repeat", strconv.Itoa(set.repeat)}
	attempts := 13 * set.repeat

	faultFile := filepath.Join(tmp, "web-faults")
	first := startRun(t, scratch, faultFile, append(args, "--out", outA)...)
	faults := chaosSchedule(t, first, faultFile, set.faults, 27)
	// The attempts the last faults touched end before the SIGTERM comes
	// (a paced sandbox task takes about 25 s).
	time.Sleep(15 * time.Second)
	terminated := first.Process.Signal(syscall.SIGTERM) == nil
	code := waitStatus(first.Wait())
	t.Logf("faults delivered: %v; SIGTERM delivered: %v; exit %d", faults, terminated, code)
	if len(faults) == 0 {
		t.Fatal("no fault was delivered: the run had no browser or tool server to kill")
	}
	if code != 130 && code != 3 && code != 0 {
		t.Errorf("the run under faults exited %d; want 130 (interrupted), 3 (a harness error) or 0, never 1: no fault is the agent's", code)
	}
	a := readOnlyReport(t, outA)
	seen := map[report.Attempt]int{}
	webFaulted := 0
	for _, r := range a.Results {
		seen[report.Attempt{Task: r.Task, Attempt: r.Attempt}]++
		if len(r.WebFaults) > 0 {
			webFaulted++
		}
		if len(r.WebFaults) > 0 && r.Outcome != report.OutcomeError && r.Outcome != report.OutcomeInterrupted {
			t.Errorf("%s#%d: %s although its web failed on purpose (%v); want error", r.Task, r.Attempt, r.Outcome, r.WebFaults)
		}
		switch r.Outcome {
		case report.OutcomePassed, report.OutcomeInterrupted:
		case report.OutcomeError:
			t.Logf("%s#%d: error: %s", r.Task, r.Attempt, r.Reason)
		default:
			t.Errorf("%s#%d: %s (%s); a fault of the harness must end a task as error, and a task no fault touched passes", r.Task, r.Attempt, r.Outcome, r.Reason)
		}
	}
	t.Logf("%d attempts saw their web fail on purpose", webFaulted)
	for at, n := range seen {
		if n != 1 {
			t.Errorf("%s#%d has %d results, want one", at.Task, at.Attempt, n)
		}
	}
	if len(a.Results) > attempts {
		t.Errorf("%d results for %d attempts", len(a.Results), attempts)
	}

	// The resume finishes what the SIGTERM and the faults left.
	reportA := onlyFile(t, outA, ".json")
	second := startRun(t, scratch, faultFile, append(args, "--out", outB, "--resume", reportA)...)
	if code := waitStatus(second.Wait()); code != 0 {
		t.Errorf("the resumed run exited %d, want 0: every attempt passed", code)
	}
	b := readOnlyReport(t, outB)
	if b.Incomplete || len(b.Results) != attempts {
		t.Errorf("after the resume: %d results of %d, incomplete %v; want a complete report", len(b.Results), attempts, b.Incomplete)
	}
	done := map[report.Attempt]bool{}
	for _, r := range b.Results {
		at := report.Attempt{Task: r.Task, Attempt: r.Attempt}
		if done[at] {
			t.Errorf("%s#%d has two results after the resume", r.Task, r.Attempt)
		}
		done[at] = true
		if r.Outcome != report.OutcomePassed {
			t.Errorf("%s#%d after the resume: %s (%s), want passed as in a clean run", r.Task, r.Attempt, r.Outcome, r.Reason)
		}
	}
	if left := processesUnder(scratch); len(left) > 0 {
		t.Errorf("processes of the run outlived it: %v", left)
	}
	if left, _ := os.ReadDir(scratch); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("the run left %v in its temporary folder", names)
	}
}

// chaosSuite is the sandbox suite, relative to this package.
const chaosSuite = sandboxDir

// startRun starts the built binary with args, its temporary folder tmp,
// its web failing on purpose while faultFile says so.
func startRun(t *testing.T, tmp, faultFile string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(e2e.bin, args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "CONTRACTBENCH_WEB_FAULTS="+faultFile)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stderr of %v:\n%s", args, stderr.String())
		}
	})
	return cmd
}

// chaosSchedule delivers n faults to the run cmd, one after another and a
// while apart, each kind in turn in an order drawn from seed: it kills a
// browser or a tool server among those then running (waiting for one to
// exist), or makes the web of every task answer 500 or drop its
// connections for a moment (through faultFile, the run's
// CONTRACTBENCH_WEB_FAULTS). It returns what it did, and stops early when
// the run ends.
func chaosSchedule(t *testing.T, cmd *exec.Cmd, faultFile string, n int, seed uint64) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	kinds := []string{"chromium", "contractbench", "500", "reset"}
	rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	var done []string
	for len(done) < n {
		kind := kinds[len(done)%len(kinds)] // each kind as often as n allows
		pause := time.Duration(1000+rng.IntN(3000)) * time.Millisecond
		time.Sleep(pause) // spreads the faults over the run; nothing waits on it
		if kind == "500" || kind == "reset" {
			// While tasks run (each has a tool server), and long enough
			// that a paced task's next call falls in it.
			for len(children(t, cmd.Process.Pid, "contractbench")) == 0 {
				if ended(t, cmd.Process.Pid) {
					return done
				}
				time.Sleep(50 * time.Millisecond)
			}
			moment := time.Duration(4000+rng.IntN(2000)) * time.Millisecond
			if err := os.WriteFile(faultFile, []byte(kind), 0o644); err != nil {
				t.Fatal(err)
			}
			time.Sleep(moment)
			if err := os.Remove(faultFile); err != nil {
				t.Fatal(err)
			}
			done = append(done, fmt.Sprintf("web %s for %v", kind, moment))
			continue
		}
		for {
			if ended(t, cmd.Process.Pid) {
				return done
			}
			pids := children(t, cmd.Process.Pid, kind)
			if len(pids) > 0 {
				pid := pids[rng.IntN(len(pids))]
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					done = append(done, fmt.Sprintf("%s %d", kind, pid))
				}
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return done
}

// children lists the running processes whose parent is pid and whose
// command starts with comm ("chromium" is also the headless shell, whose
// command the kernel keeps as "chromium-headle"), in PID order.
func children(t *testing.T, pid int, comm string) []int {
	var out []int
	for _, p := range processes(t) {
		if p.ppid == pid && p.state != 'Z' && strings.HasPrefix(p.comm, comm) {
			out = append(out, p.pid)
		}
	}
	slices.Sort(out)
	return out
}

// ended reports whether pid has ended, reaped or not: a process that
// ended and waits to be reaped still takes signals.
func ended(t *testing.T, pid int) bool {
	for _, p := range processes(t) {
		if p.pid == pid {
			return p.state == 'Z'
		}
	}
	return true
}

// processesUnder lists the live processes whose command line names dir:
// browsers whose profile is there, servers working there.
func processesUnder(dir string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), dir) {
			out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}

// waitStatus is the exit status of a finished command's Wait.
func waitStatus(err error) int {
	if err == nil {
		return 0
	}
	if x, ok := err.(*exec.ExitError); ok {
		return x.ExitCode()
	}
	return -1
}

// onlyFile returns the one file of dir named with suffix.
func onlyFile(t *testing.T, dir, suffix string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
	if len(matches) != 1 {
		t.Fatalf("%s holds %v; want one %s file", dir, matches, suffix)
	}
	return matches[0]
}

// readOnlyReport reads the one JSON report in dir.
func readOnlyReport(t *testing.T, dir string) *report.Run {
	t.Helper()
	r, err := readRunReport(onlyFile(t, dir, ".json"), true)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
