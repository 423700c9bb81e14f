package runner_test

import (
	"cmp"
	"context"
	"strings"
	"testing"

	"contractbench/internal/report"
	"contractbench/internal/webreplay"
)

// A web that fails on purpose (a chaos test's 500s and dropped
// connections) ends the attempt as an error of the harness, whatever the
// judge saw, and the result names the requests it failed; a switch that
// stays off changes nothing.
func TestWebFaultsAreErrorsOfTheHarness(t *testing.T) {
	t.Parallel()
	for _, fault := range []webreplay.Fault{webreplay.FaultStatus, webreplay.FaultReset, webreplay.FaultNone} {
		t.Run(cmp.Or(string(fault), "off"), func(t *testing.T) {
			t.Parallel()
			cfg := newConfig(t, task(t, exampleTask))
			cfg.WebFaults = func() webreplay.Fault { return fault }
			run := runWithin(t, context.Background(), cfg)
			if len(run.Results) != 1 {
				t.Fatalf("%d results, want 1", len(run.Results))
			}
			res := run.Results[0]
			if fault == webreplay.FaultNone {
				if res.Outcome != report.OutcomePassed || len(res.WebFaults) != 0 {
					t.Errorf("%s (%s), web faults %v; want passed, none", res.Outcome, res.Reason, res.WebFaults)
				}
				return
			}
			want := "(fault injected: " + string(fault) + ")"
			if res.Outcome != report.OutcomeError || len(res.WebFaults) == 0 || !strings.HasSuffix(res.WebFaults[0], want) ||
				!strings.HasPrefix(res.Reason, "harness: the web failed on purpose") {
				t.Errorf("%s (%s), web faults %v; want error, each fault ending %q", res.Outcome, res.Reason, res.WebFaults, want)
			}
		})
	}
}
