package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// nullSeed is the random agent's seed in TestNullAgentsScoreZero.
const nullSeed = 1

// randomStride: make test plays the random agent on every randomStride-th
// task of a suite (make bench-null, make bench-generated: on every one).
const randomStride = 4

// repoSuites lists the hand-written suites of the repository: the folders
// under benchmarks/ that hold a tasks/ folder, but benchmarks/generated.
func repoSuites(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "benchmarks", "*", "tasks"))
	if err != nil {
		t.Fatal(err)
	}
	var suites []string
	for _, d := range dirs {
		// TestGenerated runs the generated suite's null agents on a
		// sample: the random agent on all 318 tasks takes over an hour.
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && filepath.Base(filepath.Dir(d)) != "generated" {
			suites = append(suites, filepath.Dir(d))
		}
	}
	if len(suites) == 0 {
		t.Fatal("no suite under benchmarks/*/tasks")
	}
	return suites
}

// TestNullAgentsScoreZero runs both null agents over every hand-written
// suite of the repository (real Chromium, the built-in server over stdio, the hermetic
// fixture web). A contract that an agent doing nothing, or acting at
// random, satisfies cannot tell a finished task from an unfinished one: the
// test names each such task. A task that ended in a harness error did not
// test its contract: it gets one more run, and fails the test if it ends
// in an error again. The noop agent plays every task; the random agent,
// whose thirty actions make a task cost two to three replays, every
// fourth task of each suite, and every task in the long version (make
// bench-null).
func TestNullAgentsScoreZero(t *testing.T) {
	t.Parallel()
	for _, dir := range repoSuites(t) {
		s, err := suite.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		var every, sample []string
		for i, task := range s.Tasks {
			every = append(every, task.ID)
			if i%randomStride == 0 {
				sample = append(sample, task.ID)
			}
		}
		if long() {
			sample = every
		}
		for _, agent := range [][]string{{"--agent", "noop"}, {"--agent", "random", "--seed", fmt.Sprint(nullSeed)}} {
			name := filepath.Base(dir) + "/" + agent[1]
			tasks := every
			if agent[1] == "random" {
				tasks = sample
			}
			t.Run(name, func(t *testing.T) {
				checkNullRun(t, dir, agent, tasks, true)
			})
		}
	}
}

// checkNullRun runs the null agent of args over tasks of the suite in
// dir and checks every result. A task that ended in a harness error (a
// browser that did not answer in time on a busy machine) gave no verdict;
// when again is true it is run once more before the test says its
// contract went untested.
func checkNullRun(t *testing.T, dir string, agent, tasks []string, again bool) {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"run", "--suite", dir, "-j", "2", "--out", out}, agent...)
	for _, id := range tasks {
		args = append(args, "--task", id)
	}
	r := runE2E(t, nil, args...)
	if r.code != exitFailed && r.code != exitInternal {
		t.Errorf("%s: exit %d, want %d (every task failed):\n%v", strings.Join(args, " "), r.code, exitFailed, r)
	}
	rep := readReport(t, out)
	if rep.Settings.Model != "none (null agent: no model ran)" {
		t.Errorf("report says model %q; it must say a null agent played and no model ran", rep.Settings.Model)
	}
	if len(rep.Results) != len(rep.Settings.Tasks) || len(rep.Results) == 0 {
		t.Fatalf("%d results for %d tasks", len(rep.Results), len(rep.Settings.Tasks))
	}
	var errored []string
	for _, res := range rep.Results {
		switch {
		case res.Outcome == report.OutcomePassed:
			t.Errorf("%s: the contract of %s is satisfied by the null agent %s (%d tool calls); it does not tell a finished task from an unfinished one",
				dir, res.Task, rep.Settings.Agent, res.ToolCalls)
		case res.Outcome == report.OutcomeError && again:
			t.Logf("%s: %s ended in a harness error (%s); running it again", dir, res.Task, res.Reason)
			errored = append(errored, res.Task)
		case res.Outcome != report.OutcomeFailed:
			t.Errorf("%s: %s ended %s, not failed, so its contract was not tested: %s", dir, res.Task, res.Outcome, res.Reason)
		case agent[1] == "noop" && res.ToolCalls != 0:
			t.Errorf("%s: noop made %d tool calls", res.Task, res.ToolCalls)
		case agent[1] == "random" && res.ToolCalls == 0:
			t.Errorf("%s: random made no tool call", res.Task)
		}
	}
	if len(errored) > 0 {
		checkNullRun(t, dir, agent, errored, false)
	}
}

// TestNullAgentUsage: --seed belongs to the random agent, and a null agent
// runs no model.
func TestNullAgentUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--suite", suiteDir, "--agent", "noop", "--seed", "3"}, "--seed applies only to --agent random"},
		{[]string{"run", "--suite", suiteDir, "--seed", "3"}, "--seed applies only to --agent random"},
		{[]string{"run", "--suite", suiteDir, "--agent", "random", "--model", "gpt-x"}, "--agent random is a null agent and runs no model"},
		{[]string{"run", "--suite", suiteDir, "--agent", "random", "--seed", "x"}, "invalid value"},
	} {
		r := run(t, nil, tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: want exit %d and %q on stderr, got %v", tc.args, exitUsage, tc.want, r)
		}
	}
}
