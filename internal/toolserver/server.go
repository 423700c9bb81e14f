package toolserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/cdpconn"
)

// Defaults for the zero values of Options, and read_page's default budget
// for one reply's page text.
const (
	defaultSettle   = 3 * time.Second
	defaultLoad     = 20 * time.Second
	defaultMaxBytes = 12000
)

// Options configures a Server.
type Options struct {
	// BrowserURL is the DevTools HTTP endpoint of the browser to drive
	// (http://127.0.0.1:PORT). Required.
	BrowserURL string
	// BrowserContext, when set, is the browser context the server works
	// in: its tabs are the only ones it lists, uses or opens. Empty means
	// the context of the first tab it finds.
	BrowserContext cdp.BrowserContextID
	// Settle bounds how long an action waits for its effects (a
	// navigation's load, then network idle or a quiet DOM) before it
	// reports. Zero means DefaultSettle.
	Settle time.Duration
	// Load bounds how long an action waits for a navigation it caused to
	// finish loading; Settle then bounds the wait for quiet after it. A
	// page loads in the time it takes, and on a busy machine that is
	// longer: a bound on the load apart from Settle keeps the reply about
	// a page that does load the same however busy the machine is. Zero
	// means DefaultLoad.
	Load time.Duration
	// Uploads is the folder upload_file takes files from, by name; it
	// refuses any other file. Empty means upload_file has no files to
	// offer.
	Uploads string
	// Version is reported to MCP clients as the server's version. Empty
	// means "dev".
	Version string
}

// Server is the built-in MCP browser tool server: one connection to one
// browser, acting on one current tab at a time. Tool calls are serialized:
// an agent's actions happen in the order it sends them.
type Server struct {
	opts Options
	mcp  *mcp.Server
	conn *cdpconn.Conn // the browser connection; closing it leaves the browser running
	tabs *tabList

	// sessions routes each attached tab's events to it; the connection's
	// reading goroutine reads it.
	sessMu   sync.Mutex
	sessions map[target.SessionID]*tab

	mu       sync.Mutex // serializes tool calls; guards the fields below
	cur      *tab
	attached map[target.ID]*tab
	closed   bool
}

// New connects to the browser at opts.BrowserURL and attaches to one of its
// existing tabs; it opens a tab only if the browser has none. ctx bounds
// the connecting; the connection then lives until Close. The server never
// closes a tab, and Close leaves the browser and all its tabs running.
func New(ctx context.Context, opts Options) (*Server, error) {
	return newServer(ctx, opts, "")
}

// newServer is New attaching to tab first rather than to the browser's
// first tab, when first is not empty.
func newServer(ctx context.Context, opts Options, first target.ID) (*Server, error) {
	if opts.BrowserURL == "" {
		return nil, errors.New("toolserver: Options.BrowserURL is required (the DevTools endpoint, http://127.0.0.1:PORT)")
	}
	if opts.Settle <= 0 {
		opts.Settle = defaultSettle
	}
	if opts.Load <= 0 {
		opts.Load = defaultLoad
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}

	s := &Server{
		opts:     opts,
		tabs:     newTabList(),
		sessions: make(map[target.SessionID]*tab),
		attached: make(map[target.ID]*tab),
	}
	conn, err := cdpconn.Dial(ctx, opts.BrowserURL, s.onEvent)
	if err != nil {
		return nil, fmt.Errorf("toolserver: %w", err)
	}
	s.conn = conn
	conn.Listen()
	if err := s.connect(ctx, first); err != nil {
		conn.Close()
		return nil, fmt.Errorf("toolserver: connecting to %s: %w", opts.BrowserURL, err)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "contractbench", Title: "contractbench browser tools", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		// No logging capability: the server has nothing to log to clients.
		Capabilities: &mcp.ServerCapabilities{},
	})
	s.register()
	return s, nil
}

// connect learns the browser's tabs and attaches to first, or to the first
// tab when first is empty.
func (s *Server) connect(ctx context.Context, first target.ID) error {
	if _, err := cdpconn.Send(ctx, s.conn, "", target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err != nil {
		return fmt.Errorf("watching targets: %w", err)
	}
	res, err := cdpconn.Send(ctx, s.conn, "", target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return fmt.Errorf("listing targets: %w", err)
	}
	if s.opts.BrowserContext != "" {
		s.tabs.restrict(s.opts.BrowserContext)
	}
	for _, info := range res.TargetInfos {
		s.tabs.put(info)
	}
	var t *tab
	if first != "" {
		t, err = s.use(ctx, first)
	} else {
		t, _, err = s.current(ctx)
	}
	if err != nil {
		return err
	}
	info, ok := s.tabs.get(t.id)
	if !ok {
		res, err := cdpconn.Send(ctx, s.conn, "", target.GetTargetInfo, target.GetTargetInfoParams{TargetID: t.id})
		if err != nil {
			return fmt.Errorf("reading tab %s: %w", t.id, err)
		}
		info = *res.TargetInfo
	}
	s.tabs.restrict(info.BrowserContextID)
	return nil
}

// MCP returns the MCP server with every tool registered. Serve it over any
// transport, for example server.Run(ctx, &mcp.StdioTransport{}).
func (s *Server) MCP() *mcp.Server {
	return s.mcp
}

// Close detaches from the tabs and closes the connection. The browser and
// its tabs keep running.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	// Closing the connection ends every session it holds.
	return s.conn.Close()
}

