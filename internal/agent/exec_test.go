package agent_test

import (
	"context"
	"contractbench/internal/agent/agenttest"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/agent"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
)

// The outside agent of these tests is this test binary itself, started
// again with testAgentVar set to a plan: a real process that speaks MCP
// streamable HTTP with the official SDK's client, as any agent would.
const testAgentVar = "CONTRACTBENCH_TEST_AGENT_PLAN"

func TestMain(m *testing.M) {
	if plan := os.Getenv(testAgentVar); plan != "" {
		os.Exit(testAgent(plan))
	}
	os.Exit(m.Run())
}

// testAgent plays plan: tool calls "tool:text" separated by commas, then
// the usage it reports (a JSON file content in CONTRACTBENCH_TEST_USAGE),
// then its answer: the instruction it was given and the tools it saw.
func testAgent(plan string) int {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: os.Getenv("CONTRACTBENCH_MCP_URL")}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test agent: connect:", err)
		return 1
	}
	defer cs.Close()
	var tools []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "test agent: tools:", err)
			return 1
		}
		tools = append(tools, tool.Name)
	}
	var seen []string
	for _, step := range strings.Split(plan, ",") {
		name, text, _ := strings.Cut(step, ":")
		if name == "none" {
			continue
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"text": text}})
		if err != nil {
			fmt.Fprintln(os.Stderr, "test agent: call:", err)
			return 1
		}
		got := ""
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				got += t.Text
			}
		}
		seen = append(seen, fmt.Sprintf("%s=%v:%s", name, res.IsError, got))
	}
	if u := os.Getenv("CONTRACTBENCH_TEST_USAGE"); u != "" {
		if err := os.WriteFile(os.Getenv("CONTRACTBENCH_USAGE_FILE"), []byte(u), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "test agent: usage:", err)
			return 1
		}
	}
	fmt.Printf("%s | tools %s | cdp %q | %s\n", os.Getenv("CONTRACTBENCH_INSTRUCTION"), strings.Join(tools, " "),
		os.Getenv("CONTRACTBENCH_CDP_URL"), strings.Join(seen, "; "))
	return 0
}

// execOpts returns options that run this binary as the agent with plan.
func execOpts(t *testing.T, plan string, budget *llm.Budget, env ...string) agent.ExecOptions {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return agent.ExecOptions{
		Command:     strconv.Quote(exe),
		Env:         append([]string{testAgentVar + "=" + plan, "PATH=" + os.Getenv("PATH")}, env...),
		Task:        "task-x",
		Instruction: "say hello",
		Budget:      budget,
	}
}

func TestRunExecForwardsRecordsAndRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mcpclient.Options{Allow: []string{"echo"}})
	opts := execOpts(t, "echo:hi,fail:no,echo:again", agenttest.NewBudget(t, llm.Caps{}),
		`CONTRACTBENCH_TEST_USAGE={"model":"m","input_tokens":10,"output_tokens":2,"usd":0.01}`)
	opts.BeforeCall = e.beforeCall
	out := agent.RunExec(context.Background(), e.session, opts)
	if out.Stop != agent.StopAnswer {
		t.Fatalf("stop %s (%v), want answer", out.Stop, out.Err)
	}
	wantAnswer := `say hello | tools echo | cdp "" | echo=false:hi; fail=true:tool "fail" is not offered; available tools: echo; echo=false:again`
	if out.Answer != wantAnswer {
		t.Errorf("answer\n got %q\nwant %q", out.Answer, wantAnswer)
	}
	var got []string
	for _, c := range out.Calls {
		got = append(got, fmt.Sprintf("%d %s refused=%v error=%v", c.Seq, c.Tool, c.Refused, c.IsError))
	}
	want := []string{"1 echo refused=false error=false", "2 fail refused=true error=true", "3 echo refused=false error=false"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls\n got %q\nwant %q", got, want)
	}
	if e.serverCalls() != 2 {
		t.Errorf("the server saw %d calls, want 2 (the refused one never reaches it)", e.serverCalls())
	}
	if out.USD != 0.01 || out.Usage.InputTokens != 10 || out.Usage.OutputTokens != 2 {
		t.Errorf("usage %+v, $%v; want the reported 10 in, 2 out, $0.01", out.Usage, out.USD)
	}
	if ev := e.events(); len(ev) == 0 || ev[0] != "before 1 echo" {
		t.Errorf("events %q, want the hook before the first call", ev)
	}
}

