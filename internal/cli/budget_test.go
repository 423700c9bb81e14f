package cli

// Budget caps through the CLI: a task spec lowers a cap, the fake Messages
// API goes past it, and the task ends as budget_exceeded. Raising a cap is
// refused before anything runs.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
			if r.code != exitFailed {
				t.Fatalf("want exit %d, got:\n%v", exitFailed, r)
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
			if r.code != exitUsage {
				t.Fatalf("want exit %d, got:\n%v", exitUsage, r)
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

// A total budget stops a paid run before the spend could pass it: the
// second attempt would be admitted only if what the first spent plus its
// own cap stayed within the total. The worst case is printed first.
func TestTotalBudgetStopsTheRun(t *testing.T) {
	t.Parallel()
	suite := suiteCopy(t, nil, task01)
	// 10,000 input tokens at $3 per million and 100 output tokens at $15:
	// $0.0315 for the first attempt, whose cap is the default $0.50.
	turn := llmfake.Usage{InputTokens: 10000, OutputTokens: 100}
	fake := fakeAnthropic(t, []llmfake.Turn{
		{ToolCalls: []llmfake.ToolCall{navigateExample}, Usage: turn},
		{ToolCalls: []llmfake.ToolCall{readPageText}, Usage: llmfake.Usage{}},
		{Text: task01Answer, Usage: llmfake.Usage{}},
	})
	out := t.TempDir()
	r := runE2E(t, paidEnv(fake, "sk-ant-test-total"), "run", "--suite", suite, "--agent", "claude", "--repeat", "2",
		"--model", "claude-test-unlisted", "--price", "claude-test-unlisted=3,15", "--max-total-usd", "0.52", "--out", out)
	if r.code != exitFailed {
		t.Fatalf("want exit %d, got:\n%v", exitFailed, r)
	}
	checkFakeServed(t, fake)
	for _, want := range []string{
		"worst-case spend: 2 attempts (tasks × repeats), each capped at its max_usd: $1.00 in all; --max-total-usd stops it at $0.52",
		"stopped at --max-total-usd 0.52: $0.0315 spent",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "interrupted") {
		t.Errorf("a budget stop is reported as an interruption:\n%s", r.stderr)
	}
	rep := readReport(t, out)
	if !rep.Incomplete || len(rep.Results) != 1 || rep.Results[0].Outcome != report.OutcomePassed {
		t.Errorf("report: incomplete %v, %d results; want incomplete with the first attempt passed", rep.Incomplete, len(rep.Results))
	}
	if n := len(fake.Requests()); n != 3 {
		t.Errorf("the fake API got %d requests, want the first attempt's 3", n)
	}
}

// A total below one attempt's cap could start nothing: refused before
// anything runs.
func TestTotalBudgetBelowOneAttempt(t *testing.T) {
	t.Parallel()
	suite := suiteCopy(t, nil, task01)
	fake := fakeAnthropic(t, task01Script(llmfake.Usage{InputTokens: 10, OutputTokens: 10}))
	r := runE2E(t, paidEnv(fake, "sk-ant-test-total"), "run", "--suite", suite, "--agent", "claude", "--max-total-usd", "0.2", "--out", t.TempDir())
	if r.code != exitUsage || !strings.Contains(r.stderr, "--max-total-usd 0.20 is below the $0.50 cap of one attempt") {
		t.Fatalf("want exit %d naming the cap, got:\n%v", exitUsage, r)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("the fake API got %d requests", n)
	}
}

// compare runs a paid agent against every named server with the same
// tasks and caps, after printing the worst case over all of them.
func TestCompareWithAPaidAgent(t *testing.T) {
	t.Parallel()
	requirePeers(t)
	suite := suiteCopy(t, nil, task01)
	serversFile, err := filepath.Abs("../../benchmarks/servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	u := llmfake.Usage{InputTokens: 100, OutputTokens: 10}
	// The model plays task-01 on the built-in server, then on
	// Playwright's, with each server's own tools.
	script := append(task01Script(u),
		llmfake.Turn{ToolCalls: []llmfake.ToolCall{{Name: "browser_navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}}, Usage: u},
		llmfake.Turn{ToolCalls: []llmfake.ToolCall{{Name: "browser_snapshot", Args: json.RawMessage(`{}`)}}, Usage: u},
		llmfake.Turn{Text: task01Answer, Usage: u})
	fake := fakeAnthropic(t, script)
	out := t.TempDir()
	r := runE2E(t, paidEnv(fake, "sk-ant-test-compare"), "compare", "--suite", suite, "--servers", serversFile,
		"--server", "builtin,playwright", "--agent", "claude", "--out", out)
	if r.code != exitOK {
		t.Fatalf("want exit %d, got:\n%v", exitOK, r)
	}
	checkFakeServed(t, fake)
	if want := "worst-case spend: 2 attempts (tasks × repeats × 2 servers), each capped at its max_usd: $1.00 in all"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	runs := 0
	for _, f := range filesUnder(t, out) {
		if !strings.HasSuffix(f, ".json") {
			continue
		}
		rep := readReportFile(t, f)
		res := onlyResult(t, rep)
		if rep.Settings.Agent != llm.NameAnthropic || res.Outcome != report.OutcomePassed {
			t.Errorf("%s: agent %s, outcome %s; want %s passed", f, rep.Settings.Agent, res.Outcome, llm.NameAnthropic)
		}
		runs++
	}
	if runs != 2 {
		t.Errorf("%d reports, want one per server", runs)
	}
	if strings.Contains(r.stdout+r.stderr, "sk-ant-test-compare") {
		t.Error("the key reached the output")
	}
}

// readReportFile reads the JSON report at file.
func readReportFile(t *testing.T, file string) *report.Run {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r
}
