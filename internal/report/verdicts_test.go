package report

import (
	"bytes"
	"testing"
)

// TestVerdictsGolden pins the verdict lines a command prints after a run,
// byte for byte: the fixture run under a gate on every task (one drift
// with its record hint), the repeated run under a gate on a selection, and
// a run that passes its gate. Run with -update after an intended change.
func TestVerdictsGolden(t *testing.T) {
	t.Parallel()
	hint := func(task string) string {
		return "contractbench record --suite webvoyager --server builtin --agent reference --task " + task
	}
	tests := []struct {
		name     string
		run      func(testing.TB) *Run
		baseline *Baseline
		want     Verdicts
	}{
		{
			name: "run",
			run: func(tb testing.TB) *Run {
				r := testRun(tb)
				r.Settings.AllTasks = true
				r.Results[5].Stop = Stop{Kind: StopDrift, Error: r.Results[5].Reason}
				r.Results[3].Trust = TrustUnrestricted
				return r
			},
			baseline: &Baseline{ExpectedPassCount: len(webvoyagerTasks), Tasks: webvoyagerTasks},
			want:     Verdicts{NotPassed: 3, Errors: 1, GateFailed: true},
		},
		{
			name:     "repeat",
			run:      testRepeatRun,
			baseline: &Baseline{ExpectedPassCount: 3, Tasks: []string{webvoyagerTasks[0], webvoyagerTasks[2], webvoyagerTasks[9]}},
			want:     Verdicts{NotPassed: 4, GateFailed: true},
		},
		{
			name: "passed",
			run: func(tb testing.TB) *Run {
				r := testRun(tb)
				r.Settings.AllTasks = true
				r.Results = r.Results[:2]
				return r
			},
			baseline: &Baseline{ExpectedPassCount: 2, Tasks: webvoyagerTasks[:2]},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got bytes.Buffer
			v, err := WriteVerdicts(&got, tc.run(t), VerdictOptions{Baseline: tc.baseline, RecordHint: hint})
			if err != nil {
				t.Fatal(err)
			}
			if v != tc.want {
				t.Errorf("WriteVerdicts = %+v, want %+v", v, tc.want)
			}
			checkGolden(t, "verdicts-"+tc.name+".golden.txt", got.Bytes())
		})
	}
}

// TestVerdictsWithoutHint leaves the record hint out of a drift's line
// when the caller gives none.
func TestVerdictsWithoutHint(t *testing.T) {
	t.Parallel()
	r := testRun(t)
	r.Results = r.Results[5:6]
	r.Results[0].Stop = Stop{Kind: StopDrift, Error: r.Results[0].Reason}
	var got bytes.Buffer
	if _, err := WriteVerdicts(&got, r, VerdictOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "task-06-arxiv-2401-13919-abstract: replay_drift | cost $0.0051\n" +
		"  reason: call 3: args digest mismatch: recorded 9b1c…e2, got 51aa…07 (click {\"ref\":\"e14\"})\n" +
		"estimated cost: $0.0051 in total\n"
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
}
