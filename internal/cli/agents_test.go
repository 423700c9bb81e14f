package cli

// The example agents of examples/agents/ run through `run --agent exec`
// as a user runs them: real processes speaking MCP streamable HTTP to the
// harness (or, for the forging one, raw CDP to the browser), judged by
// contract on the hermetic fixture web.

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"contractbench/internal/report"
	"contractbench/internal/transcript/transcripttest"
)

// examplesDir holds the example agents, relative to this package. Agents
// run in this package's folder, so their commands name them from here.
const examplesDir = "../../examples/agents"

// agentEnv is the environment an agent command needs: a PATH to find its
// interpreter, and HOME for node.
func agentEnv() map[string]string {
	return map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")}
}

// needTool fails (or, outside CI, skips) a test whose interpreter is not
// installed.
func needTool(t *testing.T, name, hint string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("%s is not installed (%s); CI runs this test", name, hint)
		}
		t.Fatalf("%s is not installed: %s", name, hint)
	}
}

// gatePassedFor reports whether the gate lines of out say nothing against
// task: the gate passed, or it failed only on other tasks (a run of one
// task, when the gate still covers every baseline task).
func gatePassedFor(out, task string) bool {
	if hasLine(out, "gate: passed (1 / 1)") || strings.Contains(out, "\ngate: passed") {
		return true
	}
	_, gate, ok := strings.Cut(out, "\ngate: FAILED")
	if !ok {
		return false
	}
	for _, l := range strings.Split(gate, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, task+":") || strings.HasPrefix(l, "run:") {
			return false
		}
		if strings.HasPrefix(l, "task-") && !strings.Contains(l, "not run | covered by the baseline but absent from the run") {
			return false
		}
	}
	return true
}

func TestExampleAgents(t *testing.T) {
	t.Parallel()
	needTool(t, "node", "make peers installs it")
	tests := []struct {
		name  string
		cmd   string
		task  string
		calls []string
		// answer is the final answer, as the agent printed it.
		answer string
		need   func(t *testing.T)
	}{
		{
			name: "node with the MCP TypeScript SDK", cmd: "node " + examplesDir + "/mcp-agent.mjs",
			task: task01, calls: []string{"navigate", "read_page"}, answer: "Example Domain",
			need: func(t *testing.T) {
				if _, err := os.Stat("../../node_modules/@modelcontextprotocol/sdk/package.json"); err != nil && os.Getenv("CI") == "" {
					t.Skip("the MCP TypeScript SDK is not installed (make peers); CI installs it and runs this test")
				}
			},
		},
		{
			name: "python with the standard library", cmd: "python3 " + examplesDir + "/mcp_agent.py",
			task: "task-10-tc39-ecma262-strict-mode", calls: []string{"find", "click", "find", "click"},
			answer: "The section is 11.2.2 Strict Mode Code.",
			need:   func(t *testing.T) { needTool(t, "python3", "apt-get install python3") },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.need(t)
			out := t.TempDir()
			r := runE2E(t, agentEnv(), "run", "--suite", suiteDir, "--agent", "exec", "--agent-cmd", tc.cmd,
				"--task", tc.task, "--gate", "--out", out)
			if !hasLine(r.stdout, tc.task+": passed") || !gatePassedFor(r.stdout, tc.task) {
				t.Fatalf("want %s passed and the gate not against it, got %s", tc.task, r)
			}
			rep := readReport(t, out)
			res := rep.Results[0]
			// The built-in server is confined to each task's browser
			// context, which gets the replay web through its proxy.
			if s := rep.Settings; s.Isolate != "context" || s.Browsers != "launched" || s.WebRoute != "proxy" {
				t.Errorf("report says isolate %q, browsers %q, web route %q; want context, launched, proxy", s.Isolate, s.Browsers, s.WebRoute)
			}
			if md := readFile(t, out, "*.md"); !strings.Contains(md, "- browsers: launched, one per worker, a fresh browser context per task; the replay web through each context's proxy") {
				t.Errorf("the Markdown report does not say how the browsers ran:\n%s", md)
			}
			var calls []string
			for _, c := range res.Calls {
				calls = append(calls, c.Tool)
			}
			if !slices.Equal(calls, tc.calls) || res.ToolCalls != len(tc.calls) {
				t.Errorf("report's calls %q (tool_calls %d), want %q", calls, res.ToolCalls, tc.calls)
			}
			if res.Answer != tc.answer {
				t.Errorf("answer %q, want %q", res.Answer, tc.answer)
			}
			if rep.Settings.Agent != "exec" || rep.Settings.Trust != "" || res.Trust != "" {
				t.Errorf("settings agent %q trust %q, result trust %q: want exec and no trust label", rep.Settings.Agent, rep.Settings.Trust, res.Trust)
			}
		})
	}
}

