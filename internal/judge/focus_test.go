package judge

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// choiceSite serves the pages of the tests of which page is the agent's:
// an opener that opens a popup window on a click and a new tab by a link;
// and a popup that focuses its own field a moment after its opener asks
// (as a page that wants the visitor's attention does). The popup tells its
// opener when it listens and when it focused; the opener shows the latest
// in its body's data-popup. The moment keeps the focus clearly after the
// input that asked for it, on clocks that the browser coarsens.
func choiceSite(t *testing.T) string {
	t.Helper()
	return site(t, map[string]any{
		"/opener": `<title>opener</title>
<button style="position:fixed;left:0;top:0;width:300px;height:100px" onclick="w = window.open('/popup', 'pw', 'popup,width=500,height=400')">open</button>
<a href="/tab" target="_blank" style="position:fixed;left:0;top:120px;width:300px;height:100px;display:block">tab</a>
<input style="position:fixed;left:0;top:240px;width:300px" oninput="w.postMessage('focus', '*')">
<script>var w; addEventListener('message', (e) => { document.body.dataset.popup = e.data })</script>`,
		"/popup": `<title>popup</title><button style="position:fixed;left:0;top:0;width:300px;height:100px">press</button><input id="q" style="position:fixed;left:0;top:150px">
<script>addEventListener('message', (e) => { if (e.data === 'focus') setTimeout(() => { document.getElementById('q').focus(); opener.postMessage('focused', '*') }, 100) }); opener.postMessage('listening', '*')</script>`,
		"/tab": `<title>tab</title><h1>tab</h1>`,
	}).URL
}

// openedBy returns the page that the page opener opened at url, waiting
// for it, and closes it when the test ends.
func openedBy(t *testing.T, opener target.ID, url string) target.ID {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		infos, err := chromedp.Targets(driver)
		if err != nil {
			t.Fatalf("listing the tabs: %v", err)
		}
		for _, info := range infos {
			if info.Type == "page" && info.OpenerID == opener && info.URL == url {
				t.Cleanup(func() {
					chromedp.CallBrowser(driver, target.CloseTarget, target.CloseTargetParams{TargetID: info.TargetID})
				})
				return info.TargetID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no page at %s opened within 10s: %+v", url, infos)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAPopupThePageOpenedIsNotTheAgentsPage: a popup window the page opens
// (here on the agent's click, as every popup not blocked is) is not where
// the agent is while the agent has done nothing in it. Every tool server
// goes on acting in the agent's page after such a click.
func TestAPopupThePageOpenedIsNotTheAgentsPage(t *testing.T) {
	onBothBrowsers(t, aPopupThePageOpenedIsNotTheAgentsPage)
}

func aPopupThePageOpenedIsNotTheAgentsPage(t *testing.T) {
	url := choiceSite(t)
	j := attach(t, stillClock)
	tab := openTab(t)
	navigate(t, tab, url+"/opener")
	opener := chromedp.FromContext(tab).Target.TargetID
	if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 50)); err != nil {
		t.Fatalf("clicking: %v", err)
	}
	openedBy(t, opener, url+"/popup")
	waitRecorded(t, j, "the popup", documentLoaded(url+"/popup"))
	if obs := observe(t, j); obs.URL != url+"/opener" {
		t.Errorf("active page = %s (%s), want the opener: the agent never touched the popup", obs.URL, obs.Active)
	}
}

// TestFocusThePageGaveItselfIsNotTheAgents: a page that focuses one of its
// own fields after the agent went on working elsewhere has not drawn the
// agent there.
func TestFocusThePageGaveItselfIsNotTheAgents(t *testing.T) {
	onBothBrowsers(t, focusThePageGaveItselfIsNotTheAgents)
}

func focusThePageGaveItselfIsNotTheAgents(t *testing.T) {
	url := choiceSite(t)
	j := attach(t, stillClock)
	tab := openTab(t)
	navigate(t, tab, url+"/opener")
	opener := chromedp.FromContext(tab).Target.TargetID
	if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 50)); err != nil {
		t.Fatalf("clicking: %v", err)
	}
	openedBy(t, opener, url+"/popup")
	waitPopup(t, tab, "listening")
	// The agent types in its own page, and the popup answers by focusing
	// its field.
	if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 250), chromedp.KeyEvent("a")); err != nil {
		t.Fatalf("typing: %v", err)
	}
	waitPopup(t, tab, "focused")
	if obs := observe(t, j); obs.URL != url+"/opener" {
		t.Errorf("active page = %s (%s), want the opener, where the agent typed last", obs.URL, obs.Active)
	}
}

