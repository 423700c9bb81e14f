package judge

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"contractbench/internal/browser"
	"contractbench/internal/contract"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// site serves each path's handler; a string is served as an HTML page.
func site(t testing.TB, routes map[string]any) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for path, r := range routes {
		switch r := r.(type) {
		case string:
			mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, r)
			})
		case http.HandlerFunc:
			mux.Handle(path, r)
		default:
			t.Fatalf("route %s: unsupported %T", path, r)
		}
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// stillClock is for judges whose tests go on using a tab after observing
// it: running a page's clock ahead leaves it standing still.
var stillClock = Options{Advance: -1}

// openTab opens a tab for the agent, in a window of its own in
// taskContext; it is closed when the test ends.
func openTab(t *testing.T) context.Context {
	t.Helper()
	tab, cancel := newTab()
	t.Cleanup(cancel)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return tab
}

func navigate(t *testing.T, tab context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigating to %s: %v", url, err)
	}
}

// attach attaches a judge to shared, confined to taskContext.
func attach(t *testing.T, opts Options) *Judge {
	t.Helper()
	ctx, cancel := bounded(t)
	defer cancel()
	j, err := Attach(ctx, shared.URL(), confined(opts))
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	t.Cleanup(func() {
		if err := j.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return j
}

func observe(t *testing.T, j *Judge, selectors ...string) contract.Observation {
	t.Helper()
	return observeWant(t, j, wantOf(selectors...))
}

func observeWant(t *testing.T, j *Judge, want Want) contract.Observation {
	t.Helper()
	ctx, cancel := bounded(t)
	defer cancel()
	obs, err := j.Observe(ctx, want)
	if err != nil {
		t.Fatalf("Observe: %v", err)
	}
	return obs
}

// wantOf asks for the matches of selectors, with no string to look for.
func wantOf(selectors ...string) Want {
	var w Want
	for _, s := range selectors {
		w.Queries = append(w.Queries, contract.Query{Selector: s})
	}
	return w
}

// waitRecorded waits until the judge's log satisfies done: the browser
// reports to the agent's session and to the judge's independently, so the
// agent seeing something does not mean the judge has yet.
func waitRecorded(t *testing.T, j *Judge, what string, done func(r *recorder) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		j.mu.Lock()
		ok := done(j.rec)
		j.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the judge did not record %s within 10s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func hasRequest(suffix string, withStatus bool) func(r *recorder) bool {
	return func(r *recorder) bool {
		for _, req := range r.requests {
			if strings.HasSuffix(req.entry.URL, suffix) && (!withStatus || req.entry.Status != 0 || req.entry.Error != "") {
				return true
			}
		}
		return false
	}
}

func entry(obs contract.Observation, suffix string) (contract.NetworkEntry, bool) {
	for _, e := range obs.Network {
		if strings.HasSuffix(e.URL, suffix) {
			return e, true
		}
	}
	return contract.NetworkEntry{}, false
}

func TestDialogs(t *testing.T) {
	srv := site(t, map[string]any{
		"/alert":   `<title>alert</title><script>addEventListener("load", () => setTimeout(() => alert("hello from the page"), 20))</script>`,
		"/confirm": `<title>confirm</title><script>addEventListener("load", () => setTimeout(() => confirm("sure?"), 20))</script>`,
	})
	for _, tc := range []struct {
		name        string
		path        string
		agentAnswer bool
		want        contract.Dialog
	}{
		{"left open by the agent", "/alert", false, contract.Dialog{Type: "alert", Message: "hello from the page", URL: srv.URL + "/alert", Open: true}},
		{"answered by the agent", "/confirm", true, contract.Dialog{Type: "confirm", Message: "sure?", URL: srv.URL + "/confirm", Open: false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := openTab(t)
			j := attach(t, Options{})
			_, err := chromedp.Run(tab, chromedp.WaitEvent(page.JavascriptDialogOpening, nil, chromedp.Navigate(srv.URL+tc.path)))
			if err != nil {
				t.Fatalf("waiting for the dialog: %v", err)
			}
			if tc.agentAnswer {
				if _, err := chromedp.Call(tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
					t.Fatalf("answering the dialog: %v", err)
				}
				waitRecorded(t, j, "the dialog closing", func(r *recorder) bool { return len(r.dialogs) == 1 && !r.dialogs[0].d.Open })
			} else {
				waitRecorded(t, j, "the dialog", func(r *recorder) bool { return len(r.dialogs) == 1 })
			}

			obs := observe(t, j)
			if want := []contract.Dialog{tc.want}; !reflect.DeepEqual(obs.Dialogs, want) {
				t.Errorf("Dialogs = %+v, want %+v", obs.Dialogs, want)
			}
			if obs.URL != srv.URL+tc.path {
				t.Errorf("URL = %q, want the page with the dialog, %q", obs.URL, srv.URL+tc.path)
			}
			// The page runs again: a dialog left open was dismissed.
			ctx, cancel := context.WithTimeout(tab, 5*time.Second)
			defer cancel()
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`1 + 1`)); err != nil {
				t.Errorf("the page does not run script after Observe: %v", err)
			}
			// A second Observe still reports how the task ended.
			if again := observe(t, j); !reflect.DeepEqual(again.Dialogs, obs.Dialogs) {
				t.Errorf("a second Observe reports Dialogs %+v, the first %+v", again.Dialogs, obs.Dialogs)
			}
		})
	}
}

func TestNetworkLog(t *testing.T) {
	refused := closedPort(t)
	srv := site(t, map[string]any{
		"/net": fmt.Sprintf(`<title>net</title>
<img src="/missing.png">
<img src="http://127.0.0.1:%d/refused.png">
<script>fetch("/redirect")</script>`, refused),
		"/redirect": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/landed", http.StatusFound)
		}),
		"/landed": "landed",
		"/after":  "after",
	})
	tab := openTab(t)
	j := attach(t, Options{})
	navigate(t, tab, srv.URL+"/net")
	waitRecorded(t, j, "/landed", hasRequest("/landed", true))
	waitRecorded(t, j, "refused.png", hasRequest("/refused.png", true))

	j.MarkToolCall()
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`fetch("/after").then(r => r.text())`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("fetching /after: %v", err)
	}
	waitRecorded(t, j, "/after", hasRequest("/after", true))
	obs := observe(t, j)

	for _, tc := range []struct {
		suffix    string
		status    int
		errPart   string
		resource  string
		afterMark bool
	}{
		{"/net", 200, "", "Document", false},
		{"/missing.png", 404, "", "Image", false},
		{"/refused.png", 0, "ERR_CONNECTION_REFUSED", "Image", false},
		{"/redirect", 302, "", "Fetch", false},
		{"/landed", 200, "", "Fetch", false},
		{"/after", 200, "", "Fetch", true},
	} {
		t.Run(strings.TrimPrefix(tc.suffix, "/"), func(t *testing.T) {
			e, ok := entry(obs, tc.suffix)
			if !ok {
				t.Fatalf("no request for %s in the log:\n%+v", tc.suffix, obs.Network)
			}
			if e.Status != tc.status || e.ResourceType != tc.resource || e.AfterLastToolCall != tc.afterMark || e.Method != "GET" {
				t.Errorf("%s: got status %d, type %s, method %s, after last tool call %v; want %d, %s, GET, %v",
					tc.suffix, e.Status, e.ResourceType, e.Method, e.AfterLastToolCall, tc.status, tc.resource, tc.afterMark)
			}
			if !strings.Contains(e.Error, tc.errPart) || (tc.errPart == "" && e.Error != "") {
				t.Errorf("%s: error %q, want %q", tc.suffix, e.Error, tc.errPart)
			}
		})
	}
	if !slices.IsSortedFunc(obs.Network, func(a, b contract.NetworkEntry) int { return int(a.StartMS - b.StartMS) }) {
		t.Errorf("the log is not sorted by start: %+v", obs.Network)
	}
}

