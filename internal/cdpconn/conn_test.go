package cdpconn_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	chromium "contractbench/internal/browser"
	"contractbench/internal/cdpconn"
)

func launch(t *testing.T) *chromium.Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := chromium.Launch(ctx, chromium.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		t.Fatalf("these tests need Chromium (apt-get install chromium): %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// events collects what the connection delivers, by session.
type events struct {
	mu  sync.Mutex
	got map[target.SessionID][]cdproto.MethodType
}

func (e *events) add(session target.SessionID, msg *cdproto.Message) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got[session] = append(e.got[session], msg.Method)
}

func (e *events) has(session target.SessionID, method cdproto.MethodType) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, m := range e.got[session] {
		if m == method {
			return true
		}
	}
	return false
}

func TestSessionsAndEvents(t *testing.T) {
	b := launch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ev := &events{got: make(map[target.SessionID][]cdproto.MethodType)}
	c, err := cdpconn.Dial(ctx, b.URL(), ev.add)
	if err != nil {
		t.Fatal(err)
	}
	c.Listen()
	defer c.Close()

	// Concurrent calls each get their own answer.
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			v, err := cdpconn.Send(ctx, c, "", browser.GetVersion, cdp.Empty{})
			if err == nil && !strings.Contains(v.Product, "Chrome") {
				err = errors.New("Browser.getVersion names no Chrome: " + v.Product)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	// A page's events arrive under its flat session, not the browser's.
	created, err := cdpconn.Send(ctx, c, "", target.CreateTarget, target.CreateTargetParams{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	att, err := cdpconn.Send(ctx, c, "", target.AttachToTarget, target.AttachToTargetParams{TargetID: created.TargetID, Flatten: new(true)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, att.SessionID, page.Enable.Method, page.EnableParams{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cdpconn.Send(ctx, c, att.SessionID, page.Navigate, page.NavigateParams{URL: "data:text/html,<title>x</title>"}); err != nil {
		t.Fatal(err)
	}
	for !ev.has(att.SessionID, cdproto.EventPageFrameNavigated) {
		select {
		case <-ctx.Done():
			t.Fatalf("no Page.frameNavigated on the page's session; got %v", ev.got)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if ev.has("", cdproto.EventPageFrameNavigated) {
		t.Error("a page event arrived as the browser's")
	}

	// A command the browser refuses is an error that names it.
	_, err = cdpconn.Send(ctx, c, att.SessionID, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: 1 << 30})
	var cerr *cdproto.Error
	if !errors.As(err, &cerr) || !strings.HasPrefix(err.Error(), "Page.navigateToHistoryEntry: ") {
		t.Errorf("refused command: got %v, want a *cdproto.Error naming the method", err)
	}
}

func TestLostConnection(t *testing.T) {
	b := launch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := cdpconn.Dial(ctx, b.URL(), func(target.SessionID, *cdproto.Message) {})
	if err != nil {
		t.Fatal(err)
	}
	c.Listen()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("Done is open after Close")
	}
	_, err = cdpconn.Send(ctx, c, "", browser.GetVersion, cdp.Empty{})
	if !errors.Is(err, cdpconn.ErrLost) {
		t.Errorf("call after Close: got %v, want ErrLost", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	// The browser going away ends a call that waits for its answer.
	c, err = cdpconn.Dial(ctx, b.URL(), func(target.SessionID, *cdproto.Message) {})
	if err != nil {
		t.Fatal(err)
	}
	c.Listen()
	defer c.Close()
	r := c.Start(ctx, "", "Browser.close", struct{}{})
	werr := r.Wait(ctx, nil)
	<-c.Done()
	_, err = cdpconn.Send(ctx, c, "", browser.GetVersion, cdp.Empty{})
	if !errors.Is(err, cdpconn.ErrLost) {
		t.Errorf("call after the browser closed: got %v (Browser.close: %v), want ErrLost", err, werr)
	}
}

func TestDialErrors(t *testing.T) {
	notDevTools := httptest.NewServer(http.NotFoundHandler())
	defer notDevTools.Close()
	ctx := context.Background()
	for _, tc := range []struct{ url, want string }{
		{"ftp://127.0.0.1:1", "want http://host:port"},
		{notDevTools.URL, "/json/version answered 404"},
		{"http://127.0.0.1:1", "devtools endpoint http://127.0.0.1:1"},
	} {
		_, err := cdpconn.Dial(ctx, tc.url, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("cdpconn.Dial(%q): got %v, want an error containing %q", tc.url, err, tc.want)
		}
	}
}
