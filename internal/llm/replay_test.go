package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"contractbench/internal/transcript"
)

const replayTaskDigest = "sha256:2222222222222222222222222222222222222222222222222222222222222222"

type recordedCall struct {
	tool    string
	args    string
	isError bool
}

// record builds a transcript of calls, with a final answer unless final is
// nil.
func record(t *testing.T, calls []recordedCall, final *string) *transcript.Transcript {
	t.Helper()
	rec := transcript.NewRecorder(transcript.Header{
		Task:       "task-01",
		TaskDigest: replayTaskDigest,
		Server:     "builtin",
		RecordedBy: transcript.RecordedBy("anthropic", "claude-sonnet-4-6"),
		Model:      "claude-sonnet-4-6",
		Created:    time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
	})
	for _, c := range calls {
		if err := rec.Call(c.tool, json.RawMessage(c.args), c.isError, 100); err != nil {
			t.Fatal(err)
		}
	}
	if final != nil {
		if err := rec.Final(*final); err != nil {
			t.Fatal(err)
		}
	}
	return rec.Transcript()
}

func ptr(s string) *string { return &s }

var twoCalls = []recordedCall{
	{tool: "navigate", args: `{"url":"https://example.com/"}`},
	{tool: "read_page", args: `{"mode":"text"}`, isError: true},
}

func TestReplayPlaysTheRecording(t *testing.T) {
	t.Parallel()
	tr := record(t, twoCalls, ptr("Example Domain"))
	p := NewReplay(tr, replayTaskDigest)
	if p.Name() != "replay" || p.Model() != "claude-sonnet-4-6" {
		t.Errorf("Name, Model = %q, %q", p.Name(), p.Model())
	}
	var executed []ToolCall
	responses, err := converse(context.Background(), p, func(c ToolCall) ToolResult {
		executed = append(executed, c)
		r := okResult(c)
		r.IsError = c.Name == "read_page" // as recorded
		return r
	})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if len(executed) != 2 {
		t.Fatalf("executed %d calls, want 2", len(executed))
	}
	want := []ToolCall{
		{ID: "call_1", Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)},
		{ID: "call_2", Name: "read_page", Args: json.RawMessage(`{"mode":"text"}`)},
	}
	for i, w := range want {
		if g := executed[i]; g.ID != w.ID || g.Name != w.Name || string(g.Args) != string(w.Args) {
			t.Errorf("call %d = %+v (args %s), want %+v (args %s)", i+1, g, g.Args, w, w.Args)
		}
	}
	last := responses[len(responses)-1]
	if last.Text != "Example Domain" || len(last.ToolCalls) != 0 {
		t.Errorf("final response %+v, want the recorded answer", last)
	}
	for i, r := range responses {
		if !r.Usage.IsZero() {
			t.Errorf("response %d has usage %+v; replay costs nothing", i, r.Usage)
		}
	}

	_, err = p.Next(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "again"}}, Tools: testTools})
	var drift *DriftError
	if err == nil || errors.As(err, &drift) || !strings.Contains(err.Error(), "already given") {
		t.Errorf("Next after the final answer: %v, want a plain misuse error", err)
	}
}