// closedPort returns a loopback port that nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func TestNewTabIsFollowedAndBecomesActive(t *testing.T) {
	onBothBrowsers(t, newTabIsFollowedAndBecomesActive)
}

func newTabIsFollowedAndBecomesActive(t *testing.T) {
	srv := site(t, map[string]any{
		"/opener": `<title>opener</title><a href="/popup" target="_blank" style="position:fixed;left:0;top:0;width:300px;height:300px">open</a>`,
		"/popup":  `<title>popup</title><h1>popup page</h1><img src="/popup.png">`,
	})
	j := attach(t, Options{})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/opener")
	opener := chromedp.FromContext(tab).Target.TargetID
	// Not chromedp.WaitNewTarget: it skips targets that are attached
	// already, and with a judge following the browser every new page is.
	created := make(chan target.ID, 1)
	lctx, stopListening := context.WithCancel(tab)
	defer stopListening()
	if err := chromedp.Listen(lctx, func(ev any) {
		if ev, ok := ev.(*target.EventTargetCreated); ok && ev.TargetInfo.OpenerID == opener {
			select {
			case created <- ev.TargetInfo.TargetID:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 50)); err != nil {
		t.Fatalf("clicking the link: %v", err)
	}
	var popup target.ID
	select {
	case popup = <-created:
	case <-time.After(10 * time.Second):
		t.Fatal("the click opened no tab")
	}
	t.Cleanup(func() {
		chromedp.CallBrowser(driver, target.CloseTarget, target.CloseTargetParams{TargetID: popup})
	})
	waitRecorded(t, j, "the popup's image", hasRequest("/popup.png", true))

	obs := observe(t, j, "h1")
	if obs.URL != srv.URL+"/popup" || obs.Title != "popup" {
		t.Errorf("active page = %q %q, want the new tab %q", obs.URL, obs.Title, srv.URL+"/popup")
	}
	if got, want := obs.Elements["h1"], (contract.Elements{Count: 1, Texts: []string{"popup page"}}); !reflect.DeepEqual(got, want) {
		t.Errorf(`Elements["h1"] = %+v, want %+v`, got, want)
	}
	// The new tab's own document request is the proof that it was held
	// until the judge listened.
	if e, ok := entry(obs, "/popup"); !ok || e.Status != 200 || e.ResourceType != "Document" {
		t.Errorf("the new tab's document request = %+v (found %v), want a 200 Document", e, ok)
	}
	if e, _ := entry(obs, "/popup.png"); e.Status != 404 {
		t.Errorf("the new tab's image request = %+v, want status 404", e)
	}

	// Bringing the opener back to the front makes it the active page.
	if _, err := chromedp.CallBrowser(serverConn(t, j), target.ActivateTarget, target.ActivateTargetParams{TargetID: opener}); err != nil {
		t.Fatalf("activating the opener: %v", err)
	}
	if obs := observe(t, j); obs.URL != srv.URL+"/opener" {
		t.Errorf("after activating the opener, active page = %q, want %q", obs.URL, srv.URL+"/opener")
	}
}

func TestSelectorsAndScreenshot(t *testing.T) {
	srv := site(t, map[string]any{
		"/list": `<title>list</title><h1>Shop</h1>
<ul><li>Apple</li><li>Banana</li><li>Cherry</li></ul>
<p class="long">éééééééééé</p>
<svg><text x="10" y="20">vector</text></svg>`,
	})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/list")
	j := attach(t, Options{MaxTexts: 2, MaxTextBytes: 7})
	selectors := []string{"h1", "li", "p.long", ".nothing", "ul > li:nth-child(2)", "svg text", "li"}
	obs := observe(t, j, selectors...)

	for _, tc := range []struct {
		selector string
		want     contract.Elements
	}{
		{"h1", contract.Elements{Count: 1, Texts: []string{"Shop"}}},
		{"li", contract.Elements{Count: 3, Texts: []string{"Apple", "Banana"}, TextsCut: true}},
		{"p.long", contract.Elements{Count: 1, Texts: []string{"ééé"}, TextsCut: true}},
		{".nothing", contract.Elements{Count: 0}},
		{"ul > li:nth-child(2)", contract.Elements{Count: 1, Texts: []string{"Banana"}}},
		{"svg text", contract.Elements{Count: 1, Texts: []string{"vector"}}},
	} {
		t.Run(tc.selector, func(t *testing.T) {
			got, ok := obs.Elements[tc.selector]
			if !ok {
				t.Fatalf("no entry for %q in %+v", tc.selector, obs.Elements)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Elements[%q] = %+v, want %+v", tc.selector, got, tc.want)
			}
		})
	}
	if len(obs.Elements) != 6 {
		t.Errorf("Elements has %d entries, want one per distinct selector (6)", len(obs.Elements))
	}

	cfg, err := png.DecodeConfig(bytes.NewReader(obs.Screenshot.PNG))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if cfg.Width != browser.ViewportWidth || cfg.Height != browser.ViewportHeight {
		t.Errorf("screenshot = %dx%d, want the %dx%d viewport", cfg.Width, cfg.Height, browser.ViewportWidth, browser.ViewportHeight)
	}
	if obs.Screenshot.PHash != "" {
		t.Errorf("PHash = %q, want it left to the runner", obs.Screenshot.PHash)
	}

	ctx, cancel := bounded(t)
	defer cancel()
	_, err = j.Observe(ctx, wantOf("li", "p:nonsense"))
	if err == nil || !strings.Contains(err.Error(), `"p:nonsense" is not valid CSS`) {
		t.Errorf("Observe with an invalid selector: error %v, want one naming \"p:nonsense\"", err)
	}
}

func TestPageScriptCannotFoolTheJudge(t *testing.T) {
	srv := site(t, map[string]any{
		"/forged": `<title>forged</title><p>one</p><p>two</p>
<script>
Document.prototype.querySelectorAll = function () { return []; };
Element.prototype.querySelectorAll = function () { return []; };
Object.defineProperty(HTMLElement.prototype, "innerText", { get() { return "forged"; } });
Object.defineProperty(Document.prototype, "visibilityState", { get() { return "hidden"; } });
</script>`,
	})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/forged")
	// The overrides work in the page's own world...
	seen, err := chromedp.Run(tab, chromedp.Evaluate[[2]any](`[document.querySelectorAll("p").length, document.visibilityState]`))
	if err != nil || seen != [2]any{float64(0), "hidden"} {
		t.Fatalf("the page's overrides are not in effect: %v %v", seen, err)
	}
	// ...and not in the judge's.
	j := attach(t, Options{})
	obs := observe(t, j, "p")
	if want := (contract.Elements{Count: 2, Texts: []string{"one", "two"}}); !reflect.DeepEqual(obs.Elements["p"], want) {
		t.Errorf(`Elements["p"] = %+v, want %+v`, obs.Elements["p"], want)
	}
	if obs.URL != srv.URL+"/forged" {
		t.Errorf("active page = %q, want the visible page %q despite its forged visibilityState", obs.URL, srv.URL+"/forged")
	}
}

func TestJudgeNeitherCreatesNorClosesTabs(t *testing.T) {
	srv := site(t, map[string]any{"/": `<title>home</title>`})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/")
	pages := func() []target.ID {
		t.Helper()
		infos, err := chromedp.Targets(driver)
		if err != nil {
			t.Fatal(err)
		}
		var ids []target.ID
		for _, info := range infos {
			if info.Type == "page" {
				ids = append(ids, info.TargetID)
			}
		}
		slices.Sort(ids)
		return ids
	}
	before := pages()
	ctx, cancel := bounded(t)
	defer cancel()
	j, err := Attach(ctx, shared.URL(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name string
		do   func() error
	}{
		{"Attach", func() error { return nil }},
		{"Observe", func() error { _, err := j.Observe(ctx, wantOf("title")); return err }},
		{"Close", j.Close},
	} {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if after := pages(); !slices.Equal(after, before) {
			t.Errorf("after %s the page targets are %v, before Attach %v", step.name, after, before)
		}
	}
	if title, err := chromedp.Run(tab, chromedp.Title()); err != nil || title != "home" {
		t.Errorf("the agent's tab after the judge closed: title %q, error %v", title, err)
	}
}

func TestObserveAfterTheBrowserDied(t *testing.T) {
	t.Parallel() // its own browser
	b, err := browser.Launch(t.Context(), browser.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	j, err := Attach(t.Context(), b.URL(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = j.Observe(t.Context(), wantOf("body"))
	if err == nil || !strings.Contains(err.Error(), "crashed or was closed") {
		t.Errorf("Observe after the browser died: error %v, want one saying it crashed or was closed", err)
	}
	if err := j.Close(); err != nil {
		t.Errorf("Close after the browser died: %v, want nil", err)
	}
}

func TestAttachErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, url, want string
	}{
		{"nothing listening", fmt.Sprintf("http://127.0.0.1:%d", closedPort(t)), "connection refused"},
		{"not a browser url", "ftp://127.0.0.1:9222", "want http://host:port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			j, err := Attach(t.Context(), tc.url, Options{})
			if err == nil {
				j.Close()
				t.Fatalf("Attach(%q) succeeded", tc.url)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Attach(%q) error %q, want it to contain %q", tc.url, err, tc.want)
			}
		})
	}
}

func TestCrashedTab(t *testing.T) {
	srv := site(t, map[string]any{"/": `<title>doomed</title>`})
	j := attach(t, Options{})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/")
	// Page.crash never answers: the renderer is gone before it can.
	ctx, cancel := context.WithTimeout(tab, 300*time.Millisecond)
	defer cancel()
	chromedp.Call(ctx, page.Crash, cdp.Empty{})
	id := chromedp.FromContext(tab).Target.TargetID
	waitRecorded(t, j, "the crash", func(*recorder) bool { return j.pages[id] != nil && j.pages[id].crashed })

	octx, ocancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer ocancel()
	_, err := j.Observe(octx, Want{})
	if err == nil || !strings.Contains(err.Error(), "page "+string(id)+" crashed") {
		t.Errorf("Observe with the newest tab crashed: error %v, want one naming page %s as crashed", err, id)
	}
}

// TestJudgeSeesOnlyItsContext opens tabs of another browser context (the
// default one: another task's leftovers, another user's tabs), one before
// the judge attaches and one after, with requests and a dialog of their
// own. The judge, confined to the task's context, records none of it,
// never takes them for the active page, and does not hold the one that
// opened while it watched: it loads as if no judge were there.
func TestJudgeSeesOnlyItsContext(t *testing.T) {
	other := `<title>other</title><script>onload = () => setTimeout(() => alert("other"), 0)</script>`
	srv := site(t, map[string]any{"/mine": `<title>mine</title>`, "/other-before": other, "/other-after": other})
	outside := func(path string) {
		t.Helper()
		tab, cancel := chromedp.NewContext(driver) // the default context
		t.Cleanup(cancel)
		ctx, stop := context.WithTimeout(tab, 30*time.Second)
		defer stop()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+path)); err != nil {
			t.Fatalf("the tab outside the judge's context did not load %s: %v", path, err)
		}
	}
	outside("/other-before")
	j := attach(t, Options{})
	tab := openTab(t)
	navigate(t, tab, srv.URL+"/mine")
	outside("/other-after")

	obs := observe(t, j, "title")
	if obs.URL != srv.URL+"/mine" {
		t.Errorf("active page %q, want the task's %q", obs.URL, srv.URL+"/mine")
	}
	for _, e := range obs.Network {
		if strings.Contains(e.URL, "/other") {
			t.Errorf("the judge recorded %s %s, a request of another context", e.Method, e.URL)
		}
	}
	if !slices.ContainsFunc(obs.Network, func(e contract.NetworkEntry) bool { return e.URL == srv.URL+"/mine" }) {
		t.Errorf("the judge did not record the task's own request; network %+v", obs.Network)
	}
	if len(obs.Dialogs) != 0 {
		t.Errorf("the judge recorded dialogs %+v of another context", obs.Dialogs)
	}
}