// waitPopup waits until the popup has told the opener in tab what.
func waitPopup(t *testing.T, tab context.Context, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		said, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.popup || ''`))
		if err != nil {
			t.Fatal(err)
		}
		if said == what {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the popup has not said %q within 10s (it said %q)", what, said)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestATabBroughtToTheFrontIsTheAgentsChoice: a tab that a tool server
// brings to the front of its window, with Target.activateTarget (the
// built-in server) or Page.bringToFront (@playwright/mcp,
// chrome-devtools-mcp), is where the agent is, even though the agent
// worked in another window since and has done nothing in the tab yet.
// The server reaches the browser through the judge (ServerURL), as a
// task's does, which sees the request. The full browser also shows the
// tab come to the front in the page itself (visibilitychange), which is
// enough there: "unseen" brings the tab forward on a connection of its
// own. A headless shell shows nothing, as every page is in front.
func TestATabBroughtToTheFrontIsTheAgentsChoice(t *testing.T) {
	onBothBrowsers(t, aTabBroughtToTheFrontIsTheAgentsChoice)
}

func aTabBroughtToTheFrontIsTheAgentsChoice(t *testing.T) {
	hows := []string{"Target.activateTarget", "Page.bringToFront"}
	if !shared.Shell() {
		hows = append(hows, "unseen")
	}
	for _, how := range hows {
		t.Run(how, func(t *testing.T) {
			url := choiceSite(t)
			j := attach(t, stillClock)
			server := serverConn(t, j)
			if how == "unseen" {
				server = driver
			}
			tab := openTab(t)
			navigate(t, tab, url+"/opener")
			opener := chromedp.FromContext(tab).Target.TargetID
			// A tab by the link, in front of the opener; the opener back
			// in front; and a popup window, where the agent presses a
			// button.
			if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 170)); err != nil {
				t.Fatalf("clicking the link: %v", err)
			}
			newTab := openedBy(t, opener, url+"/tab")
			waitRecorded(t, j, "the tab", documentLoaded(url+"/tab"))
			if _, err := chromedp.CallBrowser(server, target.ActivateTarget, target.ActivateTargetParams{TargetID: opener}); err != nil {
				t.Fatalf("activating the opener: %v", err)
			}
			if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 50)); err != nil {
				t.Fatalf("clicking: %v", err)
			}
			popup, cancel := chromedp.NewContext(driver, chromedp.WithTargetID(openedBy(t, opener, url+"/popup")), chromedp.WithDetachOnCancel())
			defer cancel()
			waitRecorded(t, j, "the popup", documentLoaded(url+"/popup"))
			if err := chromedp.Do(popup, chromedp.MouseClickXY(50, 50)); err != nil {
				t.Fatalf("pressing in the popup: %v", err)
			}
			if obs := observe(t, j); obs.URL != url+"/popup" {
				t.Fatalf("after pressing in the popup, active page = %s (%s), want the popup", obs.URL, obs.Active)
			}
			// The tool server brings the tab to the front.
			switch how {
			case "Target.activateTarget", "unseen":
				if _, err := chromedp.CallBrowser(server, target.ActivateTarget, target.ActivateTargetParams{TargetID: newTab}); err != nil {
					t.Fatalf("activating the tab: %v", err)
				}
			case "Page.bringToFront":
				front, cancel := chromedp.NewContext(server, chromedp.WithTargetID(newTab), chromedp.WithDetachOnCancel())
				defer cancel()
				if _, err := chromedp.Call(front, page.BringToFront, cdp.Empty{}); err != nil {
					t.Fatalf("bringing the tab to the front: %v", err)
				}
			}
			obs := observe(t, j)
			if obs.URL != url+"/tab" {
				t.Errorf("after the tab was brought to the front, active page = %s (%s), want the tab", obs.URL, obs.Active)
			}
			if !strings.Contains(obs.Active, "front") {
				t.Errorf("the active page is explained as %q, want it to say the tab was brought to the front", obs.Active)
			}
		})
	}
}

// TestAWindowTheServerSwitchedToIsTheAgentsChoice: the agent's tool
// server switches to a popup window the page opened, and the agent only
// reads there. Nothing in either page shows the switch (decision 0027);
// the judge sees the server ask for it, on the server's way to the
// browser (ServerURL), and grades the popup. Switching back grades the
// opener again.
func TestAWindowTheServerSwitchedToIsTheAgentsChoice(t *testing.T) {
	onBothBrowsers(t, aWindowTheServerSwitchedToIsTheAgentsChoice)
}

func aWindowTheServerSwitchedToIsTheAgentsChoice(t *testing.T) {
	for _, how := range []string{"Target.activateTarget", "Page.bringToFront", "/json/activate"} {
		t.Run(how, func(t *testing.T) {
			url := choiceSite(t)
			j := attach(t, stillClock)
			server := serverConn(t, j)
			tab := openTab(t)
			navigate(t, tab, url+"/opener")
			opener := chromedp.FromContext(tab).Target.TargetID
			if err := chromedp.Do(tab, chromedp.MouseClickXY(50, 50)); err != nil {
				t.Fatalf("clicking: %v", err)
			}
			popup := openedBy(t, opener, url+"/popup")
			waitRecorded(t, j, "the popup", documentLoaded(url+"/popup"))
			if obs := observe(t, j); obs.URL != url+"/opener" {
				t.Fatalf("before any switch, active page = %s (%s), want the opener", obs.URL, obs.Active)
			}
			switchTo := func(id target.ID) {
				t.Helper()
				var err error
				switch how {
				case "Target.activateTarget":
					_, err = chromedp.CallBrowser(server, target.ActivateTarget, target.ActivateTargetParams{TargetID: id})
				case "Page.bringToFront":
					front, cancel := chromedp.NewContext(server, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
					defer cancel()
					_, err = chromedp.Call(front, page.BringToFront, cdp.Empty{})
				case "/json/activate":
					var resp *http.Response
					if resp, err = http.Get(j.ServerURL() + "/json/activate/" + string(id)); err == nil {
						resp.Body.Close()
					}
				}
				if err != nil {
					t.Fatalf("switching to %s by %s: %v", id, how, err)
				}
			}
			switchTo(popup)
			if obs := observe(t, j); obs.URL != url+"/popup" || !strings.Contains(obs.Active, "front") {
				t.Errorf("after the server switched to the popup, active page = %s (%s), want the popup, brought to the front", obs.URL, obs.Active)
			}
			switchTo(opener)
			if obs := observe(t, j); obs.URL != url+"/opener" {
				t.Errorf("after the server switched back, active page = %s (%s), want the opener", obs.URL, obs.Active)
			}
		})
	}
}

// serverConn is a connection to the browser through j, as a task's tool
// server has: the judge sees what it asks of the browser.
func serverConn(t *testing.T, j *Judge) context.Context {
	t.Helper()
	alloc, cancel := remote.NewAllocator(t.Context(), j.ServerURL())
	t.Cleanup(cancel)
	server, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	return server
}
