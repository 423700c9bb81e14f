package toolserver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/webreplay"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixtureDir is the fixture web of the WebVoyager suite, replayed under
// the sites' real host names.
const fixtureDir = "../../benchmarks/webvoyager/web"

// The package's tests share one Chromium, one site and one control
// connection; each test gets a browser context (an incognito-like profile)
// of its own, so tests run in parallel without seeing each other's tabs.
// The browser sends every host name but loopback addresses to the replay
// server of the fixture web.
var (
	shared *browser.Browser
	site   *httptest.Server
	// payments is the same site on another port: another origin, whose
	// frames render in the page's own process.
	payments *httptest.Server
	control  context.Context
	fixtures *webreplay.Archive
	// fixturesErr is why the fixture web could not be served; only the
	// tests that need it fail on it.
	fixturesErr error
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var flags []string
	if fixtures, fixturesErr = webreplay.Open(fixtureDir); fixturesErr == nil {
		replay, err := webreplay.NewServer(webreplay.Replay(fixtures), webreplay.ServerOptions{})
		if err != nil {
			fmt.Fprintf(os.Stderr, "starting the replay server: %v\n", err)
			return 1
		}
		defer replay.Close()
		flags = replay.ChromiumFlags()
	}
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0, Flags: flags})
	if err != nil {
		fmt.Fprintf(os.Stderr, "toolserver tests need Chromium (apt-get install chromium): %v\n", err)
		return 1
	}
	defer b.Close()
	shared = b

	allocCtx, allocCancel := remote.NewAllocator(context.Background(), b.URL())
	defer allocCancel()
	ctl, ctlCancel := chromedp.NewContext(allocCtx)
	defer ctlCancel()
	if _, err := chromedp.Targets(ctl); err != nil {
		fmt.Fprintf(os.Stderr, "connecting to the test browser: %v\n", err)
		return 1
	}
	control = ctl

	site = httptest.NewServer(testSite())
	defer site.Close()
	payments = httptest.NewServer(testSite())
	defer payments.Close()
	return m.Run()
}

// testSite serves testdata/pages and the few answers that need code.
func testSite() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata/pages")))
	mux.HandleFunc("/items.json", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond) // long enough that a settle must wait for it
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `["Wick trimmer","Spare mantle"]`)
	})
	mux.HandleFunc("/long.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Long</title><h1>Ledger</h1>")
		for i := 1; i <= 400; i++ {
			fmt.Fprintf(w, "<p>Entry %d: the keeper logged ☀ weather and <a href=\"/e/%d\">item %d</a>.</p>\n", i, i, i)
		}
	})
	// /slow.gif?ms=N answers after N milliseconds; without ms, never
	// (until the page goes away).
	mux.HandleFunc("/slow.gif", func(w http.ResponseWriter, r *http.Request) {
		ms, err := strconv.Atoi(r.URL.Query().Get("ms"))
		if err != nil {
			<-r.Context().Done()
			return
		}
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write(gif1x1)
	})
	mux.HandleFunc("/slowload.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>Slow</title><h1>Slow to load</h1><img src=\"/slow.gif?%s\" alt=\"\">", r.URL.RawQuery)
		if r.URL.Query().Has("tick") {
			// A page whose DOM never goes quiet either: only a bound
			// ends a wait on it, however busy the machine.
			fmt.Fprint(w, `<p id="n"></p><script>let n = 0; setInterval(() => { document.getElementById('n').textContent = ++n }, 100)</script>`)
		}
	})
	// /checkout.html embeds payments' card form: another origin of the
	// same site (the same host on another port), as a payment provider's
	// frame on a shop.
	mux.HandleFunc("/checkout.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>Checkout</title><h1>Checkout</h1><p>Total: 12.50</p>"+
			"<iframe title=\"Card form\" src=\"%s/payform.html\" width=\"400\" height=\"160\" style=\"margin-left: 40px\"></iframe><p>After the card form.</p>", payments.URL)
	})
	mux.HandleFunc("/missing.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<!doctype html><title>Not here</title><p>No such page.</p>")
	})
	return mux
}

// gif1x1 is a transparent one-pixel GIF.
var gif1x1 = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// env is one test's tool server, driven by an MCP client over in-memory
// transports, in a fresh browser context of the shared browser.
type env struct {
	t   testing.TB
	srv *Server
	cs  *mcp.ClientSession
}

func newEnv(t testing.TB) *env {
	t.Helper()
	ctx := context.Background()
	bc, err := chromedp.CallBrowser(control, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		t.Fatalf("creating a browser context: %v", err)
	}
	t.Cleanup(func() {
		_, _ = chromedp.CallBrowser(control, target.DisposeBrowserContext, target.DisposeBrowserContextParams(bc))
	})
	tab, err := chromedp.CallBrowser(control, target.CreateTarget, target.CreateTargetParams{URL: "about:blank", BrowserContextID: bc.BrowserContextID})
	if err != nil {
		t.Fatalf("creating a tab: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	srv, err := newServer(cctx, Options{BrowserURL: shared.URL(), Uploads: "testdata/uploads"}, tab.TargetID)
	if err != nil {
		t.Fatalf("newServer: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return &env{t: t, srv: srv, cs: connect(t, srv.MCP())}
}

// connect runs server on in-memory transports and returns a client session.
func connect(t testing.TB, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server.Connect: %v", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "toolserver-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client.Connect: %v", err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// result is a tool call's outcome, flattened for assertions.
type result struct {
	text    string // all text content, joined
	isError bool
	images  []*mcp.ImageContent
}

func (e *env) call(name string, args map[string]any) result {
	e.t.Helper()
	r, err := e.try(name, args)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// try is call for goroutines other than the test's own, which must not
// call Fatal: it returns protocol errors.
func (e *env) try(name string, args map[string]any) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := e.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return result{}, fmt.Errorf("%s %s: protocol error: %w", name, describeArgs(args), err)
	}
	var r result
	r.isError = res.IsError
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			r.images = append(r.images, c)
		default:
			return r, fmt.Errorf("%s: unexpected content %T", name, c)
		}
	}
	r.text = strings.Join(parts, "\n")
	return r, nil
}

// ok calls a tool that must succeed and returns its text.
func (e *env) ok(name string, args map[string]any) string {
	e.t.Helper()
	r := e.call(name, args)
	if r.isError {
		e.t.Fatalf("%s %s: unexpected tool error:\n%s", name, describeArgs(args), r.text)
	}
	return r.text
}

// fails calls a tool that must fail and returns its text.
func (e *env) fails(name string, args map[string]any) string {
	e.t.Helper()
	r := e.call(name, args)
	if !r.isError {
		e.t.Fatalf("%s %s: succeeded, want a tool error; reply:\n%s", name, describeArgs(args), r.text)
	}
	return r.text
}

func (e *env) open(path string) string {
	e.t.Helper()
	return e.ok("navigate", map[string]any{"url": site.URL + path})
}

func describeArgs(args map[string]any) string {
	b, _ := json.Marshal(args)
	return string(b)
}

// body drops the two header lines of a reply.
func body(reply string) string {
	_, rest, _ := strings.Cut(reply, "\n")
	_, rest, _ = strings.Cut(rest, "\n")
	return rest
}

// normalize replaces the test site's address, which changes every run.
func normalize(s string) string {
	return strings.ReplaceAll(s, site.URL, "http://site.test")
}

// wantContains fails unless got holds every one of want.
func wantContains(t testing.TB, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: missing %q in:\n%s", what, w, got)
		}
	}
}
