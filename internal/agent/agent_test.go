package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"contractbench/internal/agent"
	"contractbench/internal/agent/agenttest"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
	"contractbench/internal/transcript"
)

// TestRunConversation follows one run turn by turn: what the provider is
// sent, the order of hook and server, and what comes back.
func TestRunConversation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mcpclient.Options{})
	model := &fakeModel{turns: []turn{
		calls(call("a", "echo", `{"text":"one"}`), call("b", "fail", `{"reason":"boom"}`)),
		calls(call("c", "echo", `{"text":"two"}`)),
		answer("The heading says one."),
	}}
	out := agent.Run(context.Background(), model, e.session, agent.Options{
		Instruction: "Read the heading.",
		Budget:      agenttest.NewBudget(t, llm.Caps{}),
		BeforeCall:  e.beforeCall,
		AfterCall:   e.afterCall,
	})

	if out.Stop != agent.StopAnswer || out.Err != nil {
		t.Fatalf("Stop = %q, Err = %v; want %q, nil", out.Stop, out.Err, agent.StopAnswer)
	}
	if out.Answer != "The heading says one." || out.Turns != 3 {
		t.Errorf("Answer %q after %d turns, want %q after 3", out.Answer, out.Turns, "The heading says one.")
	}

	// Each call goes to the server only after the hook was told of it,
	// and the next starts only after the other hook was told it ended.
	wantLog := []string{
		"before 1 echo", "server echo one", "after 1 echo",
		"before 2 fail", "server fail boom", "after 2 fail",
		"before 3 echo", "server echo two", "after 3 echo",
	}
	if got := e.events(); !slices.Equal(got, wantLog) {
		t.Errorf("hook and server ran in the order\n  %q\nwant\n  %q", got, wantLog)
	}

	// The first two calls came in one turn, the third in the next; the
	// replies are the texts the agent read.
	wantCalls := []agent.Call{
		{Seq: 1, Tool: "echo", Args: json.RawMessage(`{"text":"one"}`), Bytes: textBytes(t, "one"), Reply: "one", Turn: 1},
		{Seq: 2, Tool: "fail", Args: json.RawMessage(`{"reason":"boom"}`), IsError: true, Bytes: textBytes(t, "boom"), Reply: "boom", Turn: 1},
		{Seq: 3, Tool: "echo", Args: json.RawMessage(`{"text":"two"}`), Bytes: textBytes(t, "two"), Reply: "two", Turn: 2},
	}
	for i := range out.Calls {
		out.Calls[i].Duration = 0 // wall time; mcpclient's tests pin it
	}
	if !reflect.DeepEqual(out.Calls, wantCalls) {
		t.Errorf("Calls =\n  %+v\nwant\n  %+v", out.Calls, wantCalls)
	}
	if got, want := out.ResponseBytes(), int64(textBytes(t, "one")+textBytes(t, "boom")+textBytes(t, "two")); got != want {
		t.Errorf("ResponseBytes() = %d, want %d", got, want)
	}

	reqs := model.requests()
	if len(reqs) != 3 {
		t.Fatalf("the provider was asked %d times, want 3", len(reqs))
	}
	first := reqs[0]
	if first.System != systemPrompt {
		t.Errorf("System = %q, want %q", first.System, systemPrompt)
	}
	if first.MaxTokens != llm.MaxTokensPerTurn {
		t.Errorf("MaxTokens = %d, want the cap %d", first.MaxTokens, llm.MaxTokensPerTurn)
	}
	wantFirst := []llm.Message{{Role: llm.RoleUser, Text: "Read the heading."}}
	if !reflect.DeepEqual(first.Messages, wantFirst) {
		t.Errorf("first request's messages = %+v, want only the instruction %+v", first.Messages, wantFirst)
	}
	checkTools(t, first.Tools, e.session)
	for i, r := range reqs[1:] {
		if !reflect.DeepEqual(r.Tools, first.Tools) || r.System != first.System {
			t.Errorf("request %d changed the tools or the system prompt", i+2)
		}
	}

	// Results come back in the next request, paired with their calls.
	second := reqs[1].Messages
	wantSecond := []llm.Message{
		wantFirst[0],
		{Role: llm.RoleAssistant, ToolCalls: model.turns[0].resp.ToolCalls},
		{Role: llm.RoleUser, ToolResults: []llm.ToolResult{
			{CallID: "a", Name: "echo", Content: "one"},
			{CallID: "b", Name: "fail", Content: "boom", IsError: true},
		}},
	}
	if !reflect.DeepEqual(second, wantSecond) {
		t.Errorf("second request's messages =\n  %+v\nwant\n  %+v", second, wantSecond)
	}
	third := reqs[2].Messages
	wantThird := append(slices.Clone(wantSecond),
		llm.Message{Role: llm.RoleAssistant, ToolCalls: model.turns[1].resp.ToolCalls},
		llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{{CallID: "c", Name: "echo", Content: "two"}}},
	)
	if !reflect.DeepEqual(third, wantThird) {
		t.Errorf("third request's messages =\n  %+v\nwant\n  %+v", third, wantThird)
	}
}

