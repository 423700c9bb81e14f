package llmfake

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// post sends body to the fake with the headers a real client sends and
// returns the status and the response body.
func post(t *testing.T, s *Server, url string, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var anthropicHeaders = map[string]string{"x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json"}

const navigateTool = `{"name":"navigate","input_schema":{"type":"object","properties":{"url":{"type":"string"}}}}`

func TestAnthropicFakeValidates(t *testing.T) {
	t.Parallel()
	const (
		toolUse    = `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"navigate","input":{"url":"x"}}]}`
		toolResult = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok","is_error":false}]}`
		hi         = `{"role":"user","content":"hi"}`
	)
	body := func(messages string, extra string) string {
		return `{"model":"claude-sonnet-4-6","max_tokens":64,"tools":[` + navigateTool + `],"messages":[` + messages + `]` + extra + `}`
	}
	tests := []struct {
		name     string
		body     string
		headers  map[string]string
		wantCode int
		wantMsg  string
	}{
		{"valid first turn", body(hi, ""), anthropicHeaders, 200, ""},
		{"valid tool round trip", body(hi+","+toolUse+","+toolResult, `,"system":"be brief"`), anthropicHeaders, 200, ""},
		{"valid result with text after it", body(hi+","+toolUse+`,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1"},{"type":"text","text":"go on"}]}`, ""), anthropicHeaders, 200, ""},
		{"no api key", body(hi, ""), map[string]string{"anthropic-version": "2023-06-01"}, 401, "x-api-key header is required"},
		{"no version header", body(hi, ""), map[string]string{"x-api-key": "k"}, 400, "anthropic-version"},
		{"max_tokens missing", `{"model":"m","messages":[` + hi + `]}`, anthropicHeaders, 400, "max_tokens: field required"},
		{"max_tokens zero", `{"model":"m","max_tokens":0,"messages":[` + hi + `]}`, anthropicHeaders, 400, "at least 1"},
		{"model missing", `{"max_tokens":5,"messages":[` + hi + `]}`, anthropicHeaders, 400, "model: field required"},
		{"no messages", body("", ""), anthropicHeaders, 400, "at least one message"},
		{"starts with assistant", body(`{"role":"assistant","content":"x"},`+hi, ""), anthropicHeaders, 400, "roles must alternate"},
		{"two user turns", body(hi+","+hi, ""), anthropicHeaders, 400, "roles must alternate"},
		{"ends with assistant", body(hi+`,{"role":"assistant","content":"x"}`, ""), anthropicHeaders, 400, "final message must have role \"user\""},
		{"empty text", body(`{"role":"user","content":[{"type":"text","text":""}]}`, ""), anthropicHeaders, 400, "text content blocks must be non-empty"},
		{"tool_use unanswered", body(hi+","+toolUse+","+hi, ""), anthropicHeaders, 400, "`tool_use` ids were found without `tool_result` blocks"},
		{"tool_result for unknown id", body(hi+`,{"role":"assistant","content":"x"},`+toolResult, ""), anthropicHeaders, 400, "unexpected `tool_use_id`"},
		{"tool_result answered twice", body(hi+","+toolUse+`,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1"},{"type":"tool_result","tool_use_id":"toolu_1"}]}`, ""), anthropicHeaders, 400, "unexpected `tool_use_id`"},
		{"tool_result after text", body(hi+","+toolUse+`,{"role":"user","content":[{"type":"text","text":"x"},{"type":"tool_result","tool_use_id":"toolu_1"}]}`, ""), anthropicHeaders, 400, "must come before"},
		{"tool_use input not an object", body(hi+`,{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"navigate","input":"x"}]},`+toolResult, ""), anthropicHeaders, 400, "valid dictionary"},
		{"is_error not a boolean", body(hi+","+toolUse+`,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":"yes"}]}`, ""), anthropicHeaders, 400, "is_error"},
		{"schema not an object", `{"model":"m","max_tokens":5,"tools":[{"name":"t","input_schema":{"type":"string"}}],"messages":[` + hi + `]}`, anthropicHeaders, 400, `type "object"`},
		{"schema missing", `{"model":"m","max_tokens":5,"tools":[{"name":"t"}],"messages":[` + hi + `]}`, anthropicHeaders, 400, "input_schema: Field required"},
		{"bad tool name", `{"model":"m","max_tokens":5,"tools":[{"name":"a b","input_schema":{"type":"object"}}],"messages":[` + hi + `]}`, anthropicHeaders, 400, "should match pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewAnthropic([]Turn{{Text: "fine"}})
			defer s.Close()
			code, resp := post(t, s, s.URL+"/v1/messages", tt.body, tt.headers)
			if code != tt.wantCode {
				t.Fatalf("status %d, want %d; body %s", code, tt.wantCode, resp)
			}
			if tt.wantCode == 200 {
				if len(s.Problems()) != 0 {
					t.Errorf("problems %v for a valid request", s.Problems())
				}
				if !strings.Contains(resp, `"text":"fine"`) {
					t.Errorf("response %s lacks the scripted text", resp)
				}
				return
			}
			var env struct {
				Type  string `json:"type"`
				Error struct {
					Type    string `json:"type"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(resp), &env); err != nil || env.Type != "error" || env.Error.Type == "" || !strings.Contains(env.Error.Message, tt.wantMsg) {
				t.Errorf("error body %s, want an Anthropic error containing %q", resp, tt.wantMsg)
			}
			if p := s.Problems(); len(p) != 1 || !strings.Contains(p[0], tt.wantMsg) {
				t.Errorf("problems %v, want one naming %q", p, tt.wantMsg)
			}
			if s.Remaining() != 1 {
				t.Error("a rejected request consumed a scripted turn")
			}
		})
	}
}

var openaiHeaders = map[string]string{"authorization": "Bearer k", "content-type": "application/json"}

func TestOpenAIFakeValidates(t *testing.T) {
	t.Parallel()
	const (
		assistantCall = `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"navigate","arguments":"{\"url\":\"x\"}"}}]}`
		toolMsg       = `{"role":"tool","tool_call_id":"call_1","content":"ok"}`
		hi            = `{"role":"user","content":"hi"}`
		tools         = `"tools":[{"type":"function","function":{"name":"navigate","parameters":{"type":"object","properties":{}}}}]`
	)
	body := func(messages string) string {
		return `{"model":"gpt-4.1","max_completion_tokens":64,` + tools + `,"messages":[` + messages + `]}`
	}
	tests := []struct {
		name     string
		body     string
		headers  map[string]string
		wantCode int
		wantMsg  string
	}{
		{"valid first turn", body(`{"role":"system","content":"be brief"},` + hi), openaiHeaders, 200, ""},
		{"valid tool round trip", body(hi + "," + assistantCall + "," + toolMsg), openaiHeaders, 200, ""},
		{"valid with legacy max_tokens", `{"model":"m","max_tokens":5,"messages":[` + hi + `]}`, openaiHeaders, 200, ""},
		{"no key", body(hi), map[string]string{}, 401, "didn't provide an API key"},
		{"no model", `{"max_tokens":5,"messages":[` + hi + `]}`, openaiHeaders, 400, "model parameter"},
		{"no token cap", `{"model":"m","messages":[` + hi + `]}`, openaiHeaders, 400, "no max_completion_tokens or max_tokens"},
		{"both token caps", `{"model":"m","max_tokens":5,"max_completion_tokens":5,"messages":[` + hi + `]}`, openaiHeaders, 400, "cannot both be set"},
		{"empty messages", body(""), openaiHeaders, 400, "empty array"},
		{"tool call unanswered", body(hi + "," + assistantCall + "," + hi), openaiHeaders, 400, "did not have response messages: call_1"},
		{"tool call unanswered at the end", body(hi + "," + assistantCall), openaiHeaders, 400, "did not have response messages: call_1"},
		{"tool message for no call", body(hi + "," + toolMsg), openaiHeaders, 400, "must be a response to a preceeding message with 'tool_calls'"},
		{"tool message twice", body(hi + "," + assistantCall + "," + toolMsg + "," + toolMsg), openaiHeaders, 400, "must be a response to a preceeding message"},
		{"arguments not JSON", body(hi + `,{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"navigate","arguments":"{"}}]},{"role":"tool","tool_call_id":"c","content":"x"}`), openaiHeaders, 400, "function.arguments"},
		{"parameters not an object schema", `{"model":"m","max_tokens":5,"tools":[{"type":"function","function":{"name":"t","parameters":{"type":"array"}}}],"messages":[` + hi + `]}`, openaiHeaders, 400, "schema must be a JSON Schema of 'type: \"object\"'"},
		{"unknown role", body(`{"role":"robot","content":"x"}`), openaiHeaders, 400, "Supported values are"},
		{"user content null", body(`{"role":"user","content":null}`), openaiHeaders, 400, "got null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewOpenAI([]Turn{{Text: "fine"}})
			defer s.Close()
			code, resp := post(t, s, s.URL+"chat/completions", tt.body, tt.headers)
			if code != tt.wantCode {
				t.Fatalf("status %d, want %d; body %s", code, tt.wantCode, resp)
			}
			if tt.wantCode == 200 {
				if len(s.Problems()) != 0 {
					t.Errorf("problems %v for a valid request", s.Problems())
				}
				if !strings.Contains(resp, `"content":"fine"`) {
					t.Errorf("response %s lacks the scripted text", resp)
				}
				return
			}
			var env struct {
				Error struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(resp), &env); err != nil || !strings.Contains(env.Error.Message, tt.wantMsg) {
				t.Errorf("error body %s, want an OpenAI error containing %q", resp, tt.wantMsg)
			}
			if p := s.Problems(); len(p) != 1 || !strings.Contains(p[0], tt.wantMsg) {
				t.Errorf("problems %v, want one naming %q", p, tt.wantMsg)
			}
		})
	}
}

func TestFakeScript(t *testing.T) {
	t.Parallel()
	s := NewAnthropic([]Turn{
		{ToolCalls: []ToolCall{{Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}}, Usage: Usage{InputTokens: 7, OutputTokens: 3}},
		{ToolCalls: []ToolCall{{Name: "click"}}},
	})
	defer s.Close()
	req := `{"model":"m","max_tokens":5,"tools":[` + navigateTool + `],"messages":[{"role":"user","content":"hi"}]}`
	code, resp := post(t, s, s.URL+"/v1/messages", req, anthropicHeaders)
	if code != 200 {
		t.Fatalf("status %d: %s", code, resp)
	}
	for _, want := range []string{`"type":"tool_use"`, `"id":"toolu_fake_0001"`, `"input":{"url":"https://example.com/"}`, `"stop_reason":"tool_use"`, `"input_tokens":7`, `"output_tokens":3`} {
		if !strings.Contains(resp, want) {
			t.Errorf("response %s lacks %s", resp, want)
		}
	}

	// The second turn calls a tool the request does not offer.
	code, resp = post(t, s, s.URL+"/v1/messages", req, anthropicHeaders)
	if code != 400 || !strings.Contains(resp, `scripted tool \"click\"`) {
		t.Errorf("status %d body %s, want a 400 naming the unoffered tool", code, resp)
	}
	code, _ = post(t, s, s.URL+"/v1/messages", req, anthropicHeaders)
	if code != 400 {
		t.Errorf("request past the script: status %d, want 400", code)
	}
	if p := s.Problems(); len(p) != 2 || !strings.Contains(p[0], `"click"`) || !strings.Contains(p[1], "after the script's last turn") {
		t.Errorf("problems %v", p)
	}
	if n := len(s.Requests()); n != 3 {
		t.Errorf("%d requests recorded, want 3", n)
	}
}
