package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"contractbench/internal/llm/llmfake"
)

func TestAnthropicConversation(t *testing.T) {
	t.Parallel()
	fake := llmfake.NewAnthropic([]llmfake.Turn{
		{Text: "Opening the page.", ToolCalls: []llmfake.ToolCall{{Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}}, Usage: llmfake.Usage{InputTokens: 1000, OutputTokens: 50, CacheWriteTokens: 800}},
		{ToolCalls: []llmfake.ToolCall{{Name: "read_page"}, {Name: "list_tabs", Args: json.RawMessage(`{}`)}}, Usage: llmfake.Usage{InputTokens: 200, OutputTokens: 40, CacheReadTokens: 800}},
		{Text: "Example Domain", Usage: llmfake.Usage{InputTokens: 300, OutputTokens: 5, CacheReadTokens: 900}},
	})
	defer fake.Close()
	p, err := NewAnthropic(AnthropicOptions{APIKey: "test-key", BaseURL: fake.URL})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "anthropic" || p.Model() != DefaultAnthropicModel {
		t.Errorf("Name, Model = %q, %q; want anthropic, %q", p.Name(), p.Model(), DefaultAnthropicModel)
	}

	// read_page fails, so the next request must carry is_error: true.
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
	first := responses[0]
	if first.Text != "Opening the page." || len(first.ToolCalls) != 1 || first.ToolCalls[0].Name != "navigate" ||
		string(first.ToolCalls[0].Args) != `{"url":"https://example.com/"}` || first.StopReason != "tool_use" {
		t.Errorf("first response = %+v", first)
	}
	if want := (Usage{InputTokens: 1000, OutputTokens: 50, CacheWriteTokens: 800}); first.Usage != want {
		t.Errorf("first usage = %+v, want %+v", first.Usage, want)
	}
	if got := responses[1].ToolCalls; len(got) != 2 || string(got[0].Args) != `{}` {
		t.Errorf("second response's calls = %+v, want read_page and list_tabs with {} args", got)
	}
	last := responses[2]
	if last.Text != "Example Domain" || len(last.ToolCalls) != 0 || last.StopReason != "end_turn" {
		t.Errorf("final response = %+v", last)
	}
	if want := (Usage{InputTokens: 300, OutputTokens: 5, CacheReadTokens: 900}); last.Usage != want {
		t.Errorf("final usage = %+v, want %+v", last.Usage, want)
	}

	reqs := fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("fake saw %d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		var body struct {
			Model     string `json:"model"`
			MaxTokens int    `json:"max_tokens"`
			Tools     []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"input_schema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.MaxTokens != MaxTokensPerTurn || body.Model != DefaultAnthropicModel {
			t.Errorf("request %d: model %q max_tokens %d, want %q and %d", i, body.Model, body.MaxTokens, DefaultAnthropicModel, MaxTokensPerTurn)
		}
		if r.Header.Get("x-api-key") != "test-key" {
			t.Errorf("request %d: x-api-key %q", i, r.Header.Get("x-api-key"))
		}
		if len(body.Tools) != 3 {
			t.Fatalf("request %d: %d tools, want 3", i, len(body.Tools))
		}
		if _, ok := body.Tools[1].InputSchema["$defs"]; !ok {
			t.Errorf("request %d: read_page schema lost $defs: %v", i, body.Tools[1].InputSchema)
		}
		if body.Tools[0].InputSchema["additionalProperties"] != false {
			t.Errorf("request %d: navigate schema lost additionalProperties: %v", i, body.Tools[0].InputSchema)
		}
	}
	third := string(reqs[2].Body)
	for _, want := range []string{`"is_error":true`, `"no page loaded"`, `"is_error":false`, `"ok: list_tabs"`} {
		if !strings.Contains(third, want) {
			t.Errorf("third request lacks %s:\n%s", want, third)
		}
	}
}

func TestAnthropicModelAndTokenCap(t *testing.T) {
	t.Parallel()
	fake := llmfake.NewAnthropic([]llmfake.Turn{{Text: "done"}})
	defer fake.Close()
	p, err := NewAnthropic(AnthropicOptions{APIKey: "k-123", BaseURL: fake.URL, Model: "claude-haiku-4-5"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Next(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "hi"}}, MaxTokens: 1000})
	if err != nil {
		t.Fatal(err)
	}
	requireNoProblems(t, fake.Problems())
	body := string(fake.Requests()[0].Body)
	if !strings.Contains(body, `"max_tokens":1000`) || !strings.Contains(body, `"model":"claude-haiku-4-5"`) {
		t.Errorf("request body %s, want max_tokens 1000 and the chosen model", body)
	}

	_, err = p.Next(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "hi"}}, MaxTokens: MaxTokensPerTurn + 1})
	if err == nil || !strings.Contains(err.Error(), "ceiling") {
		t.Errorf("MaxTokens above the ceiling: error %v, want a refusal naming the ceiling", err)
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("a refused request still reached the API (%d requests)", n)
	}
}

func TestNewAnthropicOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    AnthropicOptions
		wantErr string
	}{
		{"no key", AnthropicOptions{}, "no API key"},
		{"bad scheme", AnthropicOptions{APIKey: "k", BaseURL: "ftp://example.com"}, `scheme "ftp"`},
		{"no host", AnthropicOptions{APIKey: "k", BaseURL: "http://"}, "no host"},
		{"defaults", AnthropicOptions{APIKey: "k"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewAnthropic(tt.opts)
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}
