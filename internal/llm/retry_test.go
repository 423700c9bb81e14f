package llm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"contractbench/internal/llm/llmfake"
)

// newProvider builds the named provider against a fake with the given
// options.
func newProvider(t *testing.T, name, baseURL string, retry RetryPolicy, client *http.Client, timeout time.Duration) Provider {
	t.Helper()
	var (
		p   Provider
		err error
	)
	switch name {
	case NameAnthropic:
		p, err = NewAnthropic(AnthropicOptions{APIKey: "key-for-tests", BaseURL: baseURL, Retry: retry, HTTPClient: client, RequestTimeout: timeout})
	case NameOpenAI:
		p, err = NewOpenAI(OpenAIOptions{APIKey: "key-for-tests", BaseURL: baseURL, Retry: retry, HTTPClient: client, RequestTimeout: timeout})
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newFake(name string, script []llmfake.Turn) *llmfake.Server {
	if name == NameOpenAI {
		return llmfake.NewOpenAI(script)
	}
	return llmfake.NewAnthropic(script)
}

var hello = Request{Messages: []Message{{Role: RoleUser, Text: "hello"}}}

func TestRetryTransientStatus(t *testing.T) {
	t.Parallel()
	done := llmfake.Turn{Text: "done"}
	header := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	tests := []struct {
		name       string
		script     []llmfake.Turn
		wantSleeps []time.Duration
		wantErr    string // empty: the call succeeds
	}{
		{
			name:       "429 with retry-after, then success",
			script:     []llmfake.Turn{{Status: 429, ErrorMessage: "slow down", Header: header("retry-after", "3")}, done},
			wantSleeps: []time.Duration{3 * time.Second},
		},
		{
			name:       "retry-after-ms wins over retry-after",
			script:     []llmfake.Turn{{Status: 429, Header: header("retry-after-ms", "1500", "retry-after", "9")}, done},
			wantSleeps: []time.Duration{1500 * time.Millisecond},
		},
		{
			// Backoff 1 s then 2 s, jitter fixed at 0.5: half of each
			// plus a quarter.
			name:       "overloaded and server errors back off exponentially",
			script:     []llmfake.Turn{{Status: 529}, {Status: 500}, done},
			wantSleeps: []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond},
		},
		{
			name:       "408 and 409 are retried",
			script:     []llmfake.Turn{{Status: 408}, {Status: 409}, done},
			wantSleeps: []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond},
		},
		{
			name:       "gives up after four attempts",
			script:     []llmfake.Turn{{Status: 503, ErrorMessage: "down"}, {Status: 503, ErrorMessage: "down"}, {Status: 503, ErrorMessage: "down"}, {Status: 503, ErrorMessage: "still down"}, done},
			wantSleeps: []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second},
			wantErr:    "still down (gave up after 4 attempts)",
		},
		{
			name:    "retry-after past the 30 s budget ends at once",
			script:  []llmfake.Turn{{Status: 429, ErrorMessage: "quota", Header: header("retry-after", "60")}, done},
			wantErr: "past the 30s retry budget",
		},
	}
	for _, provider := range []string{NameAnthropic, NameOpenAI} {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				fake := newFake(provider, tt.script)
				defer fake.Close()
				clock := newFakeClock()
				p := newProvider(t, provider, fake.URL, clock.policy(0.5), nil, 0)
				resp, err := p.Next(context.Background(), hello)
				requireNoProblems(t, fake.Problems())
				if tt.wantErr == "" {
					if err != nil {
						t.Fatalf("Next: %v", err)
					}
					if resp.Text != "done" {
						t.Errorf("text %q, want done", resp.Text)
					}
				} else {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
					}
					var apiErr *statusError
					if !errors.As(err, &apiErr) || !apiErr.Transient() {
						t.Errorf("error %v does not wrap the transient *APIError", err)
					}
				}
				if got := clock.Sleeps(); !reflect.DeepEqual(got, tt.wantSleeps) && !(len(got) == 0 && len(tt.wantSleeps) == 0) {
					t.Errorf("slept %v, want %v", got, tt.wantSleeps)
				}
				wantRequests := len(tt.wantSleeps) + 1
				if got := len(fake.Requests()); got != wantRequests {
					t.Errorf("%d requests, want %d", got, wantRequests)
				}
			})
		}
	}
}

func TestNoRetryOnPermanentStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status  int
		typ     string
		message string
	}{
		{400, "invalid_request_error", "messages: field required"},
		{401, "authentication_error", "invalid x-api-key"},
		{403, "permission_error", "your key may not use this model"},
		{404, "not_found_error", "model: claude-nope"},
	}
	for _, provider := range []string{NameAnthropic, NameOpenAI} {
		for _, tt := range tests {
			t.Run(provider+"/"+http.StatusText(tt.status), func(t *testing.T) {
				t.Parallel()
				fake := newFake(provider, []llmfake.Turn{{Status: tt.status, ErrorType: tt.typ, ErrorMessage: tt.message}, {Text: "unreachable"}})
				defer fake.Close()
				clock := newFakeClock()
				p := newProvider(t, provider, fake.URL, clock.policy(0.5), nil, 0)
				_, err := p.Next(context.Background(), hello)
				var apiErr *statusError
				if !errors.As(err, &apiErr) {
					t.Fatalf("error %v (%T), want an *APIError", err, err)
				}
				if apiErr.StatusCode != tt.status || apiErr.Type != tt.typ || apiErr.Message != tt.message || apiErr.Provider != provider {
					t.Errorf("APIError %+v, want status %d type %q message %q", apiErr, tt.status, tt.typ, tt.message)
				}
				msg := err.Error()
				for _, want := range []string{provider + ": ", "HTTP " + strconv.Itoa(tt.status), http.StatusText(tt.status), tt.message} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q lacks %q", msg, want)
					}
				}
				if strings.Contains(msg, "key-for-tests") {
					t.Errorf("error %q contains the API key", msg)
				}
				if n := len(fake.Requests()); n != 1 {
					t.Errorf("%d requests, want exactly 1 (no retry)", n)
				}
				if s := clock.Sleeps(); len(s) != 0 {
					t.Errorf("slept %v before failing, want no wait", s)
				}
			})
		}
	}
}

