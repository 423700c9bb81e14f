package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/agent/agenttest"
	"contractbench/internal/cdpconn"
	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
	"contractbench/internal/webreplay"
)

const sandboxDir = "../../benchmarks/sandbox"

// sandboxConfig returns a run of the sandbox suite's tasks whose IDs
// start with one of prefixes, with the reference agent, each attempt on
// the sandbox's sites in their initial state.
func sandboxConfig(tb testing.TB, prefixes ...string) *config {
	tb.Helper()
	s, err := suite.Load(sandboxDir)
	if err != nil {
		tb.Fatal(err)
	}
	a, err := webreplay.Open(s.WebDir())
	if err != nil {
		tb.Fatal(err)
	}
	var tasks []*suite.Task
	for _, t := range s.Tasks {
		for _, p := range prefixes {
			if strings.HasPrefix(t.ID, p) {
				tasks = append(tasks, t)
			}
		}
	}
	if len(tasks) != len(prefixes) {
		tb.Fatalf("%d of the sandbox's tasks match %v, want one each", len(tasks), prefixes)
	}
	cfg := newConfig(tb, tasks...)
	cfg.Suite, cfg.Archive, cfg.Classes = s, a, nil
	cfg.Sites = func(fallback http.Handler) http.Handler { return sandbox.New(fallback) }
	return cfg
}

// contexts records, for each task's tool server, the browser it ran in
// and its browser context.
type contexts struct {
	mu       sync.Mutex
	browsers map[string]int
	seen     map[string]bool
	dup      []string
}

func (c *contexts) start(tb testing.TB, next runner.ServerFunc) runner.ServerFunc {
	c.browsers, c.seen = map[string]int{}, map[string]bool{}
	return func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		browser := browserOf(tb, browserURL)
		c.mu.Lock()
		c.browsers[browser]++
		if browserContext == "" || c.seen[browserContext] {
			c.dup = append(c.dup, browserContext)
		}
		c.seen[browserContext] = true
		c.mu.Unlock()
		return next(ctx, browserURL, browserContext, workDir)
	}
}

// check fails tb unless the tasks ran in at most want browsers, each in a
// browser context of its own.
func (c *contexts) check(tb testing.TB, want int) {
	tb.Helper()
	if len(c.browsers) > want {
		tb.Errorf("the tasks ran in %d browsers %v; want at most %d", len(c.browsers), c.browsers, want)
	}
	if len(c.dup) > 0 {
		tb.Errorf("tasks got no browser context or one another task had: %q", c.dup)
	}
}

// TestSharedBrowsersKeepSandboxStateApart runs the sandbox's tasks that
// create numbered things (orders, bookings, threads) twice each, eight at
// a time in two browsers. Every attempt must pass, and its contract checks
// that its first order is SH-1001, its first booking BK-2041, its first
// thread /t/41: a request of one attempt reaching another attempt's sites
// (a context routed through the wrong proxy, a connection reused across
// contexts) would number it after the other's and fail it.
func TestSharedBrowsersKeepSandboxStateApart(t *testing.T) {
	t.Parallel()
	cfg := sandboxConfig(t, "sandbox-01-", "sandbox-02-", "sandbox-03-", "sandbox-06-", "sandbox-07-", "sandbox-09-", "sandbox-11-")
	cfg.Repeat, cfg.Parallel, cfg.Browsers = 2, 8, 2
	var seen contexts
	cfg.Server.Start = seen.start(t, inProcessServer)
	run := runWithin(t, context.Background(), cfg)
	if want := len(cfg.Tasks) * cfg.Repeat; len(run.Results) != want {
		t.Fatalf("%d results, want %d", len(run.Results), want)
	}
	for _, r := range run.Results {
		if r.Outcome != report.OutcomePassed {
			t.Errorf("%s#%d: %s (%s); want passed, on sites of its own", r.Task, r.Attempt, r.Outcome, r.Reason)
		}
	}
	seen.check(t, 2)
}