// checkTools checks that the provider was offered the session's tools with
// names, descriptions and input schemas unchanged.
func checkTools(t *testing.T, got []llm.Tool, s *mcpclient.Session) {
	t.Helper()
	offered := s.Tools()
	if len(got) != len(offered) {
		t.Fatalf("the provider was offered %d tools, want the session's %d", len(got), len(offered))
	}
	for i, tool := range offered {
		want, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if got[i].Name != tool.Name || got[i].Description != tool.Description {
			t.Errorf("tools[%d] = %s (%q), want %s (%q)", i, got[i].Name, got[i].Description, tool.Name, tool.Description)
		}
		if !bytes.Equal(got[i].InputSchema, want) {
			t.Errorf("tool %s's schema = %s, want the server's %s", tool.Name, got[i].InputSchema, want)
		}
	}
	// The schema carries the field documentation the model relies on.
	if !bytes.Contains(got[0].InputSchema, []byte(`"description":"the text to send back"`)) {
		t.Errorf("echo's schema %s lost its field description", got[0].InputSchema)
	}
}

func TestRunOffersOnlyTheAllowList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mcpclient.Options{Allow: []string{"echo"}})
	model := &fakeModel{turns: []turn{
		calls(call("x", "fail", `{"reason":"boom"}`)),
		answer("done"),
	}}
	out := agent.Run(context.Background(), model, e.session, agent.Options{
		Instruction: "Fail.", Budget: agenttest.NewBudget(t, llm.Caps{}), BeforeCall: e.beforeCall,
	})
	if out.Stop != agent.StopAnswer {
		t.Fatalf("Stop = %q (%v), want %q: a refused call is a result the model reads", out.Stop, out.Err, agent.StopAnswer)
	}
	reqs := model.requests()
	if got := reqs[0].Tools; len(got) != 1 || got[0].Name != "echo" {
		t.Errorf("offered tools %+v, want only echo", got)
	}
	res := reqs[1].Messages[2].ToolResults
	wantText := `tool "fail" is not offered; available tools: echo`
	if len(res) != 1 || res[0].CallID != "x" || !res[0].IsError || res[0].Content != wantText {
		t.Errorf("result of the refused call = %+v, want call x answered with error %q", res, wantText)
	}
	if n := e.serverCalls(); n != 0 {
		t.Errorf("the refused call reached the server (%d handler calls)", n)
	}
	if len(out.Calls) != 1 || !out.Calls[0].Refused || !out.Calls[0].IsError {
		t.Errorf("Calls = %+v, want one refused call", out.Calls)
	}
}

// echoCalls returns n scripted calls of echo.
func echoCalls(n int) []llm.ToolCall {
	var cs []llm.ToolCall
	for range n {
		cs = append(cs, llm.ToolCall{Name: "echo", Args: json.RawMessage(`{"text":"again"}`)})
	}
	return cs
}

// A priced model: claude-haiku-4-5 costs $1 per million input tokens, so
// 100k input tokens are $0.10.
const pricedModel = "claude-haiku-4-5"