// flakyTransport fails its first call with err, or, when err is nil, hangs
// until the request's context ends; later calls go through.
type flakyTransport struct {
	err   error
	calls atomic.Int32
}

func (f *flakyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.calls.Add(1) == 1 {
		if f.err != nil {
			return nil, f.err
		}
		<-r.Context().Done()
		return nil, r.Context().Err()
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestRetryTransportFailures(t *testing.T) {
	t.Parallel()
	reset := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	tests := []struct {
		name      string
		err       error // nil: the first attempt hangs past its timeout
		wantRetry bool
	}{
		{"connection reset is retried", reset, true},
		{"attempt timeout is retried", nil, true},
		{"connection refused is not", refused, false},
	}
	for _, provider := range []string{NameAnthropic, NameOpenAI} {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				fake := newFake(provider, []llmfake.Turn{{Text: "done"}})
				defer fake.Close()
				clock := newFakeClock()
				transport := &flakyTransport{err: tt.err}
				// The timeout only has to end the hanging first attempt; a
				// short one would also end a served attempt on a busy machine.
				p := newProvider(t, provider, fake.URL, clock.policy(0), &http.Client{Transport: transport}, time.Second)
				resp, err := p.Next(context.Background(), hello)
				if tt.wantRetry {
					if err != nil {
						t.Fatalf("Next: %v, want success after one retry", err)
					}
					if resp.Text != "done" || len(clock.Sleeps()) != 1 || transport.calls.Load() != 2 {
						t.Errorf("text %q after %d attempts and sleeps %v; want done after 2 attempts, 1 sleep", resp.Text, transport.calls.Load(), clock.Sleeps())
					}
					return
				}
				if err == nil {
					t.Fatal("Next succeeded, want the transport error")
				}
				if !strings.Contains(err.Error(), "connection refused") || transport.calls.Load() != 1 {
					t.Errorf("error %v after %d attempts, want the refusal after 1", err, transport.calls.Load())
				}
			})
		}
	}
}

func TestNoRetryWhenCallerContextEnds(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{NameAnthropic, NameOpenAI} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := newFake(provider, []llmfake.Turn{{Text: "done"}})
			defer fake.Close()
			clock := newFakeClock()
			transport := &flakyTransport{} // hangs until the context ends
			p := newProvider(t, provider, fake.URL, clock.policy(0), &http.Client{Transport: transport}, time.Minute)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			defer cancel()
			_, err := p.Next(ctx, hello)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v, want one that is context.DeadlineExceeded", err)
			}
			if n := transport.calls.Load(); n != 1 || len(clock.Sleeps()) != 0 {
				t.Errorf("%d attempts, sleeps %v; want 1 attempt and no retry", n, clock.Sleeps())
			}
		})
	}
}

func TestRetryAfterHeader(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"retry-after": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"retry-after": "0.5"}, 500 * time.Millisecond},
		{"milliseconds", map[string]string{"retry-after-ms": "250"}, 250 * time.Millisecond},
		{"milliseconds first", map[string]string{"retry-after-ms": "250", "retry-after": "7"}, 250 * time.Millisecond},
		{"HTTP date", map[string]string{"retry-after": now.Add(12 * time.Second).Format(http.TimeFormat)}, 12 * time.Second},
		{"date in the past", map[string]string{"retry-after": now.Add(-time.Hour).Format(http.TimeFormat)}, 0},
		{"garbage", map[string]string{"retry-after": "soon"}, 0},
		{"negative", map[string]string{"retry-after": "-3"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			if got := retryAfter(h, now); got != tt.want {
				t.Errorf("retryAfter(%v) = %v, want %v", tt.header, got, tt.want)
			}
		})
	}
}

func TestAPIErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, wantType, wantMsg string
	}{
		{"anthropic", `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, "rate_limit_error", "slow down"},
		{"openai", `{"error":{"message":"bad key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, "invalid_request_error", "bad key"},
		{"openai error object as its SDK keeps it", `{"message":"bad key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}`, "invalid_request_error", "bad key"},
		{"openai code only", `{"error":{"message":"m","code":"model_not_found"}}`, "model_not_found", "m"},
		{"error string", `{"error":"model not loaded"}`, "", "model not loaded"},
		{"message", `{"message":"overloaded"}`, "", "overloaded"},
		{"detail", `{"detail":"Not Found"}`, "", "Not Found"},
		{"html", "<html><body>502 Bad Gateway</body></html>", "", "<html><body>502 Bad Gateway</body></html>"},
		{"long text cut", strings.Repeat("x", 500), "", strings.Repeat("x", maxErrorText) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			typ, msg := apiErrorText(tt.body)
			if typ != tt.wantType || msg != tt.wantMsg {
				t.Errorf("apiErrorText = %q, %q; want %q, %q", typ, msg, tt.wantType, tt.wantMsg)
			}
		})
	}
}