func TestReplayDrift(t *testing.T) {
	t.Parallel()
	tamper := func(tr *transcript.Transcript) *transcript.Transcript {
		tr.Calls[1].Args = json.RawMessage(`{"mode":"dom"}`) // digest left as recorded
		return tr
	}
	tests := []struct {
		name       string
		transcript func(t *testing.T) *transcript.Transcript
		digest     string
		tools      []Tool
		answer     func(ToolCall) ToolResult
		wantSeq    int
		wantReason string
		wantCalls  int // calls executed before the drift
	}{
		{
			name:       "task spec changed since recording",
			transcript: func(t *testing.T) *transcript.Transcript { return record(t, twoCalls, ptr("x")) },
			digest:     "sha256:3333333333333333333333333333333333333333333333333333333333333333",
			wantSeq:    0,
			wantReason: "the transcript is stale: it was recorded for task digest " + replayTaskDigest,
		},
		{
			name:       "call edited after recording",
			transcript: func(t *testing.T) *transcript.Transcript { return tamper(record(t, twoCalls, ptr("x"))) },
			wantSeq:    2,
			wantReason: "args digest mismatch",
		},
		{
			name:       "recorded tool not offered",
			transcript: func(t *testing.T) *transcript.Transcript { return record(t, twoCalls, ptr("x")) },
			tools:      testTools[:1], // navigate only
			wantSeq:    2,
			wantReason: `recorded tool "read_page" is not offered by the server`,
		},
		{
			name:       "recorded ok, now an error",
			transcript: func(t *testing.T) *transcript.Transcript { return record(t, twoCalls, ptr("x")) },
			answer: func(c ToolCall) ToolResult {
				return ToolResult{CallID: c.ID, Name: c.Name, IsError: true, Content: "net::ERR_NAME_NOT_RESOLVED"}
			},
			wantSeq:    1,
			wantReason: `navigate answered error, the recording says ok: "net::ERR_NAME_NOT_RESOLVED"`,
			wantCalls:  1,
		},
		{
			name:       "recorded error, now ok",
			transcript: func(t *testing.T) *transcript.Transcript { return record(t, twoCalls, ptr("x")) },
			answer:     okResult,
			wantSeq:    2,
			wantReason: "read_page answered ok, the recording says error",
			wantCalls:  2,
		},
		{
			name: "recording ends without a final answer",
			transcript: func(t *testing.T) *transcript.Transcript {
				return record(t, twoCalls[:1], nil)
			},
			wantSeq:    1,
			wantReason: "the recording ends without a final answer",
			wantCalls:  1,
		},
		{
			name:       "empty recording without a final answer",
			transcript: func(t *testing.T) *transcript.Transcript { return record(t, nil, nil) },
			wantSeq:    0,
			wantReason: "the recording ends without a final answer",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			digest := tt.digest
			if digest == "" {
				digest = replayTaskDigest
			}
			tools := tt.tools
			if tools == nil {
				tools = testTools
			}
			answer := tt.answer
			if answer == nil {
				answer = func(c ToolCall) ToolResult {
					r := okResult(c)
					r.IsError = c.Name == "read_page"
					return r
				}
			}
			p := NewReplay(tt.transcript(t), digest)
			calls, err := drive(p, tools, answer)
			var drift *DriftError
			if !errors.As(err, &drift) {
				t.Fatalf("error %v (%T), want a *DriftError", err, err)
			}
			if drift.Seq != tt.wantSeq || !strings.Contains(drift.Reason, tt.wantReason) {
				t.Errorf("drift at seq %d: %q; want seq %d with %q", drift.Seq, drift.Reason, tt.wantSeq, tt.wantReason)
			}
			if calls != tt.wantCalls {
				t.Errorf("%d calls ran before the drift was reported, want %d", calls, tt.wantCalls)
			}
			// A transcript is stale exactly when none of it could run.
			if stale := calls == 0 && tt.name != "empty recording without a final answer"; drift.Stale != stale {
				t.Errorf("Stale = %v, want %v (%d calls ran)", drift.Stale, stale, calls)
			}
			if tt.wantSeq > 0 && !strings.HasPrefix(err.Error(), "replay drift at seq ") {
				t.Errorf("message %q does not say where", err)
			}
		})
	}
}

// drive runs p like the agent loop with the given tools and returns how many
// tool calls were executed before it stopped.
func drive(p Provider, tools []Tool, answer func(ToolCall) ToolResult) (int, error) {
	msgs := []Message{{Role: RoleUser, Text: "go"}}
	calls := 0
	for {
		resp, err := p.Next(context.Background(), Request{Messages: msgs, Tools: tools})
		if err != nil {
			return calls, err
		}
		if len(resp.ToolCalls) == 0 {
			return calls, nil
		}
		msgs = append(msgs, Message{Role: RoleAssistant, ToolCalls: resp.ToolCalls})
		var results []ToolResult
		for _, c := range resp.ToolCalls {
			calls++
			results = append(results, answer(c))
		}
		msgs = append(msgs, Message{Role: RoleUser, ToolResults: results})
	}
}

func TestReplayRefusesARequestWithoutTheResult(t *testing.T) {
	t.Parallel()
	p := NewReplay(record(t, twoCalls, ptr("x")), replayTaskDigest)
	first, err := p.Next(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "go"}}, Tools: testTools})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []Message{
		{Role: RoleUser, Text: "go"},
		{Role: RoleAssistant, ToolCalls: first.ToolCalls},
		{Role: RoleUser, Text: "I did not run it"},
	}
	_, err = p.Next(context.Background(), Request{Messages: msgs, Tools: testTools})
	var drift *DriftError
	if err == nil || errors.As(err, &drift) || !strings.Contains(err.Error(), "does not end with the result of call_1") {
		t.Errorf("error %v, want a plain error about the missing result", err)
	}
}

func TestReplayHonoursContext(t *testing.T) {
	t.Parallel()
	p := NewReplay(record(t, twoCalls, ptr("x")), replayTaskDigest)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Next(ctx, Request{Messages: []Message{{Role: RoleUser, Text: "go"}}, Tools: testTools}); !errors.Is(err, context.Canceled) {
		t.Errorf("Next with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestQuoteCutsAtRuneBoundary(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", maxResultQuote) // two bytes each
	got := quote(long)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, `…"`) || len(got) > maxResultQuote+8 {
		t.Errorf("quote of a long multibyte result = %q", got)
	}
	if got := quote("short"); got != `"short"` {
		t.Errorf("quote(short) = %s", got)
	}
}
