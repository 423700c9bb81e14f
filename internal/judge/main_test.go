package judge

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"contractbench/internal/browser"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// shared is the browser the tests observe, and driver is a chromedp
// connection to it that plays the agent's part. The agent's tabs open in
// taskContext, a browser context of shared's, and judges are confined to
// it, as the runner confines a task's judge to the task's context.
//
// A judge sees every page of its context, so the tests that use shared run
// one at a time (no t.Parallel), and each closes the tabs it opened.
var (
	shared      *browser.Browser
	driver      context.Context
	taskContext cdp.BrowserContextID
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

// bounded is t's context, cut off a minute before the test binary's own
// deadline (go test -timeout). It guards against a judge that never
// answers; a fixed budget of seconds would instead fail a test on a busy
// machine, where an answer comes later but comes.
func bounded(t *testing.T) (context.Context, context.CancelFunc) {
	if end, ok := t.Deadline(); ok {
		return context.WithDeadline(t.Context(), end.Add(-time.Minute))
	}
	return context.WithCancel(t.Context())
}

func run(m *testing.M) int {
	// Writing the script bundles (go generate) needs no browser.
	flag.Parse()
	if *updateBundles {
		return m.Run()
	}
	tb, err := startTestBrowser("")
	if err != nil {
		fmt.Fprintf(os.Stderr, "judge tests need Chromium (make chromium): %v\n", err)
		return 1
	}
	defer tb.close()
	shared, driver, taskContext = tb.browser, tb.driver, tb.taskContext
	code := m.Run()
	if other.tb != nil {
		other.tb.close()
	}
	return code
}

// testBrowser is a launched Chromium with a driver connected to it and
// a browser context for the agent's tabs, from one blank state: the tab
// the browser started with is closed, so every test sees only the tabs it
// opens (two windows' tabs are both visible, and which of two pages that
// were open before Attach is newer is not knowable).
type testBrowser struct {
	browser     *browser.Browser
	driver      context.Context
	taskContext cdp.BrowserContextID
	close       func()
}

// startTestBrowser launches the Chromium at execPath ("" for the default
// launch) for the tests.
func startTestBrowser(execPath string) (tb *testBrowser, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{ExecPath: execPath, NoSandbox: os.Geteuid() == 0})
	if err != nil {
		return nil, err
	}
	alloc, cancelAlloc := remote.NewAllocator(context.Background(), b.URL())
	drv, cancelDriver := chromedp.NewContext(alloc)
	tb = &testBrowser{browser: b, driver: drv, close: func() {
		cancelDriver()
		cancelAlloc()
		b.Close()
	}}
	defer func() {
		if err != nil {
			tb.close()
		}
	}()
	infos, err := chromedp.Targets(drv)
	if err != nil {
		return nil, fmt.Errorf("connecting the test driver to %s: %w", b.URL(), err)
	}
	for _, info := range infos {
		if info.Type == "page" {
			if _, err := chromedp.CallBrowser(drv, target.CloseTarget, target.CloseTargetParams{TargetID: info.TargetID}); err != nil {
				return nil, fmt.Errorf("closing the first tab: %w", err)
			}
		}
	}
	// Closing returns before the tab is gone, and a busy machine can take
	// seconds to get there; a judge attached meanwhile would wait on a
	// dying page.
	for {
		infos, err := chromedp.Targets(drv)
		if err != nil {
			return nil, fmt.Errorf("listing the test browser's tabs: %w", err)
		}
		if !slices.ContainsFunc(infos, func(i *target.Info) bool { return i.Type == "page" }) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, errors.New("the test browser's first tab did not close within a minute")
		case <-time.After(50 * time.Millisecond):
		}
	}
	bc, err := chromedp.CallBrowser(drv, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		return nil, fmt.Errorf("creating the tests' browser context: %w", err)
	}
	tb.taskContext = bc.BrowserContextID
	return tb, nil
}

// other is the browser that onBothBrowsers runs its tests in besides
// shared: the full Chromium where shared is a headless shell, and the
// other way round. It is launched on first use and closed by run.
var other struct {
	once sync.Once
	tb   *testBrowser
	err  error
}

// onBothBrowsers runs f as a subtest in shared and again in the other
// browser (the package's globals pointing at it meanwhile): for what the
// two show differently, such as which pages are visible at once.
func onBothBrowsers(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	names := map[bool]string{true: "headless shell", false: "chromium"}
	shell := shared.Shell()
	t.Run(names[shell], f)
	t.Run(names[!shell], func(t *testing.T) {
		other.once.Do(func() {
			execPath := browser.HeadlessShell
			if shell {
				execPath = browser.Chromium
			}
			other.tb, other.err = startTestBrowser(execPath)
		})
		if other.err != nil {
			t.Fatalf("these tests need both browsers (make chromium): %v", other.err)
		}
		// Registered first, so it runs after the cleanups of f, which
		// close its tabs through driver.
		b, d, c := shared, driver, taskContext
		t.Cleanup(func() { shared, driver, taskContext = b, d, c })
		shared, driver, taskContext = other.tb.browser, other.tb.driver, other.tb.taskContext
		f(t)
	})
}

// newTab opens a tab for the agent in taskContext.
func newTab() (context.Context, context.CancelFunc) {
	return chromedp.NewContext(driver, chromedp.WithExistingBrowserContext(taskContext))
}

// confined returns opts confining the judge to taskContext.
func confined(opts Options) Options {
	opts.BrowserContext = taskContext
	return opts
}
