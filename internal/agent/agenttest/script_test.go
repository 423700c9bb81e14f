package agenttest_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"contractbench/internal/agent/agenttest"
	"contractbench/internal/llm"
)

func TestScriptPlaysCallsThenAnswers(t *testing.T) {
	t.Parallel()
	navigate := llm.ToolCall{Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}
	read := llm.ToolCall{ID: "given", Name: "read_page", Args: json.RawMessage(`{"mode":"text"}`)}
	s := agenttest.NewScript("reference", []llm.ToolCall{navigate, read})
	if s.Name() != "reference" || s.Model() != "" {
		t.Errorf("Name, Model = %q, %q; want %q and no model (nothing to price)", s.Name(), s.Model(), "reference")
	}

	withID := navigate
	withID.ID = "call_1"
	final := llm.Response{Text: "reference: all 2 steps done", StopReason: "end_turn"}
	steps := []struct {
		name string
		want llm.Response
	}{
		{name: "first call gets an id", want: llm.Response{ToolCalls: []llm.ToolCall{withID}, StopReason: "tool_use"}},
		{name: "a given id is kept", want: llm.Response{ToolCalls: []llm.ToolCall{read}, StopReason: "tool_use"}},
		{name: "then the answer", want: final},
		{name: "and the answer again", want: final},
	}
	for _, step := range steps {
		got, err := s.Next(context.Background(), llm.Request{})
		if err != nil {
			t.Fatalf("%s: Next: %v", step.name, err)
		}
		if !reflect.DeepEqual(got, step.want) {
			t.Errorf("%s: Next = %+v, want %+v", step.name, got, step.want)
		}
	}
}

func TestScriptStopsWithItsContext(t *testing.T) {
	t.Parallel()
	s := agenttest.NewScript("reference", []llm.ToolCall{{Name: "navigate"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Next(ctx, llm.Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Next with an ended context: %v, want context.Canceled", err)
	}
}
