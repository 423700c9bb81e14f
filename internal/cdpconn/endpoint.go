package cdpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// httpClient talks to DevTools endpoints. It has no proxy: the endpoint is
// local, and a proxy from the environment must not intercept it. It has no
// timeout of its own: a request lasts as long as its context allows (a
// browser shared by many tasks on a busy machine can take seconds to
// answer), or fetchMax when the context sets no deadline.
var httpClient = &http.Client{
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
}

// fetchMax bounds a request to an endpoint whose context has no deadline.
const fetchMax = 30 * time.Second

// Version is the part of a DevTools endpoint's /json/version that the
// project reads.
type Version struct {
	Browser              string `json:"Browser"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

// FetchVersion asks the DevTools endpoint at httpURL (http://host:port, as
// Endpoint returns it) for /json/version, and checks that it names the
// browser's WebSocket.
func FetchVersion(ctx context.Context, httpURL string) (Version, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, fetchMax)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpURL+"/json/version", nil)
	if err != nil {
		return Version{}, fmt.Errorf("devtools endpoint %s: %w", httpURL, err)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return Version{}, fmt.Errorf("devtools endpoint %s: %w", httpURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return Version{}, fmt.Errorf("devtools endpoint %s: reading /json/version: %w", httpURL, err)
	}
	if resp.StatusCode != http.StatusOK {
		return Version{}, fmt.Errorf("devtools endpoint %s: /json/version answered %s", httpURL, resp.Status)
	}
	var v Version
	if err := json.Unmarshal(body, &v); err != nil {
		return Version{}, fmt.Errorf("devtools endpoint %s: decoding /json/version: %w", httpURL, err)
	}
	if !strings.HasPrefix(v.WebSocketDebuggerURL, "ws://") && !strings.HasPrefix(v.WebSocketDebuggerURL, "wss://") {
		return Version{}, fmt.Errorf("devtools endpoint %s: /json/version has no browser websocket (got %q)", httpURL, v.WebSocketDebuggerURL)
	}
	return v, nil
}

// Endpoint turns what a user may pass as a browser URL into the
// http://host:port form of its DevTools endpoint: a trailing slash or path
// is dropped, and a ws:// address of the same endpoint is accepted.
func Endpoint(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("browser url %q: %w", raw, err)
	}
	switch u.Scheme {
	case "http", "ws":
		u.Scheme = "http"
	case "https", "wss":
		u.Scheme = "https"
	default:
		return "", fmt.Errorf("browser url %q: want http://host:port", raw)
	}
	if u.Host == "" {
		return "", fmt.Errorf("browser url %q: no host", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}
