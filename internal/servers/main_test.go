package servers

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"contractbench/internal/browser"
	"contractbench/internal/webreplay"
)

var update = flag.Bool("update", false, "rewrite the captured peer replies in testdata")

const (
	// repoRoot holds benchmarks/ and node_modules/.
	repoRoot = "../.."
	// namesHost serves testdata/names.html, the page of awkward
	// accessible names the snapshot readers are tested on, and the
	// built-in server's test page widgets.html and testdata/checkout.html,
	// which TestWidgetSteps plays.
	namesHost = "peers.contractbench.test"
	// payHost serves the built-in server's payform.html, which namesHost's
	// checkout.html embeds: another origin of the same site.
	payHost = "pay.contractbench.test"
)

// The peer tests share one Chromium, started on first use (the unit tests
// need none) and ended by TestMain. It resolves the fixture web's hosts,
// and namesHost, to one replay server, and no other host at all. The tests
// that use it run one at a time: each leaves the browser with a single tab
// of its own.
var (
	sharedOnce sync.Once
	shared     *browser.Browser
	sharedErr  error
	stopShared = func() {}
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	stopShared()
	os.Exit(code)
}

// sharedBrowser returns the package's browser, failing the test with an
// install hint when Chromium cannot start.
func sharedBrowser(t *testing.T) *browser.Browser {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = startShared() })
	if sharedErr != nil {
		t.Fatalf("peer tests need Chromium (apt-get install chromium): %v", sharedErr)
	}
	return shared
}

func startShared() (*browser.Browser, error) {
	archive, err := webreplay.Open(filepath.Join(repoRoot, "benchmarks/webvoyager/web"))
	if err != nil {
		return nil, err
	}
	names, err := os.ReadFile("testdata/names.html")
	if err != nil {
		return nil, err
	}
	if err := archive.Add(namesHost, webreplay.Entry{Path: "/names.html"}, names); err != nil {
		return nil, err
	}
	// The widget pages are the built-in server's test pages, so that both
	// servers are tested on one page.
	for _, f := range []struct{ host, dir, file string }{
		{namesHost, "../toolserver/testdata/pages", "widgets.html"}, {namesHost, "testdata", "checkout.html"},
		{payHost, "../toolserver/testdata/pages", "payform.html"},
	} {
		data, err := os.ReadFile(filepath.Join(f.dir, f.file))
		if err != nil {
			return nil, err
		}
		if err := archive.Add(f.host, webreplay.Entry{Path: "/" + f.file}, data); err != nil {
			return nil, err
		}
	}
	srv, err := webreplay.NewServer(webreplay.Replay(archive), webreplay.ServerOptions{Hosts: archive.Hosts()})
	if err != nil {
		return nil, fmt.Errorf("replay server: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0, Flags: srv.ChromiumFlags()})
	if err != nil {
		srv.Close()
		return nil, err
	}
	stopShared = func() {
		b.Close()
		srv.Close()
	}
	return b, nil
}