// The forging agent rewrites the page over raw CDP so that task-09's
// contract holds without any search. With --agent-cdp that is possible,
// and the result is labelled in every output, never passed, and fails the
// gate.
func TestForgingAgentIsNeverAPass(t *testing.T) {
	t.Parallel()
	needTool(t, "node", "make peers installs it")
	const task = "task-09-wikipedia-speed-of-light"
	cmd := "node --experimental-websocket " + examplesDir + "/forge-agent.mjs"
	out := t.TempDir()
	r := runE2E(t, agentEnv(), "run", "--suite", suiteDir, "--agent", "exec", "--agent-cdp", "--agent-cmd", cmd,
		"--task", task, "--gate", "--out", out)
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d", r.code, exitFailed)
	}
	for _, line := range []string{
		task + ": tainted | trust: unrestricted agent",
		"  run: trust: unrestricted agent: " + report.UnrestrictedNote,
	} {
		if !hasLine(r.stdout, line) {
			t.Errorf("stdout lacks the line %q:\n%s", line, r)
		}
	}
	rep := readReport(t, out)
	res := rep.Results[0]
	if rep.Settings.Trust != report.TrustUnrestricted || res.Trust != report.TrustUnrestricted || res.Outcome != report.OutcomeTainted {
		t.Errorf("report: settings trust %q, result trust %q, outcome %s; want unrestricted, unrestricted, tainted",
			rep.Settings.Trust, res.Trust, res.Outcome)
	}
	// The forgery worked: every clause held. That is what the label is for.
	if res.Failed != nil {
		t.Errorf("failed clause %s: the forgery was meant to satisfy the contract", res.Failed.String())
	}
	if s := report.Summarize(rep); s.Passed != 0 {
		t.Errorf("summary counts %d passed, want 0", s.Passed)
	}
	md := readFile(t, out, "*.md")
	if !strings.Contains(md, "- trust: **unrestricted agent**") || !strings.Contains(md, "| tainted (trust: unrestricted agent) |") {
		t.Errorf("the Markdown report does not show the label:\n%s", md)
	}
	junit := readFile(t, out, "junit.xml")
	if !strings.Contains(junit, `<property name="trust" value="unrestricted agent">`) || !strings.Contains(junit, "tainted | trust: unrestricted agent") {
		t.Errorf("the JUnit report does not show the label:\n%s", junit)
	}

	// Without --agent-cdp the same agent has nothing to forge with.
	out = t.TempDir()
	r = runE2E(t, agentEnv(), "run", "--suite", suiteDir, "--agent", "exec", "--agent-cmd", cmd, "--task", task, "--out", out)
	if hasLine(r.stdout, task+": passed") || strings.Contains(r.stdout, "tainted") {
		t.Errorf("without --agent-cdp the forging agent must fail, got %s", r)
	}
}

// The CDP-native example drives the browser with Playwright over
// CONTRACTBENCH_CDP_URL and does task-09 for real, searching Wikipedia:
// the contract holds, as it does for the forging agent on the same task.
// Its run is still labelled, its one number is how often the contract
// held, on a line of its own in stdout, every report and the board, never
// a pass, and the gate fails.
func TestPlaywrightAgentIsLabelledNotScored(t *testing.T) {
	t.Parallel()
	needTool(t, "node", "make peers installs it")
	if _, err := os.Stat("../../node_modules/playwright-core/package.json"); err != nil && os.Getenv("CI") == "" {
		t.Skip("playwright-core is not installed (make peers); CI installs it and runs this test")
	}
	const (
		task = "task-09-wikipedia-speed-of-light"
		held = "contract held 1 / 1 (unrestricted: the agent could write the evidence)"
	)
	out := t.TempDir()
	r := runE2E(t, agentEnv(), "run", "--suite", suiteDir, "--agent", "exec", "--agent-cdp",
		"--agent-cmd", "node "+examplesDir+"/playwright-cdp-agent.mjs", "--task", task, "--gate", "--out", out)
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d", r.code, exitFailed)
	}
	for _, line := range []string{
		task + ": tainted | trust: unrestricted agent",
		held,
		"  run: trust: unrestricted agent: " + report.UnrestrictedNote,
	} {
		if !hasLine(r.stdout, line) {
			t.Errorf("stdout lacks the line %q:\n%s", line, r)
		}
	}
	if !strings.Contains(r.stdout, "\ngate: FAILED") {
		t.Errorf("the gate did not fail:\n%s", r)
	}

	rep := readReport(t, out)
	res := rep.Results[0]
	if res.Outcome != report.OutcomeTainted || res.Trust != report.TrustUnrestricted || res.Failed != nil {
		t.Errorf("result: %s, trust %q, failed clause %s; want tainted, unrestricted, none (%s)", res.Outcome, res.Trust, res.Failed.String(), res.Reason)
	}
	// Playwright, not the harness's tools, drove the browser, and the
	// judge saw the search it made.
	const answer = "The speed of light in vacuum is exactly 299,792,458 metres per second."
	if len(res.Calls) != 0 || res.Answer != answer {
		t.Errorf("%d tool calls, answer %q; want none and %q", len(res.Calls), res.Answer, answer)
	}
	if obs := res.Observation; obs == nil || len(report.TamperSignals(obs)) != 0 {
		t.Errorf("observation %v: want one with no tamper signal, the page was loaded", obs != nil)
	}
	s := report.Summarize(rep)
	if s.Passed != 0 || s.Held == nil || s.Held.String() != held || s.PassK != nil || s.Detectable != nil {
		t.Errorf("summary: passed %d, held %v, pass_k %v, detectable %v; want 0, %q and neither", s.Passed, s.Held, s.PassK, s.Detectable, held)
	}
	for _, view := range []struct{ file, want string }{
		{"*.md", "## Unrestricted agent\n\n**" + held + "**\n"},
		{"*.html", `<p class="held">` + held + `</p>`},
		{"junit.xml", `<property name="contract_held" value="` + held + `">`},
	} {
		if got := readFile(t, out, view.file); !strings.Contains(got, view.want) {
			t.Errorf("%s lacks %q", view.file, view.want)
		}
	}

	jsons, err := filepath.Glob(filepath.Join(out, "*.json"))
	if err != nil || len(jsons) != 1 {
		t.Fatalf("want one JSON report, found %q (%v)", jsons, err)
	}
	page := filepath.Join(t.TempDir(), "board.html")
	if b := run(t, nil, "board", "-o", page, jsons[0]); b.code != exitOK {
		t.Fatalf("board: %s", b)
	}
	board, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(board), `<td class="held">`+held+`</td>`) || strings.Contains(string(board), `<table class="ranking">`) {
		t.Errorf("the board does not list the run apart with %q", held)
	}
}

