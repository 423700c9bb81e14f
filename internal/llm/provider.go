package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Tool is a tool the model may call, as listed by the MCP server.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the tool's JSON Schema; it must describe an object.
	InputSchema json.RawMessage
}

// Role is the author of a Message.
type Role string

// The two roles of a conversation. The system prompt is Request.System, not
// a message.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// ToolCall is the model asking for one tool call. ID pairs it with its
// ToolResult.
type ToolCall struct {
	ID   string
	Name string
	// Args is a JSON object.
	Args json.RawMessage
}

// ToolResult answers the ToolCall with the same ID. IsError carries the MCP
// result's isError flag, so the model knows the call failed.
type ToolResult struct {
	CallID  string
	Name    string
	Content string
	IsError bool
}

// Message is one turn. A user turn carries text, tool results, or both (the
// results of the previous assistant turn's calls); an assistant turn carries
// text, tool calls, or both.
type Message struct {
	Role        Role
	Text        string
	ToolCalls   []ToolCall
	ToolResults []ToolResult
}

// Request is everything a provider needs for one model turn.
type Request struct {
	System   string
	Messages []Message
	Tools    []Tool
	// MaxTokens caps the model's output for this turn; 0 means the default
	// cap. It may not exceed the ceiling (see Caps).
	MaxTokens int
}

// Usage counts the tokens of one response. InputTokens excludes tokens read
// from or written to a prompt cache, which are priced separately.
type Usage struct {
	InputTokens      int64
	OutputTokens     int64
	CacheReadTokens  int64
	CacheWriteTokens int64
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
	}
}

// IsZero reports whether u counts no tokens at all.
func (u Usage) IsZero() bool { return u == Usage{} }

// Response is one model turn. No ToolCalls means the model is done and Text
// is its final answer.
type Response struct {
	Text       string
	ToolCalls  []ToolCall
	Usage      Usage
	StopReason string
}

// Provider produces model turns. Implementations are safe for use by one
// agent loop at a time; they keep no conversation state of their own except
// replay, which follows its transcript.
type Provider interface {
	// Name is the provider's canonical name: "anthropic", "openai" or
	// "replay".
	Name() string
	// Model is the model answering, used for pricing and recorded_by.
	Model() string
	Next(ctx context.Context, req Request) (Response, error)
}

// Canonical provider names and their aliases.
const (
	NameAnthropic = "anthropic"
	NameOpenAI    = "openai"
	NameReplay    = "replay"
)

var aliases = map[string]string{
	NameAnthropic: NameAnthropic,
	"claude":      NameAnthropic,
	NameOpenAI:    NameOpenAI,
	NameReplay:    NameReplay,
	"mock":        NameReplay,
}

// ResolveName maps a provider name or alias ("claude", "mock") to its
// canonical name.
func ResolveName(name string) (string, error) {
	if c, ok := aliases[strings.ToLower(strings.TrimSpace(name))]; ok {
		return c, nil
	}
	return "", fmt.Errorf("unknown agent %q: want replay (alias mock), anthropic (alias claude) or openai", name)
}