// TestSharedBrowsersKeepStorageApart runs eight tasks that store state of
// every kind on one site and eight that look for it, eight at a time in
// two browsers: the lookers run beside the storers, in the same browsers,
// and find nothing of theirs.
func TestSharedBrowsersKeepStorageApart(t *testing.T) {
	t.Parallel()
	var tasks []*suite.Task
	for _, role := range []string{"writer", "reader"} {
		for i := range 8 {
			tasks = append(tasks, variant(t, exampleTask, "state-"+role+"-"+string(rune('a'+i)), nil))
		}
	}
	cfg := newConfig(t, tasks...)
	cfg.Parallel, cfg.Browsers = 8, 2
	var seen contexts
	cfg.Server.Start = seen.start(t, serverWithEvaluate)
	cfg.Agent.Provider = func(tk *suite.Task) (llm.Provider, error) {
		fn := find
		if strings.HasPrefix(tk.ID, "state-writer-") {
			fn = store
		}
		nav, _ := json.Marshal(map[string]string{"url": "https://example.com/"})
		eval, _ := json.Marshal(map[string]string{"function": fn})
		return agenttest.NewScript("state", []llm.ToolCall{{Name: "navigate", Args: nav}, {Name: "evaluate_script", Args: eval}}), nil
	}
	run := runWithin(t, context.Background(), cfg)
	if len(run.Results) != len(tasks) {
		t.Fatalf("%d results, want %d", len(run.Results), len(tasks))
	}
	for _, r := range run.Results {
		if len(r.Calls) != 2 || r.Calls[1].IsError {
			t.Fatalf("%s: calls %+v; want navigate, then evaluate_script answering", r.Task, r.Calls)
		}
		var s siteState
		if err := json.Unmarshal([]byte(r.Calls[1].Reply), &s); err != nil {
			t.Fatalf("%s: reply %q: %v", r.Task, r.Calls[1].Reply, err)
		}
		writer := strings.HasPrefix(r.Task, "state-writer-")
		stored := s.Cookie == "leak=1" && s.Local != nil && s.Session != nil && len(s.Databases) == 1 && len(s.Caches) == 1
		found := s.Cookie != "" || s.Local != nil || s.Session != nil || len(s.Databases) != 0 || len(s.Caches) != 0
		switch {
		case writer && !stored:
			t.Errorf("%s stored %+v; want its cookie, storage, database and cache", r.Task, s)
		case !writer && found:
			t.Errorf("%s found %+v, stored by a task beside it in the same browser; want none", r.Task, s)
		}
	}
	seen.check(t, 2)
}

// Under process isolation every task has a browser of its own, so the
// workers cannot share fewer; more browsers than workers would idle.
func TestNewPlanRefusesBrowsers(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*runner.Spec)
	}{
		{"shared under process isolation", func(s *runner.Spec) { s.Isolate, s.Parallel, s.Browsers = runner.IsolateProcess, 8, 2 }},
		{"more browsers than workers", func(s *runner.Spec) { s.Parallel, s.Browsers = 2, 3 }},
		{"endpoints that are not the browsers", func(s *runner.Spec) {
			s.Parallel, s.Browsers, s.BrowserURLs = 4, 2, []string{"http://127.0.0.1:9222"}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := newConfig(t, task(t, exampleTask))
			tt.edit(&cfg.Spec)
			_, err := runner.NewPlan(cfg.Spec)
			var fe *runner.FieldError
			if !errors.As(err, &fe) || fe.Fields[0] != runner.FieldBrowsers || !strings.HasPrefix(err.Error(), "browsers ") {
				t.Errorf("NewPlan = %v; want a refusal naming the browsers field first", err)
			}
		})
	}
}

// browserOf names the browser behind a DevTools endpoint (the task's
// server is given the judge's relay to it): the path of its browser
// WebSocket, /devtools/browser/<id>, which is the browser's own.
func browserOf(tb testing.TB, endpoint string) string {
	tb.Helper()
	v, err := cdpconn.FetchVersion(tb.Context(), endpoint)
	if err != nil {
		tb.Errorf("reading %s/json/version: %v", endpoint, err)
		return endpoint
	}
	u, err := url.Parse(v.WebSocketDebuggerURL)
	if err != nil {
		tb.Errorf("the browser's WebSocket %q: %v", v.WebSocketDebuggerURL, err)
		return endpoint
	}
	return u.Path
}