// readFile reads the one file of dir matching pattern.
func readFile(t *testing.T, dir, pattern string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(files) != 1 {
		t.Fatalf("%s/%s: want one file, found %q (%v)", dir, pattern, files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestExecAgentUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", []string{"--agent", "exec"}, "--agent exec needs --agent-cmd"},
		{"command without exec", []string{"--agent-cmd", "true"}, "--agent-cmd applies only with --agent exec"},
		{"cdp without exec", []string{"--agent-cdp"}, "--agent-cdp applies only with --agent exec"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, nil, append([]string{"run", "--suite", suiteDir, "--task", task01}, tc.args...)...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("want exit %d and %q, got %s", exitUsage, tc.want, r)
			}
		})
	}
}

// contractbench judge grades a browser the agent held itself: whatever
// the verdict, it carries the label, and it is never "passed".
func TestJudgeLabelsItsVerdict(t *testing.T) {
	t.Parallel()
	r := runE2E(t, nil, "judge", "--suite", suiteDir, "--task", task01, "--browser-url", e2e.browserURL, "--now")
	if !hasLine(r.stdout, "trust: unrestricted agent: "+report.UnrestrictedNote) {
		t.Errorf("judge output lacks the trust line:\n%s", r)
	}
	// --now sees no network, so task-01's network clause fails.
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	last := lines[len(lines)-1]
	if r.code != exitFailed || !strings.HasPrefix(last, task01+": failed | failed_postcondition: ") || !strings.HasSuffix(last, " | trust: unrestricted agent") {
		t.Errorf("want exit %d and a labelled failure as the last line, got %s", exitFailed, r)
	}
	if strings.Contains(r.stdout, ": passed") {
		t.Errorf("judge said passed:\n%s", r)
	}
}

// An outside agent's tool calls are recorded like any agent's, and the
// transcript replays: the replay agent plays its calls against the same
// task and the judge grades the result again.
func TestOutsideAgentRecordsAndReplays(t *testing.T) {
	t.Parallel()
	needTool(t, "python3", "apt-get install python3")
	const task = "task-10-tc39-ecma262-strict-mode"
	dir := t.TempDir()
	r := runE2E(t, agentEnv(), "record", "--suite", suiteDir, "--agent", "exec", "--agent-cmd", "python3 "+examplesDir+"/mcp_agent.py",
		"--model", "scripted", "--task", task, "--out", dir)
	if r.code != exitOK {
		t.Fatalf("record: %s", r)
	}
	tr, err := transcripttest.ReadFile(filepath.Join(dir, task+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Header.RecordedBy != "exec:scripted" || len(tr.Calls) != 4 || tr.Final == nil || tr.Final.Answer != "The section is 11.2.2 Strict Mode Code." {
		t.Errorf("transcript: recorded_by %q, %d calls, final %+v; want exec:scripted, 4 calls and the agent's answer",
			tr.Header.RecordedBy, len(tr.Calls), tr.Final)
	}
	r = runE2E(t, nil, "run", "--suite", suiteDir, "--task", task, "--transcripts", dir, "--out", t.TempDir())
	if r.code != exitOK || !hasLine(r.stdout, task+": passed") {
		t.Errorf("replaying the outside agent's transcript: %s", r)
	}
}
