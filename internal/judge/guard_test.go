package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"contractbench/internal/contract"
)

// TestTheBrowserShowsOnlyTheTasksWeb asks the browser, as a tool server
// can (Page.navigate, or a new tab at a URL), for every kind of document
// that is not the task's web: a file of this machine (file:, its source,
// the filesystem: scheme), and the browser's own pages (chrome:, their
// source, devtools:). The file's text never reaches the page, no such page
// is left showing, and the judge records each attempt with the tool call
// that made it, which the runner reports tainted.
func TestTheBrowserShowsOnlyTheTasksWeb(t *testing.T) {
	const secret = "answer-7731-of-the-suite"
	file := filepath.Join(t.TempDir(), "generated.json")
	if err := os.WriteFile(file, []byte(`{"answer": "`+secret+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fileURL := "file://" + file
	hostname, err := os.ReadFile("/etc/hostname")
	if err != nil {
		t.Fatal(err)
	}
	web := site(t, map[string]any{"/": `<title>task</title><p>The task's page.</p>`}).URL + "/"
	cases := []struct {
		url, what string
		newTab    bool
	}{
		{fileURL, "a local file", false},
		{"view-source:" + fileURL, "a local file", false},
		{"file:///etc/hostname", "a local file", false},
		{"view-source:file:///etc/hostname", "a local file", false},
		{"filesystem:" + web + "temporary/generated.json", "a local file", false},
		{"chrome://version", "a page of the browser's own", false},
		{"view-source:chrome://version", "a page of the browser's own", false},
		{"devtools://devtools/bundled/inspector.html", "a page of the browser's own", false},
		{fileURL, "a local file", true},
		{"chrome://version", "a page of the browser's own", true},
	}
	for _, c := range cases {
		name := c.url
		if c.newTab {
			name = "new tab at " + name
		}
		t.Run(name, func(t *testing.T) {
			j := attach(t, stillClock)
			tab := openTab(t)
			navigate(t, tab, web)
			j.MarkToolCall()
			j.MarkToolCall()
			if c.newTab {
				created, err := chromedp.CallBrowser(driver, target.CreateTarget, target.CreateTargetParams{URL: c.url, BrowserContextID: taskContext})
				if err != nil {
					t.Fatalf("opening a tab at %s: %v", c.url, err)
				}
				t.Cleanup(func() {
					chromedp.CallBrowser(driver, target.CloseTarget, target.CloseTargetParams(created))
				})
				var cancel func()
				tab, cancel = chromedp.NewContext(driver, chromedp.WithTargetID(created.TargetID), chromedp.WithDetachOnCancel())
				t.Cleanup(cancel)
			} else if _, err := chromedp.Call(tab, page.Navigate, page.NavigateParams{URL: c.url}); err != nil {
				t.Fatalf("navigating to %s: %v", c.url, err)
			}
			refused := waitRefused(t, j)
			if refused.What != c.what || refused.Call != 2 {
				t.Errorf("refused %+v, want %s during call 2", refused, c.what)
			}
			// Whatever the page shows is not the file, nor the
			// browser's page, once the judge has acted.
			deadline := time.Now().Add(10 * time.Second)
			for {
				shown, err := chromedp.Run(tab, chromedp.Evaluate[string](`location.href + "\n" + (document.documentElement ? document.documentElement.innerText : "")`))
				if err != nil {
					// The judge navigated the page while it was read.
					shown = "about:reading\n" + err.Error()
				}
				if strings.Contains(shown, secret) || strings.Contains(c.url, "/etc/hostname") && strings.Contains(shown, strings.TrimSpace(string(hostname))) {
					t.Fatalf("the page shows the file:\n%s", shown)
				}
				if u, _, _ := strings.Cut(shown, "\n"); offWeb(u) == "" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the page still shows %s", shown)
				}
				time.Sleep(20 * time.Millisecond)
			}
			obs := observe(t, j)
			if len(obs.Refused) == 0 {
				t.Errorf("the observation lists no refusal")
			}
		})
	}
}

// waitRefused waits until the judge has refused a document, and returns
// the first refusal.
func waitRefused(t *testing.T, j *Judge) (r contract.Refusal) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		j.mu.Lock()
		n := len(j.refused)
		if n > 0 {
			r = j.refused[0]
		}
		j.mu.Unlock()
		if n > 0 {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatal("the judge refused nothing within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
