package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

	"contractbench/internal/llm/llmfake"
)

func TestOpenAIConversation(t *testing.T) {
	t.Parallel()
	fake := llmfake.NewOpenAI([]llmfake.Turn{
		{ToolCalls: []llmfake.ToolCall{{Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}}, Usage: llmfake.Usage{InputTokens: 900, OutputTokens: 30}},
		{Text: "Reading.", ToolCalls: []llmfake.ToolCall{{Name: "read_page"}, {Name: "list_tabs"}}, Usage: llmfake.Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 1024}},
		{Text: "Example Domain", Usage: llmfake.Usage{InputTokens: 50, OutputTokens: 4, CacheReadTokens: 1024}},
	})
	defer fake.Close()
	p, err := NewOpenAI(OpenAIOptions{APIKey: "test-key", BaseURL: fake.URL})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "openai" || p.Model() != defaultOpenAIModel {
		t.Errorf("Name, Model = %q, %q; want openai, %q", p.Name(), p.Model(), defaultOpenAIModel)
	}
	responses, err := converse(context.Background(), p, func(c ToolCall) ToolResult {
		r := okResult(c)
		if c.Name == "read_page" {
			r.IsError, r.Content = true, "no page loaded"
		}
		return r
	})
	if err != nil {
		t.Fatalf("conversation: %v", err)
	}
	requireNoProblems(t, fake.Problems())
	if len(responses) != 3 {
		t.Fatalf("got %d responses, want 3", len(responses))
	}
	if got := responses[0]; len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != "navigate" || string(got.ToolCalls[0].Args) != `{"url":"https://example.com/"}` || got.StopReason != "tool_calls" {
		t.Errorf("first response = %+v", got)
	}
	// prompt_tokens 1124 of which 1024 cached: 100 input, 1024 cache reads.
	if want := (Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 1024}); responses[1].Usage != want {
		t.Errorf("second usage = %+v, want %+v", responses[1].Usage, want)
	}
	if got := responses[2]; got.Text != "Example Domain" || len(got.ToolCalls) != 0 || got.StopReason != "stop" {
		t.Errorf("final response = %+v", got)
	}

	reqs := fake.Requests()
	for i, r := range reqs {
		var body struct {
			Model               string `json:"model"`
			MaxCompletionTokens int    `json:"max_completion_tokens"`
			Messages            []struct {
				Role       string `json:"role"`
				Content    any    `json:"content"`
				ToolCallID string `json:"tool_call_id"`
			} `json:"messages"`
			Tools []struct {
				Function struct {
					Name       string         `json:"name"`
					Parameters map[string]any `json:"parameters"`
				} `json:"function"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.MaxCompletionTokens != MaxTokensPerTurn || body.Model != defaultOpenAIModel {
			t.Errorf("request %d: model %q max_completion_tokens %d", i, body.Model, body.MaxCompletionTokens)
		}
		if r.Header.Get("Authorization") != "Bearer test-key" {
			t.Errorf("request %d: authorization %q", i, r.Header.Get("Authorization"))
		}
		if body.Messages[0].Role != "system" {
			t.Errorf("request %d: first message role %q, want system", i, body.Messages[0].Role)
		}
		if got := body.Tools[2].Function.Parameters["type"]; got != "object" {
			t.Errorf("request %d: list_tabs parameters type %v, want object", i, got)
		}
		if i == 2 {
			// system, user, assistant, tool, assistant, tool, tool
			roles := []string{}
			for _, m := range body.Messages {
				roles = append(roles, m.Role)
			}
			if got := strings.Join(roles, ","); got != "system,user,assistant,tool,assistant,tool,tool" {
				t.Errorf("third request roles %s", got)
			}
			if c := body.Messages[5].Content; c != "Error: no page loaded" {
				t.Errorf("failed tool result sent as %q, want it marked as an error", c)
			}
		}
	}
}

func TestOpenAIResponseArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     string
		wantArgs string
		wantErr  string
	}{
		{"object", `{"url":"x"}`, `{"url":"x"}`, ""},
		{"empty means no arguments", ``, `{}`, ""},
		{"not JSON", `{"url":`, "", "arguments are not a JSON object"},
		{"an array", `["x"]`, "", "arguments are not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw := `{"id":"c","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"navigate","arguments":` + jsonQuote(tt.args) + `}}]}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
			var c openai.ChatCompletion
			if err := json.Unmarshal([]byte(raw), &c); err != nil {
				t.Fatal(err)
			}
			resp, err := openaiResponse(&c)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(resp.ToolCalls[0].Args); got != tt.wantArgs {
				t.Errorf("args %s, want %s", got, tt.wantArgs)
			}
		})
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
