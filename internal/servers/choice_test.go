package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"contractbench/internal/browser"
	"contractbench/internal/judge"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
)

// choicePages are the agent's page, which opens a popup window on a click
// and a new tab by a link, and those two.
var choicePages = map[string]string{
	"/opener": `<title>opener</title>
<button onclick="window.open('/popup', 'pw', 'popup,width=500,height=400')">Open popup</button>
<a href="/tab" target="_blank">Open tab</a>`,
	"/popup": `<title>popup</title><p>A popup window.</p>`,
	"/tab":   `<title>tab</title><p>A new tab.</p>`,
}

// TestJudgeGradesThePageTheAgentChose plays, on the built-in server and
// each installed peer, an agent that comes back to its own page, and has
// the judge observe the browser afterwards: the page it grades must be the
// agent's, not the page that page opened.
//
//   - a popup the page opened: the agent clicks what opens a popup window
//     and goes on reading its own page, never touching the popup;
//   - into a popup and back: the agent switches to the popup with the
//     server's tab tool, reads it, and switches back;
//   - into a new tab and back: the same with the tab a link opened;
//   - into a popup, to read there: the agent switches to the popup and
//     stays, reading: the popup is graded.
//
// A switch between windows shows in neither page in headless Chromium, and
// the popup gets focus from the browser when it opens: the judge must not
// take the popup for the agent's page because the page opened it, nor
// miss the switch the agent's server made (the judge sees the server ask
// for it, on the server's way to the browser).
//
// Each case has a browser of its own (the peers list every tab of the
// browser) and serves its pages on loopback.
//
// A peer that is not installed fails the test (see requireInstalled).
func TestJudgeGradesThePageTheAgentChose(t *testing.T) {
	set := loadServers(t)
	self := buildSelf(t)
	base := servePages(t, choicePages)
	opener, popup, tab := base+"/opener", base+"/popup", base+"/tab"

	for _, name := range set.Names() {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			requireInstalled(t, p)
			t.Run("a popup the page opened", func(t *testing.T) {
				a := startChoice(t, p, self)
				a.do(ActNavigate, map[string]any{"{url}": opener})
				a.click("button", "Open popup")
				a.waitFor(popup)
				a.do(ActRead, nil)
				a.wantGraded(opener)
			})
			t.Run("into a popup and back", func(t *testing.T) {
				a := startChoice(t, p, self)
				a.do(ActNavigate, map[string]any{"{url}": opener})
				a.click("button", "Open popup")
				a.waitFor(popup)
				a.switchTo(2, popup)
				a.do(ActRead, nil)
				a.switchTo(1, opener)
				a.do(ActRead, nil)
				a.wantGraded(opener)
			})
			t.Run("into a popup, to read there", func(t *testing.T) {
				a := startChoice(t, p, self)
				a.do(ActNavigate, map[string]any{"{url}": opener})
				a.click("button", "Open popup")
				a.waitFor(popup)
				a.switchTo(2, popup)
				a.do(ActRead, nil)
				a.wantGraded(popup)
			})
			t.Run("into a new tab and back", func(t *testing.T) {
				a := startChoice(t, p, self)
				a.do(ActNavigate, map[string]any{"{url}": opener})
				a.click("link", "Open tab")
				a.waitFor(tab)
				a.switchTo(2, tab)
				a.do(ActRead, nil)
				a.switchTo(1, opener)
				a.do(ActRead, nil)
				a.wantGraded(opener)
			})
		})
	}
}

