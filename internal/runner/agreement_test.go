package runner

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/judge"
	"contractbench/internal/toolserver"
)

// The judge grades the tab in front; the agent acts on the tool server's
// current tab. They must be the same tab: a link that opens a new tab must
// not leave the judge looking at a page the agent never switched to.
func TestJudgeSeesTheAgentsTab(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/opener.html":
			fmt.Fprint(w, `<!doctype html><title>Opener</title><a href="/opened.html" target="_blank">Open the other page</a>`)
		case "/opened.html":
			fmt.Fprint(w, `<!doctype html><title>Opened</title><p>The other page.</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		t.Fatalf("launch Chromium: %v (install it with apt-get install chromium)", err)
	}
	defer b.Close()
	j, err := judge.Attach(ctx, b.URL(), judge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	// The tool server reaches the browser as a task's does: through the
	// judge, which sees it bring a tab to the front.
	srv, err := toolserver.New(ctx, toolserver.Options{BrowserURL: j.ServerURL()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ct, st := mcp.NewInMemoryTransports()
	go srv.MCP().Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %+v", tool, args, err, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	observed := func() string {
		t.Helper()
		obs, err := j.Observe(ctx, judge.Want{})
		if err != nil {
			t.Fatalf("Observe: %v", err)
		}
		return obs.URL
	}

	call("navigate", map[string]any{"url": site.URL + "/opener.html"})
	call("find", map[string]any{"query": "Open the other page"})
	if got := call("click", map[string]any{"ref": "e1"}); !strings.Contains(got, "opened new tab 2") {
		t.Fatalf("click on a target=_blank link did not report the new tab:\n%s", got)
	}
	if got, want := observed(), site.URL+"/opener.html"; got != want {
		t.Errorf("after a click opened a tab the agent did not switch to, the judge observed %s, want the agent's tab %s", got, want)
	}
	call("tabs", map[string]any{"action": "switch", "index": 2})
	if got, want := observed(), site.URL+"/opened.html"; got != want {
		t.Errorf("after tabs switch, the judge observed %s, want %s", got, want)
	}
}
