package runner

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"contractbench/internal/agent"
	"contractbench/internal/contract"
	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// The agent's outcome and the judge's verdict, as the runner records them,
// decide the result as they always did: the reasons here are the runner's
// own from before report.Decide decided them.
func TestDecide(t *testing.T) {
	t.Parallel()
	drift := &llm.DriftError{Seq: 2, Reason: "read_page answered error, the recording says ok"}
	stale := &llm.DriftError{Stale: true, Reason: "the transcript is stale: it was recorded for task digest sha256:1, ..."}
	budget := &llm.BudgetExceededError{Cap: llm.CapMaxToolIterations, Limit: 50, Seen: 51}
	toolServer := fmt.Errorf("tool server: %w", errors.New("mcp: call navigate: connection closed"))
	pass := contract.Verdict{Passed: true, Evidence: []contract.Evidence{{Path: "postconditions[0]", Kind: contract.KindURL, Passed: true}}}
	fail := contract.Verdict{FailedPath: "postconditions[0]", FailedKind: contract.KindURL}
	misses := []string{"GET https://example.com/a", "GET https://example.com/b"}
	const missText = "replay misses: GET https://example.com/a, GET https://example.com/b"

	tests := []struct {
		name    string
		stop    agent.Stop
		err     error
		verdict contract.Verdict
		misses  []string

		want       report.Outcome
		wantReason string
		wantDrift  string
	}{
		{name: "answer, contract holds", stop: agent.StopAnswer, verdict: pass, want: report.OutcomePassed},
		{name: "answer, contract holds, misses stay out of a pass", stop: agent.StopAnswer, verdict: pass, misses: misses,
			want: report.OutcomePassed},
		{name: "answer, contract fails", stop: agent.StopAnswer, verdict: fail, want: report.OutcomeFailed},
		{name: "answer, contract fails, with misses", stop: agent.StopAnswer, verdict: fail, misses: misses,
			want: report.OutcomeFailed, wantReason: missText},
		{name: "drift, contract fails", stop: agent.StopDrift, err: drift, verdict: fail,
			want:       report.OutcomeFailed,
			wantReason: "contract failed; replay also drifted: " + drift.Error(),
			wantDrift:  drift.Error()},
		{name: "drift, contract holds", stop: agent.StopDrift, err: drift, verdict: pass,
			want: report.OutcomeReplayDrift, wantReason: drift.Error(), wantDrift: drift.Error()},
		{name: "stale transcript: drift whatever the contract says", stop: agent.StopDrift, err: stale, verdict: fail,
			want: report.OutcomeReplayDrift, wantReason: "transcript not replayed: " + stale.Error(), wantDrift: stale.Error()},
		{name: "drift with misses", stop: agent.StopDrift, err: drift, verdict: pass, misses: misses,
			want: report.OutcomeReplayDrift, wantReason: drift.Error() + "; " + missText, wantDrift: drift.Error()},
		{name: "budget, whatever the contract says", stop: agent.StopBudget, err: budget, verdict: pass,
			want: report.OutcomeBudgetExceeded, wantReason: budget.Error()},
		{name: "budget with misses", stop: agent.StopBudget, err: budget, verdict: fail, misses: misses,
			want: report.OutcomeBudgetExceeded, wantReason: budget.Error() + "; " + missText},
		{name: "interrupted", stop: agent.StopInterrupted, err: context.Canceled, verdict: pass,
			want: report.OutcomeInterrupted, wantReason: "interrupted: the run was stopped before the agent finished"},
		{name: "timeout", stop: agent.StopTimeout, err: context.DeadlineExceeded, verdict: pass,
			want: report.OutcomeTimeout, wantReason: "the task's timeout passed before the agent answered"},
		{name: "timeout with misses", stop: agent.StopTimeout, err: context.DeadlineExceeded, verdict: fail, misses: misses,
			want: report.OutcomeTimeout, wantReason: "the task's timeout passed before the agent answered; " + missText},
		{name: "error", stop: agent.StopError, err: toolServer, verdict: pass,
			want: report.OutcomeError, wantReason: toolServer.Error()},
		{name: "error with misses", stop: agent.StopError, err: toolServer, verdict: fail, misses: misses,
			want: report.OutcomeError, wantReason: toolServer.Error() + "; " + missText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := &report.TaskResult{WebMisses: tt.misses}
			fillAgent(res, &agent.Outcome{Stop: tt.stop, Err: tt.err})
			res.SetVerdict(tt.verdict)
			res.Decide()
			if res.Outcome != tt.want || res.Reason != tt.wantReason || res.Drift() != tt.wantDrift {
				t.Errorf("decide(%s, passed=%v, %d misses) =\n  outcome %s, reason %q, drift %q\nwant\n  outcome %s, reason %q, drift %q",
					tt.stop, tt.verdict.Passed, len(tt.misses), res.Outcome, res.Reason, res.Drift(), tt.want, tt.wantReason, tt.wantDrift)
			}
			if tt.err == stale && (res.Failed != nil || res.Evidence != nil) {
				t.Errorf("a stale transcript keeps the judge's verdict (failed %v, %d evidence): the judge saw the start page", res.Failed, len(res.Evidence))
			}
		})
	}
}

func TestErrorResultMarksHarnessFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want string
	}{
		{name: "a stage of the harness names itself", err: &harnessError{"browser", errors.New("ended during the task")},
			want: "browser: ended during the task"},
		{name: "anything else is marked as the harness's", err: errors.New("task x: budget: negative"),
			want: "harness: task x: budget: negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := errorResult(&report.TaskResult{}, tt.err)
			if res.Outcome != report.OutcomeError || res.Reason != tt.want {
				t.Errorf("errorResult(%v) = %s, %q; want error, %q", tt.err, res.Outcome, res.Reason, tt.want)
			}
		})
	}
}

func TestTaskCaps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		budget  suite.Budget
		want    llm.Caps
		wantErr bool
	}{
		{name: "no overrides keep the defaults", want: llm.DefaultCaps()},
		{name: "a lowered cap applies", budget: suite.Budget{MaxToolIterations: 5, MaxUSD: 0.1},
			want: llm.Caps{MaxTokensPerTurn: llm.MaxTokensPerTurn, MaxToolIterations: 5, MaxUSD: 0.1}},
		{name: "a raised cap is refused", budget: suite.Budget{MaxUSD: 5}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			caps, err := llm.DefaultCaps().Lower(taskCaps(tt.budget))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Lower(taskCaps(%+v)) error = %v, want error %v", tt.budget, err, tt.wantErr)
			}
			if err == nil && caps != tt.want {
				t.Errorf("Lower(taskCaps(%+v)) = %+v, want %+v", tt.budget, caps, tt.want)
			}
		})
	}
}
