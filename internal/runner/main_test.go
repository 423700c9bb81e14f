package runner_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/llm"
	"contractbench/internal/phash"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
	"contractbench/internal/toolserver"
	"contractbench/internal/webreplay"
)

const suiteDir = "../../benchmarks/webvoyager"

// The suite and its fixture web are loaded once and only read by the tests.
// Every task launches a browser of its own: that is the runner's design,
// so there is no shared browser here, only the check that one can start.
var (
	webSuite *suite.Suite
	archive  *webreplay.Archive
	classes  phash.Classes
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if webSuite, err = suite.Load(suiteDir); err != nil {
		fmt.Fprintf(os.Stderr, "loading the suite %s: %v\n", suiteDir, err)
		return 1
	}
	if archive, err = webreplay.Open(webSuite.WebDir()); err != nil {
		fmt.Fprintf(os.Stderr, "opening the fixture web: %v\n", err)
		return 1
	}
	if classes, err = phash.LoadClasses(os.DirFS(webSuite.ClassesDir())); err != nil {
		fmt.Fprintf(os.Stderr, "loading the screenshot classes: %v\n", err)
		return 1
	}
	if !haveChromium() {
		fmt.Fprintf(os.Stderr, "runner tests need Chromium at one of %s (apt-get install chromium)\n",
			strings.Join(browser.DefaultExecPaths, ", "))
		return 1
	}
	return m.Run()
}

func haveChromium() bool {
	for _, p := range browser.DefaultExecPaths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}

// inProcessServer is a ServerFunc that runs the built-in tool server in
// this process and hands the runner the client end of an in-memory pipe.
// The server ends when the runner closes its session.
func inProcessServer(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
	srv, err := toolserver.New(ctx, toolserver.Options{BrowserURL: browserURL, BrowserContext: cdp.BrowserContextID(browserContext)})
	if err != nil {
		return nil, err
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	// The server end is connected first: the client initializes the
	// session as it connects.
	ss, err := srv.MCP().Connect(context.Background(), serverEnd, nil)
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("serving the tool server in memory: %w", err)
	}
	go func() {
		ss.Wait()
		srv.Close()
	}()
	return clientEnd, nil
}

// reference plays each task's scripted reference solution on the built-in
// server, as `contractbench run --agent reference` does: each target is
// found with find before it is acted on.
func reference(t *suite.Task) (llm.Provider, error) {
	return servers.Builtin().Reference(t.Reference), nil
}

// config is a run for the tests: the spec its plan is made of, and the
// hooks Run gets with it.
type config struct {
	runner.Spec
	runner.Hooks
}

// newConfig returns a run of tasks on the fixture web with the reference
// agent and the in-process tool server, one task at a time.
func newConfig(tb testing.TB, tasks ...*suite.Task) *config {
	tb.Helper()
	prices, err := llm.DefaultPrices()
	if err != nil {
		tb.Fatal(err)
	}
	return &config{Spec: runner.Spec{
		Suite:   webSuite,
		Tasks:   tasks,
		Agent:   runner.Agent{Name: "reference", Provider: reference},
		Server:  runner.Server{Name: "builtin", Start: inProcessServer},
		Web:     runner.WebReplay,
		Archive: archive,
		Browser: browser.Options{NoSandbox: os.Geteuid() == 0},
		Classes: classes,
		Caps:    llm.DefaultCaps(),
		Prices:  prices,
	}}
}

// plan makes the run's plan, failing the test if the spec is refused.
func (c *config) plan(tb testing.TB) *runner.Plan {
	tb.Helper()
	p, err := runner.NewPlan(c.Spec)
	if err != nil {
		tb.Fatalf("NewPlan: %v", err)
	}
	return p
}

// task returns the suite's task id.
func task(tb testing.TB, id string) *suite.Task {
	tb.Helper()
	t, ok := webSuite.Task(id)
	if !ok {
		tb.Fatalf("the suite has no task %s", id)
	}
	return t
}

// variant returns a copy of the suite's task id under another id, changed
// by edit. The suite's own tasks are shared by every test and not touched.
func variant(tb testing.TB, id, newID string, edit func(*suite.Task)) *suite.Task {
	tb.Helper()
	t := *task(tb, id)
	t.ID = newID
	if edit != nil {
		edit(&t)
	}
	return &t
}

// runWithin runs cfg and fails the test if the run had to be cut off. Its
// bound is the test binary's own (go test -timeout) less a minute to
// report in, never a budget of its own: a busy machine makes a run slower,
// not a failure, and a run that hangs still ends with this message.
func runWithin(tb testing.TB, ctx context.Context, cfg *config) *report.Run {
	tb.Helper()
	if t, ok := tb.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := t.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, end.Add(-time.Minute))
			defer cancel()
		}
	}
	run := runner.Run(ctx, cfg.plan(tb), cfg.Hooks)
	if ctx.Err() == context.DeadlineExceeded {
		tb.Fatalf("the run was cut off at the test's deadline")
	}
	return run
}