// onEvent runs on the connection's reading goroutine for every event: the
// browser's go to the tab list, each attached tab's to that tab.
func (s *Server) onEvent(session target.SessionID, msg *cdproto.Message) {
	ev, err := cdproto.UnmarshalMessage(msg, chromedp.DefaultUnmarshalOptions)
	if err != nil {
		return // an event this cdproto does not know; nothing here needs it
	}
	if session == "" {
		if e, ok := ev.(*target.EventDetachedFromTarget); ok {
			s.sessMu.Lock()
			delete(s.sessions, e.SessionID)
			s.sessMu.Unlock()
		}
		s.tabs.onEvent(ev)
		return
	}
	s.sessMu.Lock()
	t := s.sessions[session]
	s.sessMu.Unlock()
	if t != nil {
		t.onEvent(ev)
	}
}

// current returns the tab tools act on. If it was closed (by the page, or
// by someone else), the first remaining tab takes over, and note says so;
// with no tab left, a blank one is opened.
func (s *Server) current(ctx context.Context) (t *tab, note string, err error) {
	if s.closed {
		return nil, "", errors.New("the tool server is closed")
	}
	if s.cur != nil {
		if _, ok := s.tabs.get(s.cur.id); ok {
			return s.cur, "", nil
		}
		note = "the current tab was closed; "
		s.detach(ctx, s.cur)
		s.cur = nil
	}
	ids := s.tabs.idList()
	var id target.ID
	if len(ids) > 0 {
		id = ids[0]
		if note != "" {
			note += "now on tab 1"
		}
	} else {
		res, err := cdpconn.Send(ctx, s.conn, "", target.CreateTarget, target.CreateTargetParams{URL: "about:blank", BrowserContextID: s.tabs.browserContext()})
		if err != nil {
			return nil, "", fmt.Errorf("the browser has no tab, and opening one failed: %w", err)
		}
		id = res.TargetID
		if info, err := cdpconn.Send(ctx, s.conn, "", target.GetTargetInfo, target.GetTargetInfoParams{TargetID: id}); err == nil {
			s.tabs.put(info.TargetInfo)
		}
		if note != "" {
			note += "opened a blank tab"
		}
	}
	t, err = s.use(ctx, id)
	if err != nil {
		return nil, "", err
	}
	return t, note, nil
}

// use makes tab id current, attaching to it on first use.
func (s *Server) use(ctx context.Context, id target.ID) (*tab, error) {
	t, ok := s.attached[id]
	if !ok {
		var err error
		if t, err = s.attach(ctx, id); err != nil {
			return nil, err
		}
		s.attached[id] = t
	}
	s.cur = t
	return t, nil
}

// header is the two lines every reply starts with: where the current tab
// is and what it is called.
func (s *Server) header(ctx context.Context) string {
	if s.cur == nil {
		return "url: (no tab)\ntitle:\n"
	}
	var u, title string
	if res, err := cdpconn.Send(ctx, s.conn, "", target.GetTargetInfo, target.GetTargetInfoParams{TargetID: s.cur.id}); err == nil {
		u, title = res.TargetInfo.URL, res.TargetInfo.Title
	} else {
		s.cur.mu.Lock()
		u = s.cur.url
		s.cur.mu.Unlock()
	}
	if untitled(u, title) {
		title = ""
	}
	return strings.TrimSuffix("url: "+clipURL(u)+"\ntitle: "+title, " ") + "\n"
}

// untitled reports whether title is only what Chrome shows for a page
// without a <title>: its address, without the scheme. Repeating it would
// only cost tokens.
func untitled(u, title string) bool {
	_, rest, ok := strings.Cut(u, "://")
	return title == "" || title == u || (ok && title == rest)
}

// clipURL keeps data: URLs and other monsters from flooding a reply.
func clipURL(u string) string {
	const maxURL = 300
	if len(u) <= maxURL {
		return u
	}
	cut := maxURL
	for cut > 0 && u[cut]&0xC0 == 0x80 {
		cut--
	}
	return u[:cut] + "…"
}
