package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"contractbench/internal/llm/llmfake"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		secrets []string
		want    string
	}{
		{"secret verbatim", "bad key abc123xyz given", []string{"abc123xyz"}, "bad key [REDACTED] given"},
		{"secret URL-escaped", "GET /?k=a%2Fb%2Bc%3D", []string{"a/b+c="}, "GET /?k=[REDACTED]"},
		{"short secrets ignored", "a b c", []string{"a", ""}, "a b c"},
		{"URL with user and password", `Post "https://user:pa55@api.example.com/v1": EOF`, nil, `Post "https://[REDACTED]@api.example.com/v1": EOF`},
		{"URL with token as user", "http://tok3n@127.0.0.1:8080/v1/", nil, "http://[REDACTED]@127.0.0.1:8080/v1/"},
		{"URL without credentials untouched", "https://api.example.com/v1/messages?x=1", nil, "https://api.example.com/v1/messages?x=1"},
		{"email not a URL", "write to ops@example.com", nil, "write to ops@example.com"},
		{"x-api-key header", "X-Api-Key: abcdef", nil, "X-Api-Key: [REDACTED]"},
		{"authorization bearer header", "Authorization: Bearer abc.def", nil, "Authorization: Bearer [REDACTED]"},
		{"bearer token alone", "sent bearer eyJhbGciOi.x.y", nil, "sent Bearer [REDACTED]"},
		{"api_key pair", `{"api_key":"zzz"}`, nil, `{"api_key":"[REDACTED]"}`},
		{"anthropic key shape", "key sk-ant-api03-AbC_dEf-123 rejected", nil, "key [REDACTED] rejected"},
		{"masked openai key", "Incorrect API key provided: sk-proj-****************wxyz.", nil, "Incorrect API key provided: [REDACTED]"},
		{"nothing to redact", "HTTP 429 Too Many Requests: rate_limit_error", nil, "HTTP 429 Too Many Requests: rate_limit_error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Redact(tt.in, tt.secrets...); got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// plantedKey must never appear in anything a provider returns.
const plantedKey = "sk-test-PLANTED-4f1c9a7e2b"

// TestPlantedKeyNeverLeaks runs every path that produces an error or a
// result with a planted key — as the API key, in the base URL's user info,
// echoed back by the API whole and masked — and greps everything returned.
func TestPlantedKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	echoKey := llmfake.Turn{Status: 401, ErrorType: "authentication_error", ErrorMessage: "invalid x-api-key: " + plantedKey}
	maskedKey := llmfake.Turn{Status: 400, ErrorMessage: "Incorrect API key provided: sk-test-****************2b. You can find your key at https://example.com"}
	busy := llmfake.Turn{Status: 503, ErrorMessage: "overloaded for key " + plantedKey, Header: http.Header{"Retry-After": {"0.01"}}}
	tests := []struct {
		name      string
		script    []llmfake.Turn
		userInfo  string // put into the base URL
		closeFake bool   // connection refused
		request   Request
	}{
		{name: "API echoes the key", script: []llmfake.Turn{echoKey}},
		{name: "API echoes a masked key", script: []llmfake.Turn{maskedKey}},
		{name: "retries exhausted", script: []llmfake.Turn{busy, busy, busy, busy}},
		{name: "key as URL password, server gone", userInfo: "admin:" + plantedKey, closeFake: true},
		{name: "key as URL user, server gone", userInfo: plantedKey, closeFake: true},
		{name: "malformed conversation", request: Request{Messages: []Message{{Role: RoleAssistant, Text: plantedKey}}}},
		{name: "success", script: []llmfake.Turn{
			{ToolCalls: []llmfake.ToolCall{{Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}}},
			{Text: "Example Domain"},
		}},
	}
	for _, provider := range []string{NameAnthropic, NameOpenAI} {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				fake := newFake(provider, tt.script)
				defer fake.Close()
				base := fake.URL
				if tt.userInfo != "" {
					base = strings.Replace(base, "http://", "http://"+tt.userInfo+"@", 1)
				}
				if tt.closeFake {
					fake.Close()
				}
				p := newPlantedProvider(t, provider, base)

				var seen []string
				if tt.request.Messages != nil {
					_, err := p.Next(context.Background(), tt.request)
					if err == nil {
						t.Fatal("malformed request accepted")
					}
					seen = append(seen, err.Error(), fmt.Sprintf("%+v", err))
				} else {
					responses, err := converse(context.Background(), p, okResult)
					if err != nil {
						seen = append(seen, err.Error(), fmt.Sprintf("%+v %#v", err, err))
					}
					for _, r := range responses {
						seen = append(seen, fmt.Sprintf("%+v %s", r, r.ToolCalls))
					}
					if tt.name == "success" && err != nil {
						t.Fatalf("conversation failed: %v", err)
					}
					if tt.name != "success" && err == nil {
						t.Fatal("conversation succeeded, want an error")
					}
				}
				for _, s := range seen {
					if strings.Contains(s, plantedKey) || strings.Contains(s, "PLANTED") {
						t.Errorf("planted key leaked: %s", s)
					}
				}
			})
		}
	}

	// Construction errors name the base URL; they must not name the key.
	for _, provider := range []string{NameAnthropic, NameOpenAI} {
		var err error
		bad := "ftp://user:" + plantedKey + "@example.com/"
		if provider == NameAnthropic {
			_, err = NewAnthropic(AnthropicOptions{APIKey: plantedKey, BaseURL: bad})
		} else {
			_, err = NewOpenAI(OpenAIOptions{APIKey: plantedKey, BaseURL: bad})
		}
		if err == nil || strings.Contains(err.Error(), "PLANTED") {
			t.Errorf("%s: bad base URL error %v, want an error without the key", provider, err)
		}
	}
}

func newPlantedProvider(t *testing.T, provider, base string) Provider {
	t.Helper()
	clock := newFakeClock()
	var (
		p   Provider
		err error
	)
	if provider == NameAnthropic {
		p, err = NewAnthropic(AnthropicOptions{APIKey: plantedKey, BaseURL: base, Retry: clock.policy(0)})
	} else {
		p, err = NewOpenAI(OpenAIOptions{APIKey: plantedKey, BaseURL: base, Retry: clock.policy(0)})
	}
	if err != nil {
		t.Fatalf("new provider: %v", err)
	}
	return p
}
