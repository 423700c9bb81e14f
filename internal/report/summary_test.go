package report

import (
	"math"
	"reflect"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/stats"
)

func TestWilson(t *testing.T) {
	t.Parallel()
	// Reference values from the closed form, rounded to three places as
	// statistics tables print them.
	tests := []struct {
		name   string
		k, n   int
		lo, hi float64
	}{
		{"8 of 10", 8, 10, 0.490, 0.943},
		{"7 of 10", 7, 10, 0.397, 0.892},
		{"10 of 10", 10, 10, 0.722, 1.000},
		{"0 of 10", 0, 10, 0.000, 0.278},
		{"1 of 2", 1, 2, 0.095, 0.905},
		{"2 of 3", 2, 3, 0.208, 0.939},
		{"nothing run", 0, 0, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lo, hi := stats.Wilson95(tc.k, tc.n)
			if math.Abs(lo-tc.lo) > 0.0005 || math.Abs(hi-tc.hi) > 0.0005 {
				t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.3f, %.3f]", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
			}
			if lo < 0 || hi > 1 || lo > hi {
				t.Errorf("Wilson(%d, %d) = [%v, %v] is not an interval inside [0, 1]", tc.k, tc.n, lo, hi)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []float64
		want float64
	}{
		{"none", nil, 0},
		{"one", []float64{7}, 7},
		{"odd, unsorted", []float64{9, 1, 5}, 5},
		{"even takes the mean of the middle two", []float64{4, 1, 3, 2}, 2.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Median(tc.in); got != tc.want {
				t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  *Run
		want Summary
	}{
		{
			name: "ten tasks, mixed outcomes",
			run:  testRun(t),
			want: Summary{
				Denominator: Denominator{Passed: 7, Failed: 2, HarnessError: 1, Interrupted: 0, NotRun: 0, Counts: scoreCounts},
				Tasks:       10, Total: 10, Passed: 7, Score: 0.7,
				ByOutcome: map[Outcome]int{OutcomePassed: 7, OutcomeFailed: 1, OutcomeReplayDrift: 1, OutcomeError: 1},
				// durations 1500 + 250*i, i = 0..9: middle two are 2500 and 2750
				MedianDurationMS: 2625,
				// 2 + i%3, but the error result made 1 call:
				// 1 2 2 2 2 | 3 3 4 4 4
				MedianToolCalls:     2.5,
				MedianResponseBytes: 8500,
				TotalUSD:            10 * 0.0051,
				Tokens:              Tokens{Input: 10*1200 + 100*45, Output: 800, CacheRead: 6000},
				// Ten tasks cannot detect even 50% → 100% with 80% power.
				Detectable: planned(10, 1, 0),
			},
		},
		{
			name: "three tasks repeated three times",
			run:  testRepeatRun(t),
			want: Summary{
				Denominator: Denominator{Passed: 5, Failed: 4, HarnessError: 0, Interrupted: 0, NotRun: 0, Counts: scoreCounts},
				Tasks:       3, Total: 9, Passed: 5, Score: 5.0 / 9,
				ByOutcome: map[Outcome]int{
					OutcomePassed: 5, OutcomeTimeout: 1, OutcomeBudgetExceeded: 1, OutcomeFailed: 2,
				},
				MedianDurationMS:    1500 + 250*5,
				MedianToolCalls:     3,
				MedianResponseBytes: 4000 + 1000*5,
				TotalUSD:            9 * 0.031,
				Tokens:              Tokens{Input: 9*1200 + 100*45, Output: 720, CacheRead: 5400},
				// Passes 3, 2 and 0 of 3: pass@2 = (1 + 1 + 0)/3 since a task
				// with one failure passes in any two attempts, pass^2 =
				// (1 + C(2,2)/C(3,2) + 0)/3.
				PassK: &PassK{K: 3,
					ByK: []PassKValue{{1, 5.0 / 9, 5.0 / 9}, {2, 2.0 / 3, 4.0 / 9}, {3, 2.0 / 3, 1.0 / 3}},
					Tasks: []TaskPassK{
						{webvoyagerTasks[0], 3, 3, 1, 1, false},
						{webvoyagerTasks[1], 2, 3, 1, 0, true},
						{webvoyagerTasks[2], 0, 3, 0, 0, false},
					}, Flipped: 1, FlipRate: 1.0 / 3},
				Detectable: planned(3, 3, 0),
			},
		},
		{
			name: "interrupted before most tasks",
			run: &Run{
				Settings:   Settings{Tasks: []string{"a", "b", "c"}, Repeat: 2},
				Incomplete: true,
				Results:    []TaskResult{{Task: "a", Attempt: 1, Outcome: OutcomePassed}},
			},
			want: Summary{Denominator: Denominator{Passed: 1, Failed: 0, HarnessError: 0, Interrupted: 0, NotRun: 5, Counts: scoreCounts}, Tasks: 1, Total: 1, Passed: 1, Score: 1, NotRun: 5, ByOutcome: map[Outcome]int{OutcomePassed: 1},
				Detectable: planned(1, 1, 0)},
		},
		{
			name: "unrestricted agent",
			run: &Run{
				Settings: Settings{Tasks: []string{"a", "b"}, Repeat: 2, Trust: TrustUnrestricted},
				Results: []TaskResult{
					held("a", 1, OutcomeTainted), held("a", 2, OutcomeTainted), held("b", 1, OutcomeTainted),
					{Task: "b", Attempt: 2, Outcome: OutcomeFailed, Failed: &Clause{Path: "postconditions[0]"},
						Evidence: []contract.Evidence{{Path: "postconditions[0]"}}},
				},
			},
			// No pass@k and no detectable difference: neither is a
			// number of a labelled run.
			want: Summary{Denominator: Denominator{Passed: 0, Failed: 4, HarnessError: 0, Interrupted: 0, NotRun: 0, Counts: scoreCounts}, Tasks: 2, Total: 4, NotRun: 0, ByOutcome: map[Outcome]int{OutcomeTainted: 3, OutcomeFailed: 1},
				Held: &Held{Trust: TrustUnrestricted, Held: 3, Judged: 4}},
		},
		{
			name: "empty",
			run:  &Run{},
			want: Summary{Denominator: Denominator{Passed: 0, Failed: 0, HarnessError: 0, Interrupted: 0, NotRun: 0, Counts: scoreCounts}, ByOutcome: map[Outcome]int{}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Summarize(tc.run)
			tc.want.Wilson95Low, tc.want.Wilson95High = stats.Wilson95(tc.want.Passed, tc.want.Total)
			if math.Abs(got.TotalUSD-tc.want.TotalUSD) < 1e-9 {
				got.TotalUSD = tc.want.TotalUSD
			}
			if math.Abs(got.Score-tc.want.Score) < 1e-12 {
				got.Score = tc.want.Score
			}
			// The means over tasks are equal to the fractions above up
			// to rounding.
			if got.PassK != nil && tc.want.PassK != nil && len(got.PassK.ByK) == len(tc.want.PassK.ByK) {
				for i, v := range got.PassK.ByK {
					if w := tc.want.PassK.ByK[i]; math.Abs(v.PassAtK-w.PassAtK) < 1e-12 && math.Abs(v.PassHatK-w.PassHatK) < 1e-12 {
						got.PassK.ByK[i] = w
					}
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Summarize:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// planned is the Detectable of tasks judged k times each, whose smallest
// detectable improvement is diff.
func planned(tasks, k int, diff float64) *Detectable {
	return &Detectable{Tasks: tasks, Repeats: k, Baseline: 0.5, Corr: 0.5, AttemptCorr: 0.5, Alpha: 0.05, Power: 0.8, Diff: diff}
}

// held is an attempt whose contract held.
func held(task string, attempt int, o Outcome) TaskResult {
	return TaskResult{Task: task, Attempt: attempt, Outcome: o, Trust: TrustUnrestricted,
		Evidence: []contract.Evidence{{Path: "postconditions[0]", Passed: true}}}
}