func TestRunStops(t *testing.T) {
	t.Parallel()
	tenCents := llm.Usage{InputTokens: 100_000}
	tests := []struct {
		name     string
		caps     llm.Caps
		provider func() llm.Provider
		// expireAt makes the run's deadline pass once the loop waits on
		// the model (at "model") or on a tool call (at "tool"): when, not
		// how long, so a busy machine cannot move it. cancelled ends ctx
		// before it starts.
		expireAt   string
		cancelled  bool
		killServer bool

		wantStop        agent.Stop
		wantCalls       int
		wantServerCalls int
		wantTurns       int
		check           func(t *testing.T, out *agent.Outcome)
	}{
		{
			name:     "tool iterations cap",
			caps:     llm.Caps{MaxToolIterations: 2},
			provider: func() llm.Provider { return agenttest.NewScript("reference", echoCalls(3)) },
			wantStop: agent.StopBudget, wantCalls: 2, wantServerCalls: 2, wantTurns: 3,
			check: wantBudgetCap(llm.CapMaxToolIterations, 2, 3),
		},
		{
			name: "usd cap",
			caps: llm.Caps{MaxUSD: 0.15},
			provider: func() llm.Provider {
				return &fakeModel{model: pricedModel, turns: []turn{
					withUsage(calls(call("a", "echo", `{"text":"1"}`)), tenCents),
					withUsage(calls(call("b", "echo", `{"text":"2"}`)), tenCents),
					answer("unreachable"),
				}}
			},
			// The second turn's spend passes the cap before its call runs.
			wantStop: agent.StopBudget, wantCalls: 1, wantServerCalls: 1, wantTurns: 2,
			check: func(t *testing.T, out *agent.Outcome) {
				wantBudgetCap(llm.CapMaxUSD, 0.15, 0.20)(t, out)
				if math.Abs(out.USD-0.20) > 1e-9 || out.Usage.InputTokens != 200_000 {
					t.Errorf("USD %v for %d input tokens, want $0.20 for 200000: what was spent is reported", out.USD, out.Usage.InputTokens)
				}
			},
		},
		{
			name: "tokens per turn cap",
			caps: llm.Caps{MaxTokensPerTurn: 1000},
			provider: func() llm.Provider {
				return &fakeModel{model: pricedModel, turns: []turn{
					withUsage(answer("a long answer"), llm.Usage{InputTokens: 10, OutputTokens: 1500}),
				}}
			},
			wantStop: agent.StopBudget, wantTurns: 1,
			check: func(t *testing.T, out *agent.Outcome) {
				wantBudgetCap(llm.CapMaxTokensPerTurn, 1000, 1500)(t, out)
				if out.Answer != "" {
					t.Errorf("Answer = %q from a turn over the cap, want none", out.Answer)
				}
			},
		},
		{
			name: "a model without a price",
			provider: func() llm.Provider {
				return &fakeModel{model: "no-such-model", turns: []turn{
					withUsage(answer("free?"), llm.Usage{InputTokens: 10}),
				}}
			},
			wantStop: agent.StopError, wantTurns: 1,
			check: func(t *testing.T, out *agent.Outcome) {
				var unknown *llm.UnknownModelError
				if !errors.As(out.Err, &unknown) || unknown.Model != "no-such-model" {
					t.Errorf("Err = %v, want an *llm.UnknownModelError for no-such-model", out.Err)
				}
			},
		},
		{
			name: "replay drift",
			provider: func() llm.Provider {
				return &fakeModel{turns: []turn{
					calls(call("a", "echo", `{"text":"1"}`)),
					{err: &llm.DriftError{Seq: 1, Reason: "echo answered ok, the recording says error"}},
				}}
			},
			wantStop: agent.StopDrift, wantCalls: 1, wantServerCalls: 1, wantTurns: 2,
			check: func(t *testing.T, out *agent.Outcome) {
				var drift *llm.DriftError
				if !errors.As(out.Err, &drift) || drift.Seq != 1 {
					t.Errorf("Err = %v, want the provider's *llm.DriftError at seq 1", out.Err)
				}
			},
		},
		{
			name:     "deadline while the model thinks",
			provider: func() llm.Provider { return &fakeModel{turns: []turn{{wait: true}}} },
			expireAt: "model",
			wantStop: agent.StopTimeout, wantTurns: 1,
			check: wantErrIs(context.DeadlineExceeded),
		},
		{
			name: "deadline during a tool call",
			provider: func() llm.Provider {
				return &fakeModel{turns: []turn{calls(call("a", "hang", `{}`))}}
			},
			expireAt: "tool",
			wantStop: agent.StopTimeout, wantServerCalls: 1, wantTurns: 1,
			check: wantErrIs(context.DeadlineExceeded),
		},
		{
			name:      "context ended before the first turn",
			provider:  func() llm.Provider { return &fakeModel{turns: []turn{answer("too late")}} },
			cancelled: true,
			wantStop:  agent.StopInterrupted, wantTurns: 0,
			check: wantErrIs(context.Canceled),
		},
		{
			name: "provider error",
			provider: func() llm.Provider {
				return &fakeModel{turns: []turn{{err: errors.New("anthropic: 529 overloaded")}}}
			},
			wantStop: agent.StopError, wantTurns: 1,
			check: func(t *testing.T, out *agent.Outcome) {
				if out.Err == nil || out.Err.Error() != "anthropic: 529 overloaded" {
					t.Errorf("Err = %v, want the provider's error", out.Err)
				}
			},
		},
		{
			name: "tool server died",
			provider: func() llm.Provider {
				return &fakeModel{turns: []turn{calls(call("a", "echo", `{"text":"1"}`))}}
			},
			killServer: true,
			wantStop:   agent.StopError, wantTurns: 1,
			check: func(t *testing.T, out *agent.Outcome) {
				if out.Err == nil || !strings.HasPrefix(out.Err.Error(), "tool server: mcp: call echo: ") {
					t.Errorf("Err = %v, want it to name the tool server and the call", out.Err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, mcpclient.Options{})
			if tt.killServer {
				e.server.Close()
				e.session.Wait()
			}
			ctx := context.Background()
			provider := tt.provider()
			if tt.expireAt != "" {
				d := newDeadlineOnCue()
				ctx = d
				go func() {
					for {
						model, ok := provider.(*fakeModel)
						if (tt.expireAt == "model" && ok && len(model.requests()) > 0) || (tt.expireAt == "tool" && e.serverCalls() > 0) {
							d.expire()
							return
						}
						time.Sleep(5 * time.Millisecond)
					}
				}()
			}
			if tt.cancelled {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				cancel()
			}
			out := agent.Run(ctx, provider, e.session, agent.Options{
				Instruction: "Keep going.", Budget: agenttest.NewBudget(t, tt.caps), BeforeCall: e.beforeCall,
			})
			if out.Stop != tt.wantStop {
				t.Fatalf("Stop = %q (Err %v), want %q", out.Stop, out.Err, tt.wantStop)
			}
			if out.Err == nil {
				t.Errorf("Stop %q without an Err saying why", out.Stop)
			}
			if len(out.Calls) != tt.wantCalls || out.Turns != tt.wantTurns {
				t.Errorf("%d calls in %d turns, want %d in %d", len(out.Calls), out.Turns, tt.wantCalls, tt.wantTurns)
			}
			if n := e.serverCalls(); n != tt.wantServerCalls {
				t.Errorf("the server handled %d calls, want %d (log %q)", n, tt.wantServerCalls, e.events())
			}
			if tt.check != nil {
				tt.check(t, out)
			}
		})
	}
}

func wantBudgetCap(name string, limit, seen float64) func(*testing.T, *agent.Outcome) {
	return func(t *testing.T, out *agent.Outcome) {
		t.Helper()
		var be *llm.BudgetExceededError
		if !errors.As(out.Err, &be) {
			t.Fatalf("Err = %v, want an *llm.BudgetExceededError", out.Err)
		}
		if be.Cap != name || be.Limit != limit || math.Abs(be.Seen-seen) > 1e-9 {
			t.Errorf("budget error %+v, want cap %s, limit %v, seen %v", *be, name, limit, seen)
		}
	}
}

func wantErrIs(target error) func(*testing.T, *agent.Outcome) {
	return func(t *testing.T, out *agent.Outcome) {
		t.Helper()
		if !errors.Is(out.Err, target) {
			t.Errorf("Err = %v, want one that is %v", out.Err, target)
		}
	}
}

func TestRunSendsTheTurnCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mcpclient.Options{})
	model := &fakeModel{turns: []turn{answer("short")}}
	agent.Run(context.Background(), model, e.session, agent.Options{
		Instruction: "Be brief.", Budget: agenttest.NewBudget(t, llm.Caps{MaxTokensPerTurn: 256}),
	})
	if got := model.requests()[0].MaxTokens; got != 256 {
		t.Errorf("MaxTokens = %d, want the task's lowered cap 256", got)
	}
}