// servePages serves each path's HTML on loopback until the test ends, and
// returns the address.
func servePages(t *testing.T, pages map[string]string) string {
	t.Helper()
	mux := http.NewServeMux()
	for path, body := range pages {
		mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// choiceAgent plays the agent on one server, in a browser of its own with a
// judge attached before the server starts, as the runner attaches it.
type choiceAgent struct {
	t       *testing.T
	ctx     context.Context
	p       *Profile
	sess    *mcpclient.Session
	j       *judge.Judge
	browser string
}

func startChoice(t *testing.T, p *Profile, self string) *choiceAgent {
	t.Helper()
	// A guard against a hung server or browser, not a speed bound.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		t.Fatalf("this test needs Chromium (apt-get install chromium): %v", err)
	}
	t.Cleanup(func() { b.Close() })
	j, err := judge.Attach(ctx, b.URL(), judge.Options{})
	if err != nil {
		t.Fatalf("judge: %v", err)
	}
	t.Cleanup(func() { j.Close() })
	// The server reaches the browser through the judge, as in a run.
	sess := startServer(t, ctx, p, j.ServerURL(), self)
	return &choiceAgent{t: t, ctx: ctx, p: p, sess: sess, j: j, browser: b.URL()}
}

// call makes one tool call, marked on the judge as the runner marks it,
// and returns its reply.
func (a *choiceAgent) call(c llm.ToolCall) string {
	a.t.Helper()
	a.j.MarkToolCall()
	res, err := a.sess.Call(a.ctx, c.Name, c.Args)
	if err != nil {
		a.t.Fatalf("%s %s: %v", c.Name, c.Args, err)
	}
	if res.IsError {
		a.t.Fatalf("%s %s failed: %s", c.Name, c.Args, res.Text)
	}
	return res.Text
}

func (a *choiceAgent) do(act Action, values map[string]any) string {
	a.t.Helper()
	c, err := a.p.Call(act, values)
	if err != nil {
		a.t.Fatal(err)
	}
	return a.call(c)
}

// click reads the page and clicks the control of that role and name.
func (a *choiceAgent) click(role, name string) {
	a.t.Helper()
	reply := a.do(ActRead, nil)
	_, controls, err := a.p.Controls(reply)
	if err != nil {
		a.t.Fatal(err)
	}
	for _, c := range controls {
		if c.Role == role && c.Name == name {
			a.do(ActClick, map[string]any{"{ref}": c.Ref})
			return
		}
	}
	a.t.Fatalf("%s shows no %s %q:\n%s", a.p.Name(), role, name, reply)
}

// switchTo selects the server's tab n (from 1, in the order they opened)
// with its own tool, as an agent switches, and checks that the server
// now works on url.
func (a *choiceAgent) switchTo(n int, url string) {
	a.t.Helper()
	var c llm.ToolCall
	var current *regexp.Regexp
	q := regexp.QuoteMeta(url)
	switch a.p.Name() {
	case "builtin":
		c = toolCall("tabs", map[string]any{"action": "switch", "index": n})
		current = regexp.MustCompile(`(?m)^url: ` + q + `$`)
	case "playwright":
		c = toolCall("browser_tabs", map[string]any{"action": "select", "index": n - 1})
		current = regexp.MustCompile(`\(current\) \[[^\]]*\]\(` + q + `\)`)
	case "chrome-devtools":
		c = toolCall("select_page", map[string]any{"pageId": n, "bringToFront": true})
		current = regexp.MustCompile(`\(` + q + `\) \[selected\]`)
	default:
		a.t.Fatalf("no tab switch known for server %s", a.p.Name())
	}
	if reply := a.call(c); !current.MatchString(reply) {
		a.t.Fatalf("%s did not switch to %s:\n%s", a.p.Name(), url, reply)
	}
}

func toolCall(name string, args map[string]any) llm.ToolCall {
	raw, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return llm.ToolCall{Name: name, Args: raw}
}

// waitFor waits until the browser has a page at url.
func (a *choiceAgent) waitFor(url string) {
	a.t.Helper()
	for {
		for _, info := range pages(a.t, a.ctx, a.browser) {
			if info.URL == url {
				return
			}
		}
		select {
		case <-a.ctx.Done():
			a.t.Fatalf("no page at %s: %v", url, a.ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// wantGraded has the judge observe the browser and checks the page it
// graded.
func (a *choiceAgent) wantGraded(url string) {
	a.t.Helper()
	obs, err := a.j.Observe(a.ctx, judge.Want{})
	if err != nil {
		a.t.Fatalf("judge: %v", err)
	}
	if obs.URL != url {
		var open []string
		for _, info := range pages(a.t, a.ctx, a.browser) {
			open = append(open, info.URL)
		}
		a.t.Errorf("the judge graded %s (%s), want %s; open: %s", obs.URL, obs.Active, url, strings.Join(open, ", "))
	}
}