func TestRunExecStops(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		plan  string
		caps  llm.Caps
		env   []string
		shell string // a shell command instead of the test agent
		want  agent.Stop
		check func(t *testing.T, out *agent.Outcome)
	}{
		{name: "tool iterations", plan: "echo:1,echo:2,echo:3", caps: llm.Caps{MaxToolIterations: 2}, want: agent.StopBudget,
			check: wantBudgetCap(llm.CapMaxToolIterations, 2, 3)},
		{name: "reported cost", plan: "none", caps: llm.Caps{MaxUSD: 0.05},
			env: []string{`CONTRACTBENCH_TEST_USAGE={"usd":0.06}`}, want: agent.StopBudget,
			check: wantBudgetCap(llm.CapMaxUSD, 0.05, 0.06)},
		{name: "priced tokens", plan: "none", caps: llm.Caps{MaxUSD: 0.5},
			env: []string{`CONTRACTBENCH_TEST_USAGE={"model":"no-such-model","input_tokens":5}`}, want: agent.StopError,
			check: func(t *testing.T, out *agent.Outcome) {
				if !strings.Contains(out.Err.Error(), "no-such-model") {
					t.Errorf("error %v, want it to name the unpriced model", out.Err)
				}
			}},
		{name: "bad usage file", plan: "none", env: []string{`CONTRACTBENCH_TEST_USAGE={"tokens":5}`}, want: agent.StopError,
			check: func(t *testing.T, out *agent.Outcome) {
				if !strings.Contains(out.Err.Error(), "CONTRACTBENCH_USAGE_FILE") {
					t.Errorf("error %v, want it to name %s", out.Err, "CONTRACTBENCH_USAGE_FILE")
				}
			}},
		{name: "exit status", shell: `echo starting; echo "it broke" >&2; exit 3`, want: agent.StopError,
			check: func(t *testing.T, out *agent.Outcome) {
				if !strings.Contains(out.Err.Error(), "exit status 3") || !strings.Contains(out.Err.Error(), "it broke") {
					t.Errorf("error %v, want the exit status and the end of stderr", out.Err)
				}
			}},
		{name: "long answer", shell: `head -c 100000 /dev/zero | tr '\0' a`, want: agent.StopAnswer,
			check: func(t *testing.T, out *agent.Outcome) {
				if !strings.HasPrefix(out.Answer, strings.Repeat("a", answerCut)+"\n[answer cut at") {
					t.Errorf("answer of %d bytes ends %q, want the first %d bytes and a note", len(out.Answer), out.Answer[max(len(out.Answer)-80, 0):], answerCut)
				}
			}},
		{name: "keys redacted", shell: `echo "my key is $SOME_API_KEY"`, env: []string{"SOME_API_KEY=sk-test-0123456789abcdef"}, want: agent.StopAnswer,
			check: func(t *testing.T, out *agent.Outcome) {
				if strings.Contains(out.Answer, "0123456789abcdef") {
					t.Errorf("answer %q carries the key", out.Answer)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, mcpclient.Options{})
			opts := execOpts(t, tc.plan, agenttest.NewBudget(t, tc.caps), tc.env...)
			if tc.shell != "" {
				opts.Command = tc.shell
			}
			out := agent.RunExec(context.Background(), e.session, opts)
			if out.Stop != tc.want {
				t.Fatalf("stop %s (%v), want %s", out.Stop, out.Err, tc.want)
			}
			tc.check(t, out)
		})
	}
}

// An agent that outlives the task's deadline is ended with everything it
// started: its process group is killed.
func TestRunExecKillsTheGroupAtTheDeadline(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mcpclient.Options{})
	pidFile := filepath.Join(t.TempDir(), "pid")
	opts := execOpts(t, "none", agenttest.NewBudget(t, llm.Caps{}))
	// The background sleep ignores SIGTERM, so only the group's SIGKILL
	// ends it. The pid is written aside and renamed into place: the
	// shell's redirection creates the file before echo fills it, and the
	// file's appearing is what tells the test the child runs.
	opts.Command = fmt.Sprintf(`(trap '' TERM; exec sleep 600) & echo $! > %[1]s.new && mv %[1]s.new %[1]s; wait`, pidFile)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the child is running: the point is what happens
		// after, not when.
		for {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	out := agent.RunExec(ctx, e.session, opts)
	if out.Stop != agent.StopInterrupted {
		t.Fatalf("stop %s (%v), want interrupted", out.Stop, out.Err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// SIGKILL went to the group before RunExec returned; the kernel
	// delivers it when it schedules the process, so look until it is gone
	// (or a zombie waiting for init) rather than at once. The bound only
	// keeps a failing test from hanging.
	for deadline := time.Now().Add(time.Minute); alive(pid); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the agent's child %d, which ignores SIGTERM, still runs a minute after RunExec returned", pid)
		}
	}
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

func TestRunExecGivesCDPOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mcpclient.Options{})
	opts := execOpts(t, "none", agenttest.NewBudget(t, llm.Caps{}), "CONTRACTBENCH_CDP_URL"+"=http://inherited.invalid")
	out := agent.RunExec(context.Background(), e.session, opts)
	if !strings.Contains(out.Answer, `cdp ""`) {
		t.Errorf("answer %q: an inherited %s must not reach the agent", out.Answer, "CONTRACTBENCH_CDP_URL")
	}
	opts.CDPURL = "http://127.0.0.1:9/"
	out = agent.RunExec(context.Background(), e.session, opts)
	if !strings.Contains(out.Answer, `cdp "http://127.0.0.1:9/"`) {
		t.Errorf("answer %q, want the CDP URL given", out.Answer)
	}
}

// answerCut is where the exec protocol cuts an agent's answer: 64 KiB
// (docs/agents.md). The environment names above are the protocol's own,
// written out so that renaming one in the code fails here.
const answerCut = 64 << 10
