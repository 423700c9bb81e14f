package loopback

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// ErrNotLoopback is Check's error for an address whose host is not a
// loopback one.
var ErrNotLoopback = errors.New("not a loopback address")

// Check returns the host of addr, HOST:PORT, when it is a loopback one: an
// address of 127.0.0.0/8, ::1, or localhost. Otherwise its error is
// net.SplitHostPort's, or ErrNotLoopback with the host.
func Check(addr string) (host string, err error) {
	host, _, err = net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return host, ErrNotLoopback
	}
	return host, nil
}

// Serve serves h on ln, which listens on an address Check accepted, until
// ctx ends, then shuts the server down: what is under way gets five
// seconds to finish before it is cut, as a long MCP stream would be. It
// returns nil once ctx has ended, or the error that stopped the serving
// before. It closes ln.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if srv.Shutdown(shut) != nil {
		srv.Close()
	}
	return nil
}
