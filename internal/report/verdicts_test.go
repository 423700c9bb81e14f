package report

import (
	"bytes"
	"strings"
	"testing"

	"contractbench/internal/contract"
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

// The verdict on a browser the agent held itself carries the trust label
// and the tamper signals, gives every clause's evidence, and says at most
// that the contract held, never that the task passed.
func TestWriteUnrestrictedVerdict(t *testing.T) {
	t.Parallel()
	pc, err := contract.Parse([]byte("postconditions:\n  - {kind: url, pattern: 'done$'}\n  - kind: no_dialog\n"))
	if err != nil {
		t.Fatal(err)
	}
	note := "trust: unrestricted agent: " + UnrestrictedNote + "\n"
	for _, tc := range []struct {
		name string
		obs  contract.Observation
		want string
	}{
		{"held, the final page loaded", contract.Observation{URL: "https://a.test/done",
			Network: []contract.NetworkEntry{{URL: "https://a.test/done", Method: "GET", ResourceType: "Document", Status: 200}}},
			"t: final URL https://a.test/done\n" + note +
				"  ok   postconditions[0] (url): expected URL matches done$; saw https://a.test/done\n" +
				"  ok   postconditions[1] (no_dialog): expected no dialog opened; saw no dialog\n" +
				"t: contract held, not passed | trust: unrestricted agent\n"},
		{"failed, an address never loaded", contract.Observation{URL: "https://a.test/start"},
			"t: final URL https://a.test/start\n" + note +
				"tamper signal: the final URL https://a.test/start was never loaded: no document request for it is in the network log, so the address changed without a load (history API, or script run over CDP)\n" +
				"  FAIL postconditions[0] (url): expected URL matches done$; saw https://a.test/start\n" +
				"  ok   postconditions[1] (no_dialog): expected no dialog opened; saw no dialog\n" +
				"t: failed | failed_postcondition: postconditions[0] (url) | trust: unrestricted agent\n"},
	} {
		var out strings.Builder
		if err := WriteUnrestrictedVerdict(&out, "t", contract.Evaluate(pc, tc.obs, nil), &tc.obs); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.want {
			t.Errorf("%s: wrote\n%s\nwant\n%s", tc.name, out.String(), tc.want)
		}
	}
}
