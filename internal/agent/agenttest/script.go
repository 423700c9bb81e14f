// Package agenttest holds test doubles of the agent's side: Script, a
// provider that plays a fixed list of tool calls.
package agenttest

import (
	"context"
	"fmt"

	"contractbench/internal/llm"
)

// Script is a provider that plays a fixed list of tool calls, one per
// turn, and then answers. It is how a task's reference solution runs: the
// calls really go to the tool server and the judge grades the result like
// any other agent's.
type Script struct {
	name  string
	calls []llm.ToolCall
	next  int
}

// NewScript returns a provider named name (recorded as the transcript's
// recorded_by) that plays calls in order.
func NewScript(name string, calls []llm.ToolCall) *Script {
	return &Script{name: name, calls: calls}
}

func (s *Script) Name() string  { return s.name }
func (s *Script) Model() string { return "" }

// Next returns the next scripted call, or the final answer once every call
// has been made.
func (s *Script) Next(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	if s.next >= len(s.calls) {
		return llm.Response{Text: fmt.Sprintf("%s: all %d steps done", s.name, len(s.calls)), StopReason: "end_turn"}, nil
	}
	c := s.calls[s.next]
	s.next++
	if c.ID == "" {
		c.ID = fmt.Sprintf("call_%d", s.next)
	}
	return llm.Response{ToolCalls: []llm.ToolCall{c}, StopReason: "tool_use"}, nil
}
