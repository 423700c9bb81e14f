package report

import (
	"math"
	"reflect"
	"testing"
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
			lo, hi := Wilson(tc.k, tc.n, Z95)
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
			if got := median(tc.in); got != tc.want {
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
				Tasks: 10, Total: 10, Passed: 7, Score: 0.7,
				ByOutcome: map[Outcome]int{OutcomePassed: 7, OutcomeFailed: 1, OutcomeReplayDrift: 1, OutcomeError: 1},
				// durations 1500 + 250*i, i = 0..9: middle two are 2500 and 2750
				MedianDurationMS: 2625,
				// 2 + i%3, but the error result made 1 call:
				// 1 2 2 2 2 | 3 3 4 4 4
				MedianToolCalls:     2.5,
				MedianResponseBytes: 8500,
				TotalUSD:            10 * 0.0051,
				Tokens:              Tokens{Input: 10*1200 + 100*45, Output: 800, CacheRead: 6000},
			},
		},
		{
			name: "three tasks repeated three times",
			run:  testRepeatRun(t),
			want: Summary{
				Tasks: 3, Total: 9, Passed: 5, Score: 5.0 / 9,
				ByOutcome: map[Outcome]int{
					OutcomePassed: 5, OutcomeTimeout: 1, OutcomeBudgetExceeded: 1, OutcomeFailed: 2,
				},
				MedianDurationMS:    1500 + 250*5,
				MedianToolCalls:     3,
				MedianResponseBytes: 4000 + 1000*5,
				TotalUSD:            9 * 0.031,
				Tokens:              Tokens{Input: 9*1200 + 100*45, Output: 720, CacheRead: 5400},
			},
		},
		{
			name: "interrupted before most tasks",
			run: &Run{
				Settings:   Settings{Tasks: []string{"a", "b", "c"}, Repeat: 2},
				Incomplete: true,
				Results:    []TaskResult{{Task: "a", Attempt: 1, Outcome: OutcomePassed}},
			},
			want: Summary{Tasks: 1, Total: 1, Passed: 1, Score: 1, NotRun: 5, ByOutcome: map[Outcome]int{OutcomePassed: 1}},
		},
		{
			name: "empty",
			run:  &Run{},
			want: Summary{ByOutcome: map[Outcome]int{}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Summarize(tc.run)
			tc.want.Wilson95Low, tc.want.Wilson95High = Wilson(tc.want.Passed, tc.want.Total, Z95)
			if math.Abs(got.TotalUSD-tc.want.TotalUSD) < 1e-9 {
				got.TotalUSD = tc.want.TotalUSD
			}
			if math.Abs(got.Score-tc.want.Score) < 1e-12 {
				got.Score = tc.want.Score
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Summarize:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
