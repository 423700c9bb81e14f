//go:build linux

package browser

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// shared is the one Chromium that the tests which only look at a running
// browser use. Tests of the lifecycle itself launch their own.
var shared *Browser

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := Launch(ctx, testOptions())
	if err != nil {
		// A missing browser fails the package: these tests are the only
		// evidence that launching works.
		fmt.Fprintf(os.Stderr, "browser tests need Chromium (apt-get install chromium): %v\n", err)
		return 1
	}
	shared = b
	code := m.Run()
	if err := b.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "closing the shared browser: %v\n", err)
		return 1
	}
	return code
}

// testOptions are the options every test launch starts from: the full
// browser, which has more of its own to test (its hidden toolbar, the
// pages of its user interface); the tests of the headless shell, the
// default launch, say so.
func testOptions() Options {
	return Options{ExecPath: Chromium, NoSandbox: os.Geteuid() == 0}
}
