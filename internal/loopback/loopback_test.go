package loopback

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr, host string
		err        error // nil, ErrNotLoopback, or any other (errAny)
	}{
		{"127.0.0.1:8931", "127.0.0.1", nil},
		{"127.1.2.3:0", "127.1.2.3", nil},
		{"[::1]:0", "::1", nil},
		{"localhost:0", "localhost", nil},
		{"0.0.0.0:8931", "0.0.0.0", ErrNotLoopback},
		{"[::]:80", "::", ErrNotLoopback},
		{"example.com:80", "example.com", ErrNotLoopback},
		{"192.168.1.2:80", "192.168.1.2", ErrNotLoopback},
		{"8931", "", errAny},
		{"127.0.0.1", "", errAny},
	} {
		host, err := Check(c.addr)
		switch {
		case c.err == errAny && (err == nil || errors.Is(err, ErrNotLoopback)):
			t.Errorf("Check(%q): %v, want the address's syntax refused", c.addr, err)
		case c.err != errAny && !errors.Is(err, c.err):
			t.Errorf("Check(%q): %v, want %v", c.addr, err, c.err)
		case host != c.host:
			t.Errorf("Check(%q): host %q, want %q", c.addr, host, c.host)
		}
	}
}

var errAny = errors.New("any error")

// Serve answers on the listener until its context ends, and then returns
// nil; an error that stops it before is returned.
func TestServe(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "hello") }))
	}()
	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello" {
		t.Errorf("GET: %q, want the handler's answer", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after its context ended: %v, want nil", err)
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Errorf("%s still accepts after Serve returned", ln.Addr())
	}

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	if err := Serve(context.Background(), closed, http.NotFoundHandler()); err == nil {
		t.Error("Serve on a closed listener: nil, want its error")
	}
}
