package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/agent/agenttest"
	"contractbench/internal/browser"
	"contractbench/internal/cdpconn"
	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
)

// store leaves state of every kind a site can keep in the browser: a
// cookie, local and session storage, an IndexedDB database and a Cache
// Storage cache. It answers with what it finds afterwards (see found).
const store = `async () => {
  document.cookie = 'leak=1; max-age=3600; path=/';
  localStorage.setItem('leak', '1');
  sessionStorage.setItem('leak', '1');
  await new Promise((ok, fail) => {
    const r = indexedDB.open('leak');
    r.onsuccess = () => { r.result.close(); ok(); };
    r.onerror = () => fail(r.error);
  });
  await (await caches.open('leak')).put('/leak', new Response('1'));
  return (` + find + `)();
}`

// find answers with the state store leaves, as siteState.
const find = `async () => ({
  cookie: document.cookie,
  local: localStorage.getItem('leak'),
  session: sessionStorage.getItem('leak'),
  databases: (await indexedDB.databases()).map(d => d.name),
  caches: await caches.keys(),
})`

type siteState struct {
	Cookie    string   `json:"cookie"`
	Local     *string  `json:"local"`
	Session   *string  `json:"session"`
	Databases []string `json:"databases"`
	Caches    []string `json:"caches"`
}

// TestTasksDoNotShareState runs two tasks one after the other on one
// worker, on the same site: the first stores a cookie, storage, a database
// and a cache there; the second must find none of it, under either
// isolation.
func TestTasksDoNotShareState(t *testing.T) {
	t.Parallel()
	for _, iso := range []runner.Isolate{runner.IsolateContext, runner.IsolateProcess} {
		t.Run(string(iso), func(t *testing.T) {
			t.Parallel()
			writer := variant(t, exampleTask, "state-writer", nil)
			reader := variant(t, exampleTask, "state-reader", nil)
			cfg := newConfig(t, writer, reader)
			cfg.Isolate = iso
			cfg.Server.Start = serverWithEvaluate
			cfg.Agent.Provider = func(tk *suite.Task) (llm.Provider, error) {
				fn := find
				if tk.ID == writer.ID {
					fn = store
				}
				nav, _ := json.Marshal(map[string]string{"url": "https://example.com/"})
				eval, _ := json.Marshal(map[string]string{"function": fn})
				return agenttest.NewScript("state", []llm.ToolCall{{Name: "navigate", Args: nav}, {Name: "evaluate_script", Args: eval}}), nil
			}
			run := runWithin(t, context.Background(), cfg)
			if len(run.Results) != 2 {
				t.Fatalf("%d results, want 2", len(run.Results))
			}
			state := func(r report.TaskResult) siteState {
				t.Helper()
				if len(r.Calls) != 2 || r.Calls[1].IsError {
					t.Fatalf("%s: calls %+v; want navigate, then evaluate_script answering", r.Task, r.Calls)
				}
				var s siteState
				if err := json.Unmarshal([]byte(r.Calls[1].Reply), &s); err != nil {
					t.Fatalf("%s: reply %q: %v", r.Task, r.Calls[1].Reply, err)
				}
				return s
			}
			// The state was really stored, or the reader's finding nothing
			// would prove nothing.
			w := state(run.Results[0])
			if w.Cookie != "leak=1" || w.Local == nil || w.Session == nil || len(w.Databases) != 1 || len(w.Caches) != 1 {
				t.Fatalf("the writer stored %+v; want its cookie, storage, database and cache", w)
			}
			if r := state(run.Results[1]); r.Cookie != "" || r.Local != nil || r.Session != nil || len(r.Databases) != 0 || len(r.Caches) != 0 {
				t.Errorf("the next task on the worker found %+v of the task before it; want none", r)
			}
		})
	}
}

// TestBrowserEndpointPerWorker runs tasks on two browsers that the test
// launched itself, one per worker, as --browser-url passes them. The
// browsers were given no replay flags: the fixture web reaches them only
// through each task context's proxy, so the tasks pass only if it does.
// The runner leaves the browsers running and disposes of every context it
// made.
func TestBrowserEndpointPerWorker(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var urls []string
	for range 2 {
		b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		urls = append(urls, b.URL())
	}
	tasks := webSuite.Tasks[:4]
	cfg := newConfig(t, tasks...)
	cfg.Parallel, cfg.BrowserURLs = 2, urls
	var mu sync.Mutex
	used := map[string]int{}
	cfg.Server.Start = func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		// The server reaches the browser through the judge's relay: the
		// browser is known by its own WebSocket.
		b := browserOf(t, browserURL)
		mu.Lock()
		used[b]++
		mu.Unlock()
		if browserContext == "" {
			t.Errorf("a task on %s got no browser context of its own", browserURL)
		}
		return inProcessServer(ctx, browserURL, browserContext, workDir)
	}
	run := runWithin(t, ctx, cfg)
	if len(run.Results) != len(tasks) {
		t.Fatalf("%d results, want %d", len(run.Results), len(tasks))
	}
	for _, r := range run.Results {
		if r.Outcome != report.OutcomePassed {
			t.Errorf("%s: %s (%s); want passed, on the replay web through its context's proxy", r.Task, r.Outcome, r.Reason)
		}
	}
	for _, u := range urls {
		if used[browserOf(t, u)] == 0 {
			t.Errorf("no task ran on %s; used %v", u, used)
		}
		conn, err := cdpconn.Dial(ctx, u, nil)
		if err != nil {
			t.Fatalf("the browser at %s no longer answers after the run: %v", u, err)
		}
		conn.Listen()
		left, err := cdpconn.Send(ctx, conn, "", target.GetBrowserContexts, cdp.Empty{})
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(left.BrowserContextIDs) != 0 {
			t.Errorf("the run left browser contexts %v in %s", left.BrowserContextIDs, u)
		}
	}
}

// TestContextPageViewport: the page a task's context starts with lays out
// at the viewport screenshot classes are made at, as a launched browser's
// first window does.
func TestContextPageViewport(t *testing.T) {
	t.Parallel()
	tk := variant(t, exampleTask, "viewport", nil)
	cfg := newConfig(t, tk)
	cfg.Server.Start = serverWithEvaluate
	cfg.Agent.Provider = func(*suite.Task) (llm.Provider, error) {
		nav, _ := json.Marshal(map[string]string{"url": "https://example.com/"})
		eval, _ := json.Marshal(map[string]string{"function": "() => [innerWidth, innerHeight]"})
		return agenttest.NewScript("viewport", []llm.ToolCall{{Name: "navigate", Args: nav}, {Name: "evaluate_script", Args: eval}}), nil
	}
	run := runWithin(t, context.Background(), cfg)
	r := run.Results[0]
	want := fmt.Sprintf("[%d,%d]", browser.ViewportWidth, browser.ViewportHeight)
	if len(r.Calls) != 2 || r.Calls[1].Reply != want {
		t.Errorf("the task's page measures %+v; want %s", r.Calls, want)
	}
}