// Gate decides whether a run may use provider. Calls to a paid API need
// both the explicit opt-in and a key; the error says exactly what to set.
// real is whether CONTRACTBENCH_REAL=1 is set and keyPresent whether the
// provider's key variable is non-empty; the CLI reads both.
func Gate(real, keyPresent bool, provider string) error {
	name, err := ResolveName(provider)
	if err != nil {
		return err
	}
	if name == NameReplay {
		return nil
	}
	keyVar := map[string]string{NameAnthropic: "ANTHROPIC_API_KEY", NameOpenAI: "OPENAI_API_KEY"}[name]
	var missing []string
	if !real {
		missing = append(missing, "CONTRACTBENCH_REAL=1")
	}
	if !keyPresent {
		missing = append(missing, keyVar)
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("agent %s makes paid API calls: set CONTRACTBENCH_REAL=1 and %s (missing: %s)",
		name, keyVar, strings.Join(missing, ", "))
}

// checkRequest enforces the conversation shape both APIs require, before
// anything is sent: a provider error about a malformed conversation costs a
// round trip and is harder to read than one naming the message.
//
// The rules: messages start with a user turn and alternate; the last one is
// a user turn; a user turn has text or tool results and no tool calls, an
// assistant turn text or tool calls and no tool results; every tool call of
// an assistant turn is answered by exactly one tool result in the next
// turn, and every result answers a call of the turn before it.
func checkRequest(req Request) error {
	if req.MaxTokens < 0 || req.MaxTokens > MaxTokensPerTurn {
		return fmt.Errorf("max tokens %d outside 1..%d (the ceiling)", req.MaxTokens, MaxTokensPerTurn)
	}
	if err := checkTools(req.Tools); err != nil {
		return err
	}
	if len(req.Messages) == 0 {
		return errors.New("no messages")
	}
	for i, m := range req.Messages {
		want := RoleUser
		if i%2 == 1 {
			want = RoleAssistant
		}
		if m.Role != want {
			return fmt.Errorf("messages[%d]: role %q, want %q (turns alternate, starting with the user)", i, m.Role, want)
		}
		if err := checkMessage(m); err != nil {
			return fmt.Errorf("messages[%d]: %w", i, err)
		}
		if m.Role == RoleUser {
			var prev []ToolCall
			if i > 0 {
				prev = req.Messages[i-1].ToolCalls
			}
			if err := checkResults(prev, m.ToolResults); err != nil {
				return fmt.Errorf("messages[%d]: %w", i, err)
			}
		}
	}
	if last := req.Messages[len(req.Messages)-1]; last.Role != RoleUser {
		return fmt.Errorf("messages[%d]: the conversation must end with a user turn", len(req.Messages)-1)
	}
	return nil
}

func checkMessage(m Message) error {
	switch m.Role {
	case RoleUser:
		if len(m.ToolCalls) > 0 {
			return errors.New("a user turn carries tool calls")
		}
		if m.Text == "" && len(m.ToolResults) == 0 {
			return errors.New("an empty user turn")
		}
	case RoleAssistant:
		if len(m.ToolResults) > 0 {
			return errors.New("an assistant turn carries tool results")
		}
		if m.Text == "" && len(m.ToolCalls) == 0 {
			return errors.New("an empty assistant turn")
		}
		seen := make(map[string]bool)
		for j, c := range m.ToolCalls {
			switch {
			case c.ID == "":
				return fmt.Errorf("tool_calls[%d] (%s): no id", j, c.Name)
			case seen[c.ID]:
				return fmt.Errorf("tool_calls[%d]: id %q used twice", j, c.ID)
			case c.Name == "":
				return fmt.Errorf("tool_calls[%d] (%s): no tool name", j, c.ID)
			case len(c.Args) > 0 && !isObject(c.Args):
				return fmt.Errorf("tool_calls[%d] (%s): args are not a JSON object", j, c.Name)
			}
			seen[c.ID] = true
		}
	}
	return nil
}

// checkResults checks that results answer calls one to one.
func checkResults(calls []ToolCall, results []ToolResult) error {
	pending := make(map[string]bool, len(calls))
	for _, c := range calls {
		pending[c.ID] = true
	}
	for j, r := range results {
		if !pending[r.CallID] {
			return fmt.Errorf("tool_results[%d]: id %q answers no open tool call of the previous turn", j, r.CallID)
		}
		delete(pending, r.CallID)
	}
	for _, c := range calls {
		if pending[c.ID] {
			return fmt.Errorf("tool call %q (%s) has no tool result", c.ID, c.Name)
		}
	}
	return nil
}

func checkTools(tools []Tool) error {
	seen := make(map[string]bool, len(tools))
	for i, t := range tools {
		if t.Name == "" {
			return fmt.Errorf("tools[%d]: no name", i)
		}
		if seen[t.Name] {
			return fmt.Errorf("tools[%d]: %q listed twice", i, t.Name)
		}
		seen[t.Name] = true
		if _, err := objectSchema(t.InputSchema); err != nil {
			return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
	}
	return nil
}

// objectSchema decodes a tool's input schema, which both APIs require to
// describe an object. A missing schema is the empty object schema; a missing
// "type" is taken to be "object".
func objectSchema(raw json.RawMessage) (map[string]any, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if schema == nil {
		return nil, errors.New("null, want a JSON object")
	}
	switch typ := schema["type"]; typ {
	case nil:
		schema["type"] = "object"
	case "object":
	default:
		return nil, fmt.Errorf("type %v, want \"object\"", typ)
	}
	return schema, nil
}

func isObject(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return strings.HasPrefix(s, "{") && json.Valid(raw)
}

// argsOrEmpty returns args, or {} for a call without arguments, which both
// APIs want as an object.
func argsOrEmpty(args json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(args))) == 0 {
		return json.RawMessage("{}")
	}
	return args
}
