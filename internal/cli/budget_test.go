package cli

// Budget caps through the CLI: a task spec lowers a cap, the fake Messages
// API goes past it, and the task ends as budget_exceeded. Raising a cap is
// refused before anything runs.

import (
	"fmt"
	"strings"
	"testing"

	"contractbench/internal/llm"
	"contractbench/internal/llm/llmfake"
	"contractbench/internal/report"
)

// withBudget returns an edit for suiteCopy that gives task-01 a budget
// block.
func withBudget(block string) func(string, []byte) []byte {
	return func(_ string, spec []byte) []byte {
		return append(spec, []byte("budget:\n"+block)...)
	}
}

func TestBudgetCapsEndTheTask(t *testing.T) {
	t.Parallel()
	small := llmfake.Usage{InputTokens: 500, OutputTokens: 40}
	tests := []struct {
		name   string
		budget string
		script []llmfake.Turn
		flags  []string
		// wantMaxTokens is the max_tokens every request must carry.
		wantMaxTokens int
		wantReason    string
	}{
		{
			// The model asks for a second tool call; the cap allows one.
			name:          "max_tool_iterations",
			budget:        "  max_tool_iterations: 1\n",
			script:        task01Script(small),
			wantMaxTokens: llm.MaxTokensPerTurn,
			wantReason:    "budget exceeded: max_tool_iterations: 2 tool calls, cap 1",
		},
		{
			// One response costs more than the whole task may, at the
			// price given on the command line for a model the table
			// lacks: 10000 * $2 + 1000 * $10 per million tokens.
			name:   "max_usd",
			budget: "  max_usd: 0.01\n",
			script: []llmfake.Turn{
				{ToolCalls: []llmfake.ToolCall{navigateExample}, Usage: llmfake.Usage{InputTokens: 10000, OutputTokens: 1000}},
				{Text: task01Answer, Usage: small},
			},
			flags:         []string{"--model", "claude-test-unlisted", "--price", "claude-test-unlisted=2,10"},
			wantMaxTokens: llm.MaxTokensPerTurn,
			wantReason:    "budget exceeded: max_usd: spent $0.0300, cap $0.0100",
		},
		{
			// The lowered cap is sent as max_tokens; a server that
			// answers with more output anyway still ends the task.
			name:   "max_tokens_per_turn",
			budget: "  max_tokens_per_turn: 256\n",
			script: []llmfake.Turn{
				{ToolCalls: []llmfake.ToolCall{navigateExample}, Usage: llmfake.Usage{InputTokens: 500, OutputTokens: 300}},
				{Text: task01Answer, Usage: small},
			},
			wantMaxTokens: 256,
			wantReason:    "budget exceeded: max_tokens_per_turn: a turn produced 300 output tokens, cap 256",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			suite := suiteCopy(t, withBudget(tc.budget), task01)
			fake := fakeAnthropic(t, tc.script)
			out := t.TempDir()
			args := append([]string{"run", "--suite", suite, "--agent", "claude", "--out", out}, tc.flags...)
			r := runE2E(t, paidEnv(fake, "sk-ant-test-budget"), args...)
			if r.code != ExitFailed {
				t.Fatalf("want exit %d, got:\n%v", ExitFailed, r)
			}
			checkFakeServed(t, fake)
			if !hasLine(r.stdout, "  reason: "+tc.wantReason) {
				t.Errorf("stdout lacks the reason %q:\n%s", tc.wantReason, r.stdout)
			}
			if line := lineWithPrefix(r.stdout, task01+": "); !strings.HasPrefix(line, task01+": budget_exceeded") {
				t.Errorf("verdict line %q, want %s: budget_exceeded", line, task01)
			}
			for i, got := range sentMaxTokens(t, fake) {
				if got != tc.wantMaxTokens {
					t.Errorf("request %d: max_tokens %d, want %d", i, got, tc.wantMaxTokens)
				}
			}
			rep := readReport(t, out)
			res := onlyResult(t, rep)
			if res.Outcome != report.OutcomeBudgetExceeded || res.Reason != tc.wantReason {
				t.Errorf("report: outcome %s, reason %q; want %s, %q", res.Outcome, res.Reason, report.OutcomeBudgetExceeded, tc.wantReason)
			}
			// The run's caps are the defaults; the task lowered its own.
			if rep.Settings.Caps.MaxToolIterations != llm.MaxToolIterations {
				t.Errorf("report: run caps %+v, want the defaults", rep.Settings.Caps)
			}
		})
	}
}

func TestBudgetCannotBeRaised(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, budget, want string }{
		{"max_tool_iterations", fmt.Sprintf("  max_tool_iterations: %d\n", llm.MaxToolIterations+1), "max_tool_iterations 51 would raise the cap of 50"},
		{"max_usd", "  max_usd: 0.75\n", "max_usd 0.75 would raise the cap of 0.50"},
		{"max_tokens_per_turn", "  max_tokens_per_turn: 8192\n", "max_tokens_per_turn 8192 would raise the cap of 4096"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			suite := suiteCopy(t, withBudget(tc.budget), task01)
			fake := fakeAnthropic(t, task01Script(llmfake.Usage{InputTokens: 10, OutputTokens: 10}))
			out := t.TempDir()
			r := runE2E(t, paidEnv(fake, "sk-ant-test-budget"), "run", "--suite", suite, "--agent", "claude", "--out", out)
			if r.code != ExitUsage {
				t.Fatalf("want exit %d, got:\n%v", ExitUsage, r)
			}
			if !strings.Contains(r.stderr, task01+".yaml: budget:") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr does not name the task file and say %q:\n%s", tc.want, r.stderr)
			}
			if n := len(fake.Requests()); n != 0 {
				t.Errorf("the fake API got %d requests; a refused run must not call it", n)
			}
			if files := filesUnder(t, out); len(files) != 0 {
				t.Errorf("a refused run wrote %q", files)
			}
		})
	}
}
