package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/coder/websocket"
)

// The tool server reaches the browser through the judge: a relay on
// loopback (ServerURL) that passes every message on unchanged, both ways,
// and notes which page the server brings to the front (the CDP commands
// Target.activateTarget and Page.bringToFront, and the endpoint
// /json/activate). Headless Chromium shows a page nothing when another
// window is brought in front of it (docs/decisions/0027), so the judge
// learns of a switch between windows from the server's own request, which
// only a tool call of the agent's makes: what the harness saw, never what
// the agent says (docs/decisions/0038-the-switch-seen-on-the-wire.md).

// relay serves the browser's DevTools endpoint to the tool server.
type relay struct {
	browser  string // the browser's endpoint, http://HOST:PORT
	ln       net.Listener
	srv      *http.Server
	fronted  func(target.ID)
	conns    sync.WaitGroup
	stop     context.CancelFunc
	stopping context.Context
}

// startRelay listens on loopback for the server's connections to the
// browser whose endpoint is browser, and calls fronted with each page the
// server brings to the front, when it asks.
func startRelay(browser string, fronted func(target.ID)) (*relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("relay for the tool server: %w", err)
	}
	r := &relay{browser: strings.TrimSuffix(browser, "/"), ln: ln, fronted: fronted}
	r.stopping, r.stop = context.WithCancel(context.Background())
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go r.srv.Serve(ln) //nolint:errcheck // Serve ends with ErrServerClosed at close.
	return r, nil
}

// url is the relay's endpoint, http://127.0.0.1:PORT.
func (r *relay) url() string { return "http://" + r.ln.Addr().String() }

// close ends the relay and every connection through it.
func (r *relay) close() error {
	r.stop()
	err := r.srv.Close()
	r.conns.Wait()
	return err
}

func (r *relay) serve(w http.ResponseWriter, req *http.Request) {
	switch {
	case strings.HasPrefix(req.URL.Path, "/devtools/"):
		r.tunnel(w, req)
	case strings.HasPrefix(req.URL.Path, "/json"):
		if id, ok := strings.CutPrefix(req.URL.Path, "/json/activate/"); ok {
			r.fronted(target.ID(id))
		}
		r.forward(w, req)
	default:
		http.NotFound(w, req)
	}
}

// forward answers an HTTP request of the endpoint (/json/version, /json/list,
// /json/new ...) with the browser's answer, its WebSocket addresses
// pointing at the relay.
func (r *relay) forward(w http.ResponseWriter, req *http.Request) {
	out, err := http.NewRequestWithContext(req.Context(), req.Method, r.browser+req.URL.RequestURI(), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp, err := http.DefaultClient.Do(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	body = browserSocket.ReplaceAll(body, []byte("ws://"+r.ln.Addr().String()+"/devtools/"))
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(body) //nolint:errcheck // the server went away: nothing to tell it
}

// browserSocket is the start of a WebSocket address of the browser's, by
// whatever name of its host.
var browserSocket = regexp.MustCompile(`ws://[^/"]+/devtools/`)

// tunnel joins the server's WebSocket to the same address of the browser
// and passes every message on as it is.
func (r *relay) tunnel(w http.ResponseWriter, req *http.Request) {
	r.conns.Add(1)
	defer r.conns.Done()
	ctx, cancel := context.WithCancel(r.stopping)
	defer cancel()
	up, _, err := websocket.Dial(ctx, "ws://"+strings.TrimPrefix(r.browser, "http://")+req.URL.RequestURI(), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer up.CloseNow() //nolint:errcheck // closing either way
	down, err := websocket.Accept(w, req, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	defer down.CloseNow() //nolint:errcheck // closing either way
	up.SetReadLimit(-1)
	down.SetReadLimit(-1)
	// A page's own endpoint (/devtools/page/ID) speaks for that page.
	page, _ := strings.CutPrefix(req.URL.Path, "/devtools/page/")
	w2 := &wire{page: target.ID(page), sessions: map[string]target.ID{}, fronted: r.fronted}
	done := make(chan error, 2)
	go func() { done <- pass(ctx, down, up, w2.asked) }()
	go func() { done <- pass(ctx, up, down, w2.told) }()
	<-done
}

// pass copies messages from src to dst, showing each to see first.
func pass(ctx context.Context, src, dst *websocket.Conn, see func([]byte)) error {
	for {
		typ, msg, err := src.Read(ctx)
		if err != nil {
			return err
		}
		see(msg)
		if err := dst.Write(ctx, typ, msg); err != nil {
			return err
		}
	}
}

// wire is what the relay knows of one connection: the page a page's own
// endpoint speaks for, and the page of each session the server attached.
type wire struct {
	page     target.ID
	mu       sync.Mutex
	sessions map[string]target.ID
	fronted  func(target.ID)
}

// message is the part of a CDP message the relay reads.
type message struct {
	Method    string `json:"method"`
	SessionID string `json:"sessionId"`
	Params    struct {
		TargetID   target.ID `json:"targetId"`
		SessionID  string    `json:"sessionId"`
		TargetInfo struct {
			TargetID target.ID `json:"targetId"`
		} `json:"targetInfo"`
	} `json:"params"`
}

// asked sees a message of the server's.
func (w *wire) asked(raw []byte) {
	var m message
	if !w.read(raw, &m) {
		return
	}
	switch m.Method {
	case "Target.activateTarget":
		w.fronted(m.Params.TargetID)
	case "Page.bringToFront":
		w.mu.Lock()
		id, ok := w.sessions[m.SessionID]
		w.mu.Unlock()
		if !ok && m.SessionID == "" {
			id, ok = w.page, w.page != ""
		}
		if ok {
			w.fronted(id)
		}
	}
}

// told sees a message of the browser's: which session is which page's.
func (w *wire) told(raw []byte) {
	var m message
	if !w.read(raw, &m) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch m.Method {
	case "Target.attachedToTarget":
		w.sessions[m.Params.SessionID] = m.Params.TargetInfo.TargetID
	case "Target.detachedFromTarget":
		delete(w.sessions, m.Params.SessionID)
	}
}

// followed are the methods the relay reads.
var followed = [][]byte{[]byte(`"Target.activateTarget"`), []byte(`"Page.bringToFront"`), []byte(`"Target.attachedToTarget"`), []byte(`"Target.detachedFromTarget"`)}

// read decodes a message of a method the relay follows, and only such a
// message: a screenshot's answer is not parsed.
func (w *wire) read(raw []byte, m *message) bool {
	for _, name := range followed {
		if bytes.Contains(raw, name) {
			return json.Unmarshal(raw, m) == nil && m.Method != ""
		}
	}
	return false
}
