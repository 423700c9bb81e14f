package judge

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		fmt.Fprintf(os.Stderr, "judge tests need Chromium (apt-get install chromium): %v\n", err)
		return 1
	}
	defer b.Close()
	shared = b

	alloc, cancelAlloc := remote.NewAllocator(context.Background(), b.URL())
	defer cancelAlloc()
	var cancelDriver context.CancelFunc
	driver, cancelDriver = chromedp.NewContext(alloc)
	defer cancelDriver()
	infos, err := chromedp.Targets(driver)
	if err != nil {
		fmt.Fprintf(os.Stderr, "connecting the test driver to %s: %v\n", b.URL(), err)
		return 1
	}
	// Close the tab the browser started with. Every test then sees only
	// the tabs it opens: two windows' tabs are both visible, and which of
	// two pages that were open before Attach is newer is not knowable.
	for _, info := range infos {
		if info.Type == "page" {
			if _, err := chromedp.CallBrowser(driver, target.CloseTarget, target.CloseTargetParams{TargetID: info.TargetID}); err != nil {
				fmt.Fprintf(os.Stderr, "closing the first tab: %v\n", err)
				return 1
			}
		}
	}
	// Closing returns before the tab is gone, and a busy machine can take
	// seconds to get there; a judge attached meanwhile would wait on a
	// dying page.
	for {
		infos, err := chromedp.Targets(driver)
		if err != nil {
			fmt.Fprintf(os.Stderr, "listing the test browser's tabs: %v\n", err)
			return 1
		}
		if !slices.ContainsFunc(infos, func(i *target.Info) bool { return i.Type == "page" }) {
			break
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(os.Stderr, "the test browser's first tab did not close within a minute")
			return 1
		case <-time.After(50 * time.Millisecond):
		}
	}
	bc, err := chromedp.CallBrowser(driver, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "creating the tests' browser context: %v\n", err)
		return 1
	}
	taskContext = bc.BrowserContextID
	return m.Run()
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
