package llm

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestResolveName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"anthropic", "anthropic"},
		{"claude", "anthropic"},
		{"Claude", "anthropic"},
		{"openai", "openai"},
		{"replay", "replay"},
		{"mock", "replay"},
		{" mock ", "replay"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ResolveName(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ResolveName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
	if _, err := ResolveName("gemini"); err == nil || !strings.Contains(err.Error(), `unknown agent "gemini"`) {
		t.Errorf("ResolveName(gemini): error %v, want an unknown-agent error", err)
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		real, key  bool
		provider   string
		wantErr    bool
		wantInText []string
	}{
		{name: "replay needs nothing", provider: "replay"},
		{name: "mock alias needs nothing", provider: "mock"},
		{name: "anthropic with both", real: true, key: true, provider: "anthropic"},
		{name: "claude without opt-in", key: true, provider: "claude", wantErr: true, wantInText: []string{"CONTRACTBENCH_REAL=1", "missing: CONTRACTBENCH_REAL=1"}},
		{name: "anthropic without key", real: true, provider: "anthropic", wantErr: true, wantInText: []string{"missing: ANTHROPIC_API_KEY"}},
		{name: "anthropic with neither", provider: "anthropic", wantErr: true, wantInText: []string{"missing: CONTRACTBENCH_REAL=1, ANTHROPIC_API_KEY"}},
		{name: "openai without key", real: true, provider: "openai", wantErr: true, wantInText: []string{"set CONTRACTBENCH_REAL=1 and OPENAI_API_KEY", "missing: OPENAI_API_KEY"}},
		{name: "openai with both", real: true, key: true, provider: "openai"},
		{name: "unknown provider", real: true, key: true, provider: "gemini", wantErr: true, wantInText: []string{"unknown agent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Gate(tt.real, tt.key, tt.provider)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Gate(%v, %v, %q) = %v, want error %v", tt.real, tt.key, tt.provider, err, tt.wantErr)
			}
			for _, want := range tt.wantInText {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Gate error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestCheckRequest(t *testing.T) {
	t.Parallel()
	user := Message{Role: RoleUser, Text: "go"}
	call := ToolCall{ID: "c1", Name: "navigate", Args: json.RawMessage(`{"url":"x"}`)}
	assistant := Message{Role: RoleAssistant, ToolCalls: []ToolCall{call}}
	answer := Message{Role: RoleUser, ToolResults: []ToolResult{{CallID: "c1", Content: "ok"}}}
	tests := []struct {
		name    string
		req     Request
		wantErr string // empty: valid
	}{
		{"one user turn", Request{Messages: []Message{user}}, ""},
		{"call and answer", Request{Messages: []Message{user, assistant, answer}, Tools: testTools}, ""},
		{"results and text together", Request{Messages: []Message{user, assistant, {Role: RoleUser, Text: "also", ToolResults: answer.ToolResults}}}, ""},
		{"no messages", Request{}, "no messages"},
		{"starts with assistant", Request{Messages: []Message{assistant}}, `messages[0]: role "assistant", want "user"`},
		{"two user turns", Request{Messages: []Message{user, user}}, `messages[1]: role "user", want "assistant"`},
		{"ends with assistant", Request{Messages: []Message{user, {Role: RoleAssistant, Text: "hm"}}}, "must end with a user turn"},
		{"empty user turn", Request{Messages: []Message{{Role: RoleUser}}}, "an empty user turn"},
		{"empty assistant turn", Request{Messages: []Message{user, {Role: RoleAssistant}, user}}, "an empty assistant turn"},
		{"user makes calls", Request{Messages: []Message{{Role: RoleUser, Text: "x", ToolCalls: []ToolCall{call}}}}, "a user turn carries tool calls"},
		{"assistant gives results", Request{Messages: []Message{user, {Role: RoleAssistant, Text: "x", ToolResults: answer.ToolResults}, user}}, "an assistant turn carries tool results"},
		{"call unanswered", Request{Messages: []Message{user, assistant, user}}, `tool call "c1" (navigate) has no tool result`},
		{"result answers nothing", Request{Messages: []Message{user, {Role: RoleAssistant, Text: "x"}, answer}}, `id "c1" answers no open tool call`},
		{"result given twice", Request{Messages: []Message{user, assistant, {Role: RoleUser, ToolResults: []ToolResult{{CallID: "c1"}, {CallID: "c1"}}}}}, `id "c1" answers no open tool call`},
		{"results in the first turn", Request{Messages: []Message{answer}}, "answers no open tool call"},
		{"call without id", Request{Messages: []Message{user, {Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "navigate"}}}, answer}}, "no id"},
		{"same id twice", Request{Messages: []Message{user, {Role: RoleAssistant, ToolCalls: []ToolCall{call, call}}, answer}}, `id "c1" used twice`},
		{"args not an object", Request{Messages: []Message{user, {Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "n", Args: json.RawMessage(`[1]`)}}}, answer}}, "args are not a JSON object"},
		{"max tokens above ceiling", Request{Messages: []Message{user}, MaxTokens: 5000}, "ceiling"},
		{"tool without name", Request{Messages: []Message{user}, Tools: []Tool{{}}}, "tools[0]: no name"},
		{"tool twice", Request{Messages: []Message{user}, Tools: []Tool{{Name: "a"}, {Name: "a"}}}, `"a" listed twice`},
		{"schema not an object type", Request{Messages: []Message{user}, Tools: []Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"string"}`)}}}, `tool a: input schema: type string, want "object"`},
		{"schema not JSON", Request{Messages: []Message{user}, Tools: []Tool{{Name: "a", InputSchema: json.RawMessage(`{`)}}}, "tool a: input schema: not a JSON object"},
		{"schema null", Request{Messages: []Message{user}, Tools: []Tool{{Name: "a", InputSchema: json.RawMessage(`null`)}}}, "tool a: input schema: null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := checkRequest(tt.req)
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("valid request refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}