// TestRunRecordsAndReplays records a run, reads the transcript back as a
// file would be, and replays it through the loop against the same server.
func TestRunRecordsAndReplays(t *testing.T) {
	t.Parallel()
	digest, err := transcript.TaskDigest(json.RawMessage(`{"id":"echo-task"}`))
	if err != nil {
		t.Fatal(err)
	}
	rec := transcript.NewRecorder(transcript.Header{
		Task: "echo-task", TaskDigest: digest, Server: "test-tools",
		RecordedBy: transcript.RecordedByReference,
		Created:    time.Date(2026, 3, 21, 12, 0, 0, 0, time.UTC),
	})
	e := newEnv(t, mcpclient.Options{})
	script := agenttest.NewScript("reference", []llm.ToolCall{
		// Spaces and key order differ from the canonical form on purpose.
		{Name: "echo", Args: json.RawMessage(`{ "text" : "hi" }`)},
		{Name: "fail", Args: json.RawMessage(`{"reason": "boom"}`)},
	})
	out := agent.Run(context.Background(), script, e.session, agent.Options{
		Instruction: "Echo, then fail.", Budget: agenttest.NewBudget(t, llm.Caps{}), Recorder: rec,
	})
	if out.Stop != agent.StopAnswer {
		t.Fatalf("recording run: Stop = %q (%v), want %q", out.Stop, out.Err, agent.StopAnswer)
	}

	var buf bytes.Buffer
	if err := transcript.Write(&buf, rec.Transcript()); err != nil {
		t.Fatalf("writing the recorded transcript: %v", err)
	}
	got, err := transcript.Read(&buf, "recorded.jsonl")
	if err != nil {
		t.Fatalf("reading the recorded transcript back: %v", err)
	}
	want := []struct {
		tool, args string
		kind       transcript.ResponseKind
	}{
		{"echo", `{"text":"hi"}`, transcript.ResponseOK},
		{"fail", `{"reason":"boom"}`, transcript.ResponseError},
	}
	if len(got.Calls) != len(want) {
		t.Fatalf("transcript has %d calls, want %d", len(got.Calls), len(want))
	}
	for i, w := range want {
		c := got.Calls[i]
		if c.Seq != i+1 || c.Tool != w.tool || string(c.Args) != w.args || c.ResponseKind != w.kind {
			t.Errorf("call %d = {seq %d, %s, %s, %s}, want {seq %d, %s, %s, %s}", i, c.Seq, c.Tool, c.Args, c.ResponseKind, i+1, w.tool, w.args, w.kind)
		}
		if c.ResponseBytes != out.Calls[i].Bytes {
			t.Errorf("call %d: response_bytes %d, want the %d the loop measured", i+1, c.ResponseBytes, out.Calls[i].Bytes)
		}
	}
	if got.Final == nil || got.Final.Answer != out.Answer || out.Answer == "" {
		t.Errorf("final line %+v, want the run's answer %q", got.Final, out.Answer)
	}

	tests := []struct {
		name     string
		edit     func(*transcript.Transcript)
		wantStop agent.Stop
	}{
		{name: "as recorded", edit: func(*transcript.Transcript) {}, wantStop: agent.StopAnswer},
		{name: "a result kind differs", edit: func(tr *transcript.Transcript) {
			tr.Calls[0].ResponseKind = transcript.ResponseError
		}, wantStop: agent.StopDrift},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := *got
			tr.Calls = slices.Clone(got.Calls)
			tt.edit(&tr)
			replay := agent.Run(context.Background(), llm.NewReplay(&tr, digest), e.session, agent.Options{
				Instruction: "Echo, then fail.", Budget: agenttest.NewBudget(t, llm.Caps{}),
			})
			if replay.Stop != tt.wantStop {
				t.Fatalf("replay: Stop = %q (%v), want %q", replay.Stop, replay.Err, tt.wantStop)
			}
			if tt.wantStop == agent.StopAnswer && replay.Answer != out.Answer {
				t.Errorf("replay answered %q, want the recorded %q", replay.Answer, out.Answer)
			}
		})
	}
}

// deadlineOnCue is a context whose deadline passes when expire is called,
// for tests that stop a run at a given point rather than after a given
// time. It reports no Deadline, so nothing below schedules on one.
type deadlineOnCue struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newDeadlineOnCue() *deadlineOnCue {
	return &deadlineOnCue{Context: context.Background(), done: make(chan struct{})}
}

func (d *deadlineOnCue) expire() { d.once.Do(func() { close(d.done) }) }

func (d *deadlineOnCue) Done() <-chan struct{} { return d.done }

func (d *deadlineOnCue) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// systemPrompt is the system prompt an agent sends.
const systemPrompt = "You operate a web browser through the tools provided. Complete the user's task by using the tools: navigate, read the page, and interact as a person would. Do not guess page content; read it. When the task is done, reply with a short final answer and no tool call."
