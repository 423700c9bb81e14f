package judge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// conn is one CDP WebSocket to the browser, multiplexing the browser
// session and the flat sessions of every target the judge is attached to.
//
// chromedp's Browser routes only the sessions it attached itself, and its
// attach runs JavaScript in the page before enabling the network domain; a
// new tab held at start (see Judge) would never answer. So the judge keeps
// chromedp's WebSocket transport and the generated cdproto types, and routes
// sessions here.
type conn struct {
	ws *remote.Conn

	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan *cdproto.Message

	// onEvent receives every event, on the reading goroutine and in the
	// order the browser sent them. It must not block and must not call.
	onEvent func(session target.SessionID, msg *cdproto.Message)

	done chan struct{} // closed when the connection ended
	err  error         // why; set before done is closed
}

// dial connects to the browser's WebSocket. Nothing is read until listen.
func dial(ctx context.Context, wsURL string, onEvent func(target.SessionID, *cdproto.Message)) (*conn, error) {
	ws, err := remote.DialContext(ctx, wsURL)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", wsURL, err)
	}
	c := &conn{
		ws:      ws,
		pending: make(map[int64]chan *cdproto.Message),
		onEvent: onEvent,
		done:    make(chan struct{}),
	}
	return c, nil
}

// listen starts delivering replies and events. Until then no command can
// complete.
func (c *conn) listen() {
	go c.read()
}

func (c *conn) read() {
	for {
		msg := new(cdproto.Message)
		if err := c.ws.Read(context.Background(), msg); err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			close(c.done)
			return
		}
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

// errLost is wrapped by every error caused by the connection ending.
var errLost = errors.New("connection to the browser lost")

// lost returns the error for a call that failed because the connection
// ended, naming why it ended.
func (c *conn) lost() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Errorf("%w: %w", errLost, c.err)
}

// call sends method with params on session (the browser's when empty) and
// decodes the result into res.
func (c *conn) call(ctx context.Context, session target.SessionID, method string, params, res any) error {
	return c.start(ctx, session, method, params).wait(ctx, res)
}

// reply is a command that was sent and whose answer is awaited.
type reply struct {
	c      *conn
	id     int64
	method string
	ch     chan *cdproto.Message
	err    error // sending failed
}

// start sends a command without waiting for its answer. Commands started
// one after another on a session reach the browser in that order.
func (c *conn) start(ctx context.Context, session target.SessionID, method string, params any) *reply {
	r := &reply{c: c, method: method}
	select {
	case <-c.done:
		r.err = c.lost()
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
		r.err = fmt.Errorf("%s: %w: %w", method, errLost, err)
	}
	return r
}

// wait waits for the answer and decodes its result into res, if not nil.
func (r *reply) wait(ctx context.Context, res any) error {
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
		return fmt.Errorf("%s: %w", r.method, r.c.lost())
	}
}

func (r *reply) forget() {
	r.c.mu.Lock()
	delete(r.c.pending, r.id)
	r.c.mu.Unlock()
}

// close ends the connection. The browser detaches every session the judge
// had, and leaves the targets as they are.
func (c *conn) close() error {
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

// send is call with the types of a generated cdproto command.
func send[P, R any](ctx context.Context, c *conn, session target.SessionID, cmd cdp.Command[P, R], params P) (R, error) {
	var res R
	err := c.call(ctx, session, cmd.Method, params, &res)
	return res, err
}

// decodeEvent decodes the parameters of an event into its cdproto type.
func decodeEvent[E any](msg *cdproto.Message) (*E, bool) {
	ev := new(E)
	if err := jsonv2.Unmarshal(msg.Params, ev, chromedp.DefaultUnmarshalOptions); err != nil {
		return nil, false
	}
	return ev, true
}
