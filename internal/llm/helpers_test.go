package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"
)

// testTools are the tools the provider tests offer, as an MCP server would
// list them. read_page's schema carries keywords beyond properties and
// required, which must survive the mapping to each API.
var testTools = []Tool{
	{
		Name:        "navigate",
		Description: "Open a URL in the active tab.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}},"required":["url"],"additionalProperties":false}`),
	},
	{
		Name:        "read_page",
		Description: "Return the page's text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"mode":{"$ref":"#/$defs/mode"}},"$defs":{"mode":{"enum":["text","dom"]}}}`),
	},
	{Name: "list_tabs"}, // no schema at all: an object without properties
}

// converse drives p the way the agent loop does: it sends the instruction,
// answers every tool call with answer's result, and stops at the first
// response without tool calls. It returns every response.
func converse(ctx context.Context, p Provider, answer func(ToolCall) ToolResult) ([]Response, error) {
	msgs := []Message{{Role: RoleUser, Text: "What is the title of https://example.com/?"}}
	var out []Response
	for turn := 0; turn < 20; turn++ {
		resp, err := p.Next(ctx, Request{System: "You drive a browser.", Messages: msgs, Tools: testTools})
		if err != nil {
			return out, err
		}
		out = append(out, resp)
		if len(resp.ToolCalls) == 0 {
			return out, nil
		}
		msgs = append(msgs, Message{Role: RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls})
		var results []ToolResult
		for _, c := range resp.ToolCalls {
			results = append(results, answer(c))
		}
		msgs = append(msgs, Message{Role: RoleUser, ToolResults: results})
	}
	return out, fmt.Errorf("no final answer after 20 turns")
}

// okResult answers every call successfully with a short text.
func okResult(c ToolCall) ToolResult {
	return ToolResult{CallID: c.ID, Name: c.Name, Content: "ok: " + c.Name}
}

// fakeClock is a clock that only moves when the retry policy sleeps.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func (c *fakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// policy returns a retry policy on this clock with jitter fixed at j.
func (c *fakeClock) policy(j float64) RetryPolicy {
	return RetryPolicy{Sleep: c.Sleep, Now: c.Now, Jitter: func() float64 { return j }}
}

// requireNoProblems fails the test if the fake saw a request the real API
// would have rejected.
func requireNoProblems(t *testing.T, problems []string) {
	t.Helper()
	for _, p := range problems {
		t.Errorf("fake API rejected a request: %s", p)
	}
}
