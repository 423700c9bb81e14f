package llm

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// remote is what the two paid providers share: the API they call (its
// name), the model, how long one attempt may take, the retry policy, and
// the secrets (API key, credentials in the base URL) that no error may
// show.
type remote struct {
	name    string
	model   string
	timeout time.Duration
	retry   RetryPolicy
	secrets []string
}

// endpoint is a paid provider's options before defaults, and the defaults.
type endpoint struct {
	name                      string
	apiKey, baseURL, model    string
	defaultBase, defaultModel string
	client                    *http.Client
	timeout                   time.Duration
	retry                     RetryPolicy
}

// resolve applies the defaults and checks the base URL. It returns the
// remote, the base URL and the HTTP client to build the SDK service with.
func (e endpoint) resolve() (remote, string, *http.Client, error) {
	r := remote{name: e.name, model: e.model, timeout: e.timeout, retry: e.retry}
	if e.apiKey != "" {
		r.secrets = append(r.secrets, e.apiKey)
	}
	r.secrets = append(r.secrets, urlSecrets(e.baseURL)...)
	base := e.baseURL
	if base == "" {
		base = e.defaultBase
	}
	if err := checkBaseURL(base); err != nil {
		return remote{}, "", nil, r.fail("", err)
	}
	if r.model == "" {
		r.model = e.defaultModel
	}
	if r.timeout <= 0 {
		r.timeout = defaultRequestTimeout
	}
	client := e.client
	if client == nil {
		client = &http.Client{}
	}
	return r, base, client, nil
}

// Name implements Provider.
func (r *remote) Name() string { return r.name }

// Model implements Provider.
func (r *remote) Model() string { return r.model }

// fail is err, redacted, as this provider's error at stage ("request",
// "response"; empty for none).
func (r *remote) fail(stage string, err error) error {
	prefix := r.name + ": "
	if stage != "" {
		prefix += stage + ": "
	}
	return fmt.Errorf("%s%s", prefix, Redact(err.Error(), r.secrets...))
}

// apiError is an SDK's HTTP error as an *APIError, its response headers
// read for retry-after when there is a response.
func (r *remote) apiError(status int, resp *http.Response, body string) *statusError {
	var h http.Header
	if resp != nil {
		h = resp.Header
	}
	return newAPIError(r.name, status, h, body, r.retry.withDefaults().Now(), r.secrets)
}

// transportError is an error that never reached the API, redacted.
func (r *remote) transportError(parent context.Context, err error) error {
	return newTransportError(r.name, parent, err, r.secrets)
}
