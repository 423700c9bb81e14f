package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// httpClient talks to DevTools endpoints. It has no proxy: the endpoint is
// local, and a proxy from the environment must not intercept it.
var httpClient = &http.Client{
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
	Timeout:   5 * time.Second,
}

// versionInfo is the part of /json/version this package reads.
type versionInfo struct {
	Browser              string `json:"Browser"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

// fetchVersion asks the endpoint at httpURL for /json/version.
func fetchVersion(ctx context.Context, httpURL string) (versionInfo, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpURL+"/json/version", nil)
	if err != nil {
		return versionInfo{}, fmt.Errorf("devtools endpoint %s: %w", httpURL, err)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return versionInfo{}, fmt.Errorf("devtools endpoint %s: %w", httpURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return versionInfo{}, fmt.Errorf("devtools endpoint %s: reading /json/version: %w", httpURL, err)
	}
	if resp.StatusCode != http.StatusOK {
		return versionInfo{}, fmt.Errorf("devtools endpoint %s: /json/version answered %s", httpURL, resp.Status)
	}
	var v versionInfo
	if err := json.Unmarshal(body, &v); err != nil {
		return versionInfo{}, fmt.Errorf("devtools endpoint %s: decoding /json/version: %w", httpURL, err)
	}
	if !strings.HasPrefix(v.WebSocketDebuggerURL, "ws://") && !strings.HasPrefix(v.WebSocketDebuggerURL, "wss://") {
		return versionInfo{}, fmt.Errorf("devtools endpoint %s: /json/version has no browser websocket (got %q)", httpURL, v.WebSocketDebuggerURL)
	}
	return v, nil
}

// normalizeEndpoint turns what a user may pass as --browser-url into the
// http://host:port form: a trailing slash or path is dropped, and a ws://
// address of the same endpoint is accepted.
func normalizeEndpoint(raw string) (string, error) {
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

// Watching an attached browser: its endpoint is polled, and it is declared
// gone after this many failed polls in a row. One failure is not enough,
// because a busy browser can miss a poll's timeout.
const (
	watchInterval = time.Second
	watchFailures = 3
)

// Attach adopts the already-running browser whose DevTools endpoint is
// browserURL (http://127.0.0.1:9222). It checks that the endpoint answers,
// then watches it: Done closes if it stops answering. Close stops the watch
// and leaves the browser running.
func Attach(ctx context.Context, browserURL string) (*Browser, error) {
	httpURL, err := normalizeEndpoint(browserURL)
	if err != nil {
		return nil, err
	}
	v, err := fetchVersion(ctx, httpURL)
	if err != nil {
		return nil, fmt.Errorf("attaching to browser: %w", err)
	}
	watchCtx, cancel := context.WithCancel(context.Background())
	watched := make(chan struct{})
	b := &Browser{
		httpURL: httpURL,
		wsURL:   v.WebSocketDebuggerURL,
		done:    make(chan struct{}),
	}
	b.stop = func() error {
		cancel()
		<-watched
		return nil
	}
	go func() {
		defer close(watched)
		b.end(watch(watchCtx, httpURL))
	}()
	return b, nil
}

// errStopped is the reason recorded when a watch ends because of Close; end
// discards it, but it keeps the code paths uniform.
var errStopped = errors.New("browser closed")

// watch polls the endpoint until it fails watchFailures times in a row or
// ctx ends, and returns why it stopped.
func watch(ctx context.Context, httpURL string) error {
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	failures := 0
	for {
		select {
		case <-ctx.Done():
			return errStopped
		case <-tick.C:
		}
		pctx, cancel := context.WithTimeout(ctx, 2*watchInterval)
		_, err := fetchVersion(pctx, httpURL)
		cancel()
		switch {
		case ctx.Err() != nil:
			return errStopped
		case err == nil:
			failures = 0
		default:
			failures++
			if failures == watchFailures {
				return fmt.Errorf("attached browser stopped answering: %w", err)
			}
		}
	}
}
