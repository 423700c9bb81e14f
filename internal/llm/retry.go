package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RetryPolicy is the one retry policy for API calls. Both SDKs' own retries
// are switched off so that what is retried, how often and for how long is
// decided here and tested here. The zero value is the default policy.
type RetryPolicy struct {
	// MaxAttempts bounds the attempts of one call, the first included
	// (default 4).
	MaxAttempts int
	// MaxElapsed bounds the time from the first attempt to the start of
	// the last retry (default 30 s). A server asking to wait past it ends
	// the call at once rather than holding the task hostage.
	MaxElapsed time.Duration
	// BaseDelay is the first backoff (default 1 s); it doubles per retry
	// up to MaxDelay (default 10 s). The delay actually slept is drawn
	// uniformly from the upper half of that, so that parallel tasks hit
	// by the same rate limit do not retry in lockstep.
	BaseDelay time.Duration
	MaxDelay  time.Duration

	// Sleep, Now and Jitter replace the clock and randomness in tests.
	// Sleep must return early with ctx's error when ctx is done. Jitter
	// returns a number in [0, 1).
	Sleep  func(ctx context.Context, d time.Duration) error
	Now    func() time.Time
	Jitter func() float64
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.MaxElapsed <= 0 {
		p.MaxElapsed = 30 * time.Second
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = time.Second
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 10 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepContext
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Jitter == nil {
		p.Jitter = rand.Float64
	}
	return p
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// backoff is the delay before retry n (1-based).
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	return d/2 + time.Duration(p.Jitter()*float64(d/2))
}

// do runs attempt until it succeeds, fails permanently, or the policy is
// spent. attempt must return errors that are already redacted: do wraps
// them into the messages it returns.
func (p RetryPolicy) do(ctx context.Context, attempt func(ctx context.Context) error) error {
	p = p.withDefaults()
	start := p.Now()
	for n := 1; ; n++ {
		err := attempt(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			// The task's own deadline or cancellation: nothing to retry.
			return err
		}
		wait, ok := retryable(err)
		if !ok {
			return err
		}
		if n >= p.MaxAttempts {
			return fmt.Errorf("%w (gave up after %d attempts)", err, n)
		}
		if wait == 0 {
			wait = p.backoff(n)
		}
		if elapsed := p.Now().Sub(start); elapsed+wait > p.MaxElapsed {
			return fmt.Errorf("%w (gave up after %d attempts: the next one, in %s, would start past the %s retry budget)",
				err, n, wait.Round(time.Millisecond), p.MaxElapsed)
		}
		if serr := p.Sleep(ctx, wait); serr != nil {
			return fmt.Errorf("%w (interrupted while waiting to retry: %w)", err, serr)
		}
	}
}

// retryable reports whether err is worth another attempt and how long the
// server asked to wait (0 when it did not say).
func retryable(err error) (wait time.Duration, ok bool) {
	var apiErr *statusError
	if errors.As(err, &apiErr) {
		return apiErr.RetryAfter, apiErr.Transient()
	}
	var te *transportError
	if errors.As(err, &te) {
		return 0, te.transient
	}
	return 0, false
}

// statusError is an error answer from a model API, reduced to what is safe and
// useful to show: the status, the API's error type and its message, with
// secrets redacted. It replaces the SDKs' errors, whose text includes the
// request URL.
type statusError struct {
	Provider   string
	StatusCode int
	// Type is the API's error type ("rate_limit_error",
	// "invalid_request_error", …); empty when the body named none.
	Type    string
	Message string
	// RetryAfter is what the response's retry-after-ms or retry-after
	// header asked for; 0 when neither was present.
	RetryAfter time.Duration
}

func (e *statusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: HTTP %d", e.Provider, e.StatusCode)
	if text := http.StatusText(e.StatusCode); text != "" {
		b.WriteString(" " + text)
	}
	if e.Type != "" {
		b.WriteString(": " + e.Type)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// Transient reports whether the status is worth retrying: request timeout,
// conflict, rate limiting, and server-side failures (including Anthropic's
// 529 overloaded). 400, 401, 403, 404 and the like will fail the same way
// again.
func (e *statusError) Transient() bool {
	switch {
	case e.StatusCode == http.StatusRequestTimeout,
		e.StatusCode == http.StatusConflict,
		e.StatusCode == http.StatusTooManyRequests,
		e.StatusCode >= 500:
		return true
	}
	return false
}

// newAPIError builds an APIError from an error response's status, headers
// and body.
func newAPIError(provider string, status int, header http.Header, body string, now time.Time, secrets []string) *statusError {
	typ, msg := apiErrorText(body)
	return &statusError{
		Provider:   provider,
		StatusCode: status,
		Type:       Redact(typ, secrets...),
		Message:    Redact(msg, secrets...),
		RetryAfter: retryAfter(header, now),
	}
}

// maxErrorText bounds how much of an unrecognized error body is kept: a
// proxy's HTML error page is noise past its first line.
const maxErrorText = 300

// apiErrorText pulls the error type and message out of an error body.
// Anthropic answers {"type":"error","error":{"type":…,"message":…}}, OpenAI
// {"error":{"message":…,"type":…,"code":…}} (of which its SDK keeps the
// inner object); OpenAI-compatible servers vary
// ({"error":"…"}, {"message":…}, {"detail":…}), and proxies send HTML.
func apiErrorText(body string) (typ, msg string) {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Type    string          `json:"type"`
		Code    any             `json:"code"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal([]byte(body), &env) == nil {
		var inner struct {
			Type    string `json:"type"`
			Code    any    `json:"code"`
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(env.Error, &inner) == nil && (inner.Message != "" || inner.Type != ""):
			return errorType(inner.Type, inner.Code), inner.Message
		case json.Unmarshal(env.Error, &s) == nil && s != "":
			return "", s
		case env.Message != "":
			// The error object itself, as the OpenAI SDK keeps it.
			return errorType(env.Type, env.Code), env.Message
		case env.Detail != nil:
			return "", fmt.Sprint(env.Detail)
		}
	}
	body = strings.TrimSpace(body)
	if len(body) > maxErrorText {
		body = body[:maxErrorText] + "…"
	}
	return "", body
}

// errorType is an error body's type, or its code when it names no type.
func errorType(typ string, code any) string {
	if typ == "" && code != nil {
		return fmt.Sprint(code)
	}
	return typ
}

// retryAfter reads the wait a response asks for: retry-after-ms
// (milliseconds, sent by both APIs) takes precedence over retry-after
// (seconds or an HTTP date).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// transportError is a failure to get any answer from the API (connection,
// TLS, timeout). Its message is redacted; it unwraps only to the context
// error, if that was the cause, so that no unredacted text can be reached
// through errors.Unwrap.
type transportError struct {
	msg       string
	transient bool
	ctxErr    error
}

func (e *transportError) Error() string { return e.msg }
func (e *transportError) Unwrap() error { return e.ctxErr }

// newTransportError classifies a failed attempt that produced no response.
// parent is the caller's context: when only the attempt's own timeout
// expired, the call is retried.
func newTransportError(provider string, parent context.Context, err error, secrets []string) *transportError {
	te := &transportError{msg: provider + ": " + Redact(err.Error(), secrets...)}
	switch {
	case errors.Is(err, context.Canceled):
		te.ctxErr = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		te.ctxErr = context.DeadlineExceeded
		te.transient = parent.Err() == nil
		if te.transient {
			te.msg = provider + ": the request timed out"
		}
	case errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.EOF):
		te.transient = true
	default:
		var netErr net.Error
		te.transient = errors.As(err, &netErr) && netErr.Timeout()
	}
	return te
}

// send makes one API call under the policy: each attempt gets its own
// timeout, and convert turns an SDK error into one the policy can classify
// (and that names no secret).
func send[T any](ctx context.Context, p RetryPolicy, timeout time.Duration,
	call func(context.Context) (T, error), convert func(context.Context, error) error) (T, error) {
	var out T
	err := p.do(ctx, func(ctx context.Context) error {
		attemptCtx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		v, err := call(attemptCtx)
		if err != nil {
			return convert(ctx, err)
		}
		out = v
		return nil
	})
	return out, err
}
