// Package cdpconn is one CDP WebSocket to a browser that multiplexes the
// browser's session and the flat sessions of the targets its owner attached
// to. The judge and the tool server each keep one. It also reads a DevTools
// endpoint's /json/version (Endpoint, FetchVersion), for Dial and for
// internal/browser, which attaches to and watches a running browser by it.
//
// It keeps chromedp's WebSocket transport (remote.Conn) and the generated
// cdproto types, and leaves out chromedp's Target. That Target mirrors the
// page's DOM as it changes: it enables the DOM and CSS domains on every page
// it attaches to (neither client uses them, and both cost the page work on
// every mutation), and attaching it to a page that is still loading races
// its own event loop (chromedp v0.22.1, Context.newTarget against
// Target.domEvent). Its attach also runs JavaScript in the page before it
// enables the network domain, so a page held at start would never answer.
// See docs/decisions/0001-cdp-library.md.
package cdpconn

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Conn is one CDP WebSocket to the browser. Its methods are safe for
// concurrent use.
type Conn struct {
	ws *remote.Conn

	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan *cdproto.Message

	// onEvent receives every event, on the reading goroutine and in the
	// order the browser sent them. It must not block and must not call.
	onEvent func(session target.SessionID, msg *cdproto.Message)

	done chan struct{} // closed when the connection ended
	err  error         // why; set before done is closed

	// heard is when the browser last sent anything, in Unix nanoseconds.
	heard atomic.Int64
}

// Dial connects to the browser whose DevTools endpoint is browserURL
// (http://127.0.0.1:PORT, or its ws:// address). onEvent receives every
// event of every session, on the reading goroutine and in the order the
// browser sent them; it must return quickly and must not call. Nothing is
// read until Listen.
func Dial(ctx context.Context, browserURL string, onEvent func(target.SessionID, *cdproto.Message)) (*Conn, error) {
	wsURL, err := webSocketURL(ctx, browserURL)
	if err != nil {
		return nil, err
	}
	ws, err := remote.DialContext(ctx, wsURL)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", wsURL, err)
	}
	return &Conn{
		ws:      ws,
		pending: make(map[int64]chan *cdproto.Message),
		onEvent: onEvent,
		done:    make(chan struct{}),
	}, nil
}

// Listen starts delivering replies and events. Until then no command can
// complete.
func (c *Conn) Listen() {
	go c.read()
}

func (c *Conn) read() {
	for {
		msg := new(cdproto.Message)
		if err := c.ws.Read(context.Background(), msg); err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			close(c.done)
			return
		}
		c.heard.Store(time.Now().UnixNano())
		if msg.ID == 0 {
			c.onEvent(msg.SessionID, msg)
			continue
		}
		c.mu.Lock()
		ch := c.pending[msg.ID]
		delete(c.pending, msg.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg // buffered; the caller may have gone
		}
	}
}

// Heard returns when the browser last sent anything on the connection (a
// reply or an event): a sign that it makes progress, however slowly. It is
// the zero time before the first message.
func (c *Conn) Heard() time.Time {
	n := c.heard.Load()
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// ErrLost is wrapped by every error caused by the connection ending.
var ErrLost = errors.New("connection to the browser lost")

// Done is closed when the connection has ended, by Close or because the
// browser went away; Lost then says why.
func (c *Conn) Done() <-chan struct{} {
	return c.done
}

// Lost returns the error for a call that failed because the connection
// ended, naming why it ended. It wraps ErrLost.
func (c *Conn) Lost() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Errorf("%w: %w", ErrLost, c.err)
}

// Call sends method with params on session (the browser's when empty) and
// decodes the result into res, if not nil.
func (c *Conn) Call(ctx context.Context, session target.SessionID, method string, params, res any) error {
	return c.Start(ctx, session, method, params).Wait(ctx, res)
}

// Reply is a command that was sent and whose answer is awaited.
type Reply struct {
	c      *Conn
	id     int64
	method string
	ch     chan *cdproto.Message
	err    error // sending failed
}

// Start sends a command without waiting for its answer. Commands started
// one after another on a session reach the browser in that order.
func (c *Conn) Start(ctx context.Context, session target.SessionID, method string, params any) *Reply {
	r := &Reply{c: c, method: method}
	select {
	case <-c.done:
		r.err = c.Lost()
		return r
	default:
	}
	buf, err := jsonv2.Marshal(params, chromedp.DefaultMarshalOptions)
	if err != nil {
		r.err = fmt.Errorf("%s: encoding parameters: %w", method, err)
		return r
	}
	r.id = c.nextID.Add(1)
	r.ch = make(chan *cdproto.Message, 1)
	c.mu.Lock()
	c.pending[r.id] = r.ch
	c.mu.Unlock()
	msg := &cdproto.Message{ID: r.id, SessionID: session, Method: cdproto.MethodType(method), Params: buf}
	if err := c.ws.Write(ctx, msg); err != nil {
		r.forget()
		r.err = fmt.Errorf("%s: %w: %w", method, ErrLost, err)
	}
	return r
}

// Wait waits for the answer and decodes its result into res, if not nil.
func (r *Reply) Wait(ctx context.Context, res any) error {
	if r.err != nil {
		return r.err
	}
	defer r.forget()
	select {
	case msg := <-r.ch:
		if msg.Error != nil {
			return fmt.Errorf("%s: %w", r.method, msg.Error)
		}
		if res == nil {
			return nil
		}
		if err := jsonv2.Unmarshal(msg.Result, res, chromedp.DefaultUnmarshalOptions); err != nil {
			return fmt.Errorf("%s: decoding result: %w", r.method, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", r.method, ctx.Err())
	case <-r.c.done:
		return fmt.Errorf("%s: %w", r.method, r.c.Lost())
	}
}

func (r *Reply) forget() {
	r.c.mu.Lock()
	delete(r.c.pending, r.id)
	r.c.mu.Unlock()
}

// Close ends the connection. The browser detaches every session it had,
// and leaves the targets as they are.
func (c *Conn) Close() error {
	select {
	case <-c.done:
		// The browser ended it already; there is nothing left to close
		// cleanly, and that is not the caller's error.
		c.ws.Close()
		return nil
	default:
	}
	err := c.ws.Close()
	<-c.done
	return err
}

// Send is Call with the types of a generated cdproto command.
func Send[P, R any](ctx context.Context, c *Conn, session target.SessionID, cmd cdp.Command[P, R], params P) (R, error) {
	var res R
	err := c.Call(ctx, session, cmd.Method, params, &res)
	return res, err
}

// Decode decodes the parameters of an event into its cdproto type.
func Decode[E any](msg *cdproto.Message) (*E, bool) {
	ev := new(E)
	if err := jsonv2.Unmarshal(msg.Params, ev, chromedp.DefaultUnmarshalOptions); err != nil {
		return nil, false
	}
	return ev, true
}

// webSocketURL returns the browser's WebSocket address: a ws:// address as
// it is, else the one the endpoint's /json/version names.
func webSocketURL(ctx context.Context, browserURL string) (string, error) {
	if u, err := url.Parse(browserURL); err == nil && (u.Scheme == "ws" || u.Scheme == "wss") {
		return browserURL, nil
	}
	httpURL, err := Endpoint(browserURL)
	if err != nil {
		return "", err
	}
	v, err := FetchVersion(ctx, httpURL)
	if err != nil {
		return "", err
	}
	return v.WebSocketDebuggerURL, nil
}
