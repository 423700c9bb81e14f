package judge

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A clause's page is read by the judge in a window of its own, after the
// agent's final page is observed: the site's state as the site shows it,
// with the task's cookies, by the same visibility rules; and that window is
// never evidence of the agent.

// stateSite is a site whose /state page shows what was saved, to a
// visitor with the session cookie /login sets, and counts its visits.
// Cookies do not tell ports apart: each site has a session of its own.
type stateSite struct {
	session string
	mu      sync.Mutex
	saved   string
	visits  int
}

func (s *stateSite) routes() map[string]any {
	return map[string]any{
		"/login": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: s.session, Path: "/"})
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<form method="post" action="/save"><input name="item" value="Tea"><button id="save">Save</button></form>`)
		}),
		"/save": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.saved = r.FormValue("item")
			s.mu.Unlock()
			http.Redirect(w, r, "/done", http.StatusSeeOther)
		}),
		"/done":      "<p>Saved.</p>",
		"/elsewhere": "<h1>Somewhere else</h1>",
		"/old": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/state", http.StatusFound)
		}),
		"/alerting": `<script>alert("hello")</script><p id="saved">Alerted</p>`,
		"/state": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.visits++
			saved := s.saved
			s.mu.Unlock()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			if c, err := r.Cookie("session"); err != nil || c.Value != s.session {
				fmt.Fprint(w, `<title>State</title><p id="saved">Please log in</p>`)
				return
			}
			fmt.Fprintf(w, `<title>State</title><p id="saved">Saved: %s</p><p class="item" style="display:none">%s</p>`+
				`<style>#wrap { position: relative } #wrap::after { content: ""; position: absolute; inset: 0; background: #fff }</style>`+
				`<div id="wrap"><p id="covered">Covered words</p></div>`, saved, saved)
		}),
	}
}

// oneTaskPage fails the test unless, within a bound, the tests' browser
// context has only the agent's page open: closing a window takes a moment.
func oneTaskPage(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for taskPages(t) != 1 && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	if n := taskPages(t); n != 1 {
		t.Errorf("%d pages open in the task's context after grading, want the agent's 1: the judge closes its own", n)
	}
}

// taskPages counts the open pages of the tests' browser context.
func taskPages(t *testing.T) int {
	t.Helper()
	infos, err := chromedp.Targets(driver)
	if err != nil {
		t.Fatalf("listing targets: %v", err)
	}
	n := 0
	for _, info := range infos {
		if info.Type == "page" && info.BrowserContextID == taskContext {
			n++
		}
	}
	return n
}

func TestPageClausesReadTheStateInTheJudgesOwnWindow(t *testing.T) {
	s := &stateSite{session: t.Name()}
	srv := site(t, s.routes())
	pc := fmt.Sprintf(`postconditions:
  - {kind: dom_text, selector: '#saved', contains: 'Saved: Tea', page: '%[1]s/state'}
  - {kind: dom_count, selector: '.item', op: eq, value: 0, page: '%[1]s/state'}
  - {kind: not, child: {kind: dom_text, selector: '#covered', contains: 'Covered words', page: '%[1]s/state'}}
  - {kind: dom_text, selector: '#saved', contains: 'Saved: Tea', page: '%[1]s/old'}
  - {kind: dom_text, selector: '#saved', contains: 'Alerted', page: '%[1]s/alerting'}
  - {kind: not, child: {kind: network, url_pattern: '/(state|old|alerting)$', status_in: [200, 302]}}
  - {kind: no_dialog}
  - {kind: url, pattern: '/elsewhere$'}
`, srv.URL)
	v, obs := episode(t, srv.URL+"/login", pc, func(tab context.Context) {
		act(t, tab, chromedp.Click(chromedp.CSS("#save")), chromedp.WaitVisible(chromedp.CSS("p")))
		navigate(t, tab, srv.URL+"/elsewhere")
	})
	if !v.Passed {
		t.Fatalf("want a pass:\n%s", verdictText(v, obs))
	}
	// The agent's page is the one observed, as ever.
	if !strings.HasSuffix(obs.URL, "/elsewhere") || obs.Active != "the only open page" {
		t.Errorf("observed %s (%s), want the agent's /elsewhere, its only open page", obs.URL, obs.Active)
	}
	// Evidence says which page was read, and where it ended.
	seen := v.Evidence[0].Seen + " | " + v.Evidence[3].Seen
	if !strings.Contains(seen, "on "+srv.URL+"/state, #saved") || !strings.Contains(seen, "(read at "+srv.URL+"/state)") {
		t.Errorf("evidence does not name the page read: %q", seen)
	}
	// The same visibility rules, the pixels included: the hidden copy
	// does not count, nor do words an overlay paints over.
	if el := obs.Pages[srv.URL+"/state"].Elements[".item"]; el.Count != 0 || el.Hidden != 1 {
		t.Errorf(".item on /state: %+v, want 0 visible and 1 hidden", el)
	}
	s.mu.Lock()
	visits := s.visits
	s.mu.Unlock()
	if visits != 2 {
		t.Errorf("/state was served %d times, want 2 (once for each page that reaches it)", visits)
	}
	if n := taskPages(t); n != 1 {
		t.Errorf("%d pages open in the task's context after grading, want the agent's 1: the judge closes its own", n)
	}
}

// Without the session cookie the state page shows nothing saved: the
// judge reads it with the task's cookies, or the clause fails.
func TestPageClausesSeeTheTasksCookies(t *testing.T) {
	s := &stateSite{session: t.Name()}
	srv := site(t, s.routes())
	pc := fmt.Sprintf("postconditions:\n  - {kind: dom_text, selector: '#saved', contains: 'Please log in', page: '%s/state'}\n", srv.URL)
	// The agent never logs in: the judge, with the task's (empty) cookie
	// jar, is not logged in either.
	v, obs := episode(t, srv.URL+"/elsewhere", pc, nil)
	if !v.Passed {
		t.Fatalf("want a pass:\n%s", verdictText(v, obs))
	}
}

// A page the judge cannot load decides nothing, under a not as well.
func TestPageClauseOnAnUnreadablePageIsUndecided(t *testing.T) {
	srv := site(t, map[string]any{"/": "<p>Home</p>"})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/state"
	l.Close()
	pc := fmt.Sprintf("postconditions:\n  - {kind: not, child: {kind: dom_count, selector: p, op: gte, value: 1, page: '%s'}}\n", closed)
	v, obs := episode(t, srv.URL+"/", pc, nil)
	if v.Passed || !v.Undecided {
		t.Fatalf("want an undecided failure:\n%s", verdictText(v, obs))
	}
	if r := obs.Pages[closed]; r.Error == "" || !strings.Contains(v.Evidence[0].Seen, "could not read") {
		t.Errorf("reading %+v, evidence %q: want the navigation's error", r, v.Evidence[0].Seen)
	}
	oneTaskPage(t)
}
