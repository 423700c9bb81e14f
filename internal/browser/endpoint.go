package browser

import (
	"context"
	"errors"
	"fmt"
	"time"

	"contractbench/internal/cdpconn"
)

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
	httpURL, err := cdpconn.Endpoint(browserURL)
	if err != nil {
		return nil, err
	}
	v, err := cdpconn.FetchVersion(ctx, httpURL)
	if err != nil {
		return nil, fmt.Errorf("attaching to browser: %w", err)
	}
	watchCtx, cancel := context.WithCancel(context.Background())
	watched := make(chan struct{})
	b := &Browser{
		httpURL: httpURL,
		wsURL:   v.WebSocketDebuggerURL,
		done:    make(chan struct{}),
		shell:   isShellProduct(v.Browser),
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
		_, err := cdpconn.FetchVersion(pctx, httpURL)
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
