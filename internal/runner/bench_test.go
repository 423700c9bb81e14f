package runner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/transcript/transcripttest"
)

// BenchmarkSuite runs the whole suite as CI does: the replay agent plays
// the committed transcripts against the built-in tool server in real
// browsers on the fixture web. One op is one run of every task; tasks/s
// is the throughput at each -j. Every task must pass: a faster run that
// fails tasks measures nothing.
//
//	go test -run '^$' -bench BenchmarkSuite -benchtime 1x -count 5 ./internal/runner
func BenchmarkSuite(b *testing.B) {
	provider := replayProvider(b, webSuite.Tasks)
	for _, j := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("j=%d", j), func(b *testing.B) {
			cfg := newConfig(b, webSuite.Tasks...)
			cfg.Agent.Provider = provider
			cfg.Parallel = j
			runs := 0
			plan := cfg.plan(b)
			for b.Loop() {
				run := runner.Run(context.Background(), plan, cfg.Hooks)
				if failed := notPassed(run); len(failed) > 0 || len(run.Results) != len(cfg.Tasks) {
					b.Fatalf("%d of %d tasks reported, not passed: %s", len(run.Results), len(cfg.Tasks), strings.Join(failed, "; "))
				}
				runs++
			}
			b.ReportMetric(float64(runs*len(cfg.Tasks))/b.Elapsed().Seconds(), "tasks/s")
		})
	}
}

// replayProvider reads every task's committed transcript once and returns
// the replayed agent of them, as `contractbench run` plays it.
func replayProvider(b *testing.B, tasks []*suite.Task) runner.ProviderFunc {
	b.Helper()
	records := make(map[string]*transcript.Transcript, len(tasks))
	for _, tk := range tasks {
		tr, err := transcripttest.ReadFile(webSuite.TranscriptFile("builtin", tk.ID))
		if err != nil {
			b.Fatal(err)
		}
		records[tk.ID] = tr
	}
	return runner.ReplayAgent(records)
}

func notPassed(run *report.Run) []string {
	var out []string
	for _, r := range run.Results {
		if r.Outcome != report.OutcomePassed {
			out = append(out, fmt.Sprintf("%s#%d %s (%s%s)", r.Task, r.Attempt, r.Outcome, r.Reason, r.Failed))
		}
	}
	return out
}
