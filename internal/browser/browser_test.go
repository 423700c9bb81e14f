//go:build linux

package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"contractbench/internal/cdpconn"
)

func TestLaunchEndpoints(t *testing.T) {
	t.Parallel()
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(shared.URL()) {
		t.Errorf("URL() = %q, want http://127.0.0.1:PORT", shared.URL())
	}
	wantWS := "ws://" + strings.TrimPrefix(shared.URL(), "http://") + "/devtools/browser/"
	if !strings.HasPrefix(shared.wsURL, wantWS) {
		t.Errorf("WebSocketURL() = %q, want prefix %q", shared.wsURL, wantWS)
	}
	v, err := cdpconn.FetchVersion(t.Context(), shared.URL())
	if err != nil {
		t.Fatalf("/json/version of the launched browser: %v", err)
	}
	if !strings.Contains(v.Browser, "Chrome/") {
		t.Errorf("/json/version Browser = %q, want a Chrome version", v.Browser)
	}
	select {
	case <-shared.Done():
		t.Fatalf("Done closed while the browser runs; Err = %v", shared.Err())
	default:
	}
	if err := shared.Err(); err != nil {
		t.Errorf("Err() of a running browser = %v, want nil", err)
	}
}

// viewportPage reports its viewport and opens a tab when its link is
// clicked, so every way a page comes to exist can be measured.
const viewportPage = `<!doctype html><title>viewport</title>
<a id="blank" href="/" target="_blank" style="position:fixed;left:0;top:0;width:200px;height:200px">new tab</a>`

func TestViewportOfEveryNewPage(t *testing.T) {
	t.Parallel()
	t.Run("chromium --headless=new", func(t *testing.T) {
		t.Parallel()
		viewportsOf(t, shared)
	})
	t.Run("headless shell", func(t *testing.T) {
		t.Parallel()
		opts := testOptions()
		opts.ExecPath = HeadlessShell
		b, err := Launch(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		// A browser attached to knows the shell by its product.
		a, err := Attach(t.Context(), b.URL())
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if b.WindowHeight() != ViewportHeight || a.WindowHeight() != ViewportHeight {
			t.Errorf("a headless shell's window height: launched %d, attached %d, want %d (it has no toolbar)", b.WindowHeight(), a.WindowHeight(), ViewportHeight)
		}
		viewportsOf(t, b)
	})
}

// viewportsOf checks that every way a page comes to exist in b gives it a
// 1280x800 viewport.
func viewportsOf(t *testing.T, b *Browser) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, viewportPage)
	}))
	defer srv.Close()

	ctx := remoteContext(t, b.URL())
	tabs := []struct {
		name string
		// open opens a page and returns its target.
		open func(t *testing.T) target.ID
	}{
		{"first tab", func(t *testing.T) target.ID {
			return firstPage(t, ctx)
		}},
		{"tab created over CDP", func(t *testing.T) target.ID {
			res, err := chromedp.CallBrowser(ctx, target.CreateTarget, target.CreateTargetParams{URL: srv.URL})
			if err != nil {
				t.Fatalf("creating a target: %v", err)
			}
			return res.TargetID
		}},
		{"tab created over CDP at the window's size", func(t *testing.T) target.ID {
			// As the runner opens a task's page: in a browser context of
			// its own, a window of its own.
			bc, err := chromedp.CallBrowser(ctx, target.CreateBrowserContext, target.CreateBrowserContextParams{})
			if err != nil {
				t.Fatalf("creating a browser context: %v", err)
			}
			res, err := chromedp.CallBrowser(ctx, target.CreateTarget, target.CreateTargetParams{
				URL: srv.URL, BrowserContextID: bc.BrowserContextID, Width: ViewportWidth, Height: int64(b.WindowHeight()),
			})
			if err != nil {
				t.Fatalf("creating a target: %v", err)
			}
			return res.TargetID
		}},
		{"window.open", func(t *testing.T) target.ID {
			return openFrom(t, ctx, srv.URL, func(tab context.Context) error {
				return chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`void window.open(location.href)`,
					func(p *runtime.EvaluateParams) { p.UserGesture = new(true) }))
			})
		}},
		{"link with target=_blank", func(t *testing.T) target.ID {
			return openFrom(t, ctx, srv.URL, func(tab context.Context) error {
				return chromedp.Do(tab, chromedp.MouseClickXY(50, 50))
			})
		}},
	}
	for _, tc := range tabs {
		t.Run(tc.name, func(t *testing.T) {
			id := tc.open(t)
			// The page may still be loading. chromedp's attach to an
			// existing target races with the DOM events of a loading page,
			// so attach over a plain session, as the tool server does.
			sctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			conn, err := cdpconn.Dial(sctx, b.URL(), func(target.SessionID, *cdproto.Message) {})
			if err != nil {
				t.Fatal(err)
			}
			conn.Listen()
			defer conn.Close() // detaches; the tab stays
			att, err := cdpconn.Send(sctx, conn, "", target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: new(true)})
			if err != nil {
				t.Fatalf("attaching to the page: %v", err)
			}
			// A tab behind others renders no frames, so a screenshot of it
			// would wait for ever; measure each page in front, as an agent
			// would see it.
			if _, err := cdpconn.Send(sctx, conn, att.SessionID, page.BringToFront, cdp.Empty{}); err != nil {
				t.Fatalf("bringing the page to the front: %v", err)
			}
			res, err := cdpconn.Send(sctx, conn, att.SessionID, runtime.Evaluate, runtime.EvaluateParams{
				Expression:    `[window.innerWidth, window.innerHeight, screen.width, screen.height]`,
				ReturnByValue: new(true),
			})
			if err != nil || res.ExceptionDetails != nil {
				t.Fatalf("reading the viewport: %v %v", err, res.ExceptionDetails)
			}
			var size [4]int
			if err := json.Unmarshal(res.Result.Value, &size); err != nil {
				t.Fatalf("reading the viewport: %s: %v", res.Result.Value, err)
			}
			if want := [2]int{ViewportWidth, ViewportHeight}; [2]int(size[:2]) != want {
				t.Errorf("viewport = %dx%d, want %dx%d", size[0], size[1], want[0], want[1])
			}
			// Pages that size themselves by the screen lay out as on a
			// screen at least as large as the window.
			if size[2] < ViewportWidth || size[3] < ViewportHeight {
				t.Errorf("screen = %dx%d, smaller than the viewport %dx%d", size[2], size[3], ViewportWidth, ViewportHeight)
			}
			// The judge's screenshot is of the viewport, so it must match.
			shot, err := cdpconn.Send(sctx, conn, att.SessionID, page.CaptureScreenshot, page.CaptureScreenshotParams{})
			if err != nil {
				t.Fatalf("taking a screenshot: %v", err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(shot.Data))
			if err != nil {
				t.Fatalf("decoding the screenshot: %v", err)
			}
			if cfg.Width != ViewportWidth || cfg.Height != ViewportHeight {
				t.Errorf("screenshot = %dx%d, want %dx%d", cfg.Width, cfg.Height, ViewportWidth, ViewportHeight)
			}
		})
	}
}

// remoteContext connects chromedp to the browser at url for the test.
func remoteContext(t *testing.T, url string) context.Context {
	t.Helper()
	alloc, cancelAlloc := remote.NewAllocator(context.Background(), url)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// Connect now, so a failure is reported here and not in a subtest.
	if _, err := chromedp.Targets(ctx); err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	return ctx
}

// firstPage returns the page target the browser started with.
func firstPage(t *testing.T, ctx context.Context) target.ID {
	t.Helper()
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		t.Fatalf("listing targets: %v", err)
	}
	for _, info := range infos {
		if info.Type == "page" && info.URL == "about:blank" {
			return info.TargetID
		}
	}
	t.Fatalf("no about:blank page among %d targets", len(infos))
	return ""
}

// openFrom loads url in a new tab, runs open there, and returns the page
// that open caused to appear.
func openFrom(t *testing.T, ctx context.Context, url string, open func(tab context.Context) error) target.ID {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	opener := chromedp.FromContext(tab).Target.TargetID
	created := chromedp.WaitNewTarget(tab, func(info *target.Info) bool {
		return info.Type == "page" && info.OpenerID == opener
	})
	if err := open(tab); err != nil {
		t.Fatalf("opening a page: %v", err)
	}
	select {
	case id := <-created:
		return id
	case <-time.After(10 * time.Second):
		t.Fatal("no page opened within 10s")
		return ""
	}
}

func TestAttach(t *testing.T) {
	t.Parallel()
	host := strings.TrimPrefix(shared.URL(), "http://")
	for _, tc := range []struct {
		name, url string
	}{
		{"http endpoint", shared.URL()},
		{"trailing slash", shared.URL() + "/"},
		{"websocket address", shared.wsURL},
		{"ws host only", "ws://" + host},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := Attach(t.Context(), tc.url)
			if err != nil {
				t.Fatalf("Attach(%q): %v", tc.url, err)
			}
			if b.URL() != shared.URL() || b.wsURL != shared.wsURL {
				t.Errorf("Attach(%q) = %s %s, want %s %s", tc.url, b.URL(), b.wsURL, shared.URL(), shared.wsURL)
			}
			if err := b.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			assertClosed(t, b)
			if err := b.Err(); err != nil {
				t.Errorf("Err() after Close = %v, want nil", err)
			}
			// Closing an attached browser must leave the browser running.
			if _, err := cdpconn.FetchVersion(t.Context(), shared.URL()); err != nil {
				t.Errorf("the browser stopped answering after an attached handle closed: %v", err)
			}
		})
	}
}

func TestAttachErrors(t *testing.T) {
	t.Parallel()
	notDevTools := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notDevTools.Close)
	for _, tc := range []struct {
		name, url, want string
	}{
		{"not a url", "://", "browser url"},
		{"unsupported scheme", "ftp://127.0.0.1:1", "want http://host:port"},
		{"nothing listening", "http://127.0.0.1:1", "connect"},
		{"not a devtools endpoint", notDevTools.URL, "404"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := Attach(t.Context(), tc.url)
			if err == nil {
				b.Close()
				t.Fatalf("Attach(%q) succeeded, want an error containing %q", tc.url, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Attach(%q) error = %q, want it to contain %q", tc.url, err, tc.want)
			}
		})
	}
}

func TestAttachedBrowserThatGoesAway(t *testing.T) {
	t.Parallel()
	launched, err := Launch(t.Context(), withTempDir(t, testOptions()))
	if err != nil {
		t.Fatal(err)
	}
	attached, err := Attach(t.Context(), launched.URL())
	if err != nil {
		launched.Close()
		t.Fatal(err)
	}
	defer attached.Close()
	if err := launched.Close(); err != nil {
		t.Fatalf("closing the launched browser: %v", err)
	}
	select {
	case <-attached.Done():
	case <-time.After((watchFailures + 3) * watchInterval):
		t.Fatal("Done of the attached browser stayed open after the browser went away")
	}
	if err := attached.Err(); err == nil || !strings.Contains(err.Error(), "stopped answering") {
		t.Errorf("Err() = %v, want it to say the browser stopped answering", err)
	}
}

func TestCrashIsReported(t *testing.T) {
	t.Parallel()
	opts := withTempDir(t, testOptions())
	b, err := Launch(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(b.proc.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatalf("killing chromium: %v", err)
	}
	select {
	case <-b.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done stayed open 10s after chromium was killed")
	}
	var crash *crashError
	if err := b.Err(); !errors.As(err, &crash) {
		t.Fatalf("Err() = %v, want a *CrashError", err)
	}
	var exit *exec.ExitError
	if !errors.As(crash, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("CrashError.Err = %v, want the exit of a SIGKILL", crash.Err)
	}
	if msg := crash.Error(); !strings.Contains(msg, "signal: killed") || !strings.Contains(msg, "DevTools listening") {
		t.Errorf("CrashError message lacks the signal or the output tail:\n%s", msg)
	}
	// Close after a crash still cleans up, and the crash stays reported.
	if err := b.Close(); err != nil {
		t.Fatalf("Close after a crash: %v", err)
	}
	assertNoTrace(t, opts.TempDir, b.proc.dir)
	if !errors.As(b.Err(), &crash) {
		t.Errorf("Err() after Close = %v, want the crash still", b.Err())
	}
}

func TestCloseCleansUp(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	opts := withTempDir(t, testOptions())
	opts.Stderr = &out
	b, err := Launch(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := b.proc.dir
	if filepath.Dir(dir) != opts.TempDir {
		t.Fatalf("launch directory %s is not inside TempDir %s", dir, opts.TempDir)
	}
	// Chromium's own temporary files must land in the launch directory.
	ctx := remoteContext(t, b.URL())
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("using the browser: %v", err)
	}
	if stray, _ := filepath.Glob(filepath.Join(dir, "tmp", "*chromium*")); len(stray) == 0 {
		t.Errorf("no Chromium temporary files in %s/tmp: TMPDIR was not honoured", dir)
	}

	// Every call of a concurrent Close returns, and returns the same.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = b.Close() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Close call %d: %v", i, err)
		}
	}
	assertClosed(t, b)
	if err := b.Err(); err != nil {
		t.Errorf("Err() after a clean Close = %v, want nil", err)
	}
	assertNoTrace(t, opts.TempDir, dir)
	if !strings.Contains(out.String(), "DevTools listening on") {
		t.Errorf("Options.Stderr did not receive Chromium's output; got %q", out.String())
	}
}

func TestLaunchFailures(t *testing.T) {
	t.Parallel()
	scripts := t.TempDir()
	exits := filepath.Join(scripts, "exits")
	if err := os.WriteFile(exits, []byte("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		execPath string
		want     []string
	}{
		{"binary missing", filepath.Join(scripts, "none"), []string{"chromium at " + filepath.Join(scripts, "none"), "no such file"}},
		{"exits at start", exits, []string{"exited before its DevTools endpoint was ready", "exit status 3", "cannot open display"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := withTempDir(t, testOptions())
			opts.ExecPath = tc.execPath
			b, err := Launch(t.Context(), opts)
			if err == nil {
				b.Close()
				t.Fatal("Launch succeeded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Launch error = %q, want it to contain %q", err, w)
				}
			}
			assertNoTrace(t, opts.TempDir, "")
		})
	}
}

func TestFindExecPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	present := filepath.Join(dir, "chromium")
	shell := filepath.Join(dir, "chromium-headless-shell")
	for _, p := range []string{present, shell} {
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	absent := filepath.Join(dir, "absent")
	for _, tc := range []struct {
		name       string
		path       string
		candidates []string
		want       string
		wantErr    []string
	}{
		{"explicit path", present, nil, present, nil},
		{"a headless shell", shell, nil, shell, nil},
		{"first candidate that exists", "", []string{absent, present}, present, nil},
		{"explicit path missing", absent, []string{present}, "", []string{absent}},
		{"no candidate exists", "", []string{absent, absent + "2"}, "", []string{absent + " or " + absent + "2", "apt-get install chromium"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := findExecPath(tc.path, false, tc.candidates)
			if got != tc.want {
				t.Errorf("findExecPath = %q, want %q", got, tc.want)
			}
			if (err != nil) != (tc.wantErr != nil) {
				t.Fatalf("findExecPath error = %v, want error %v", err, tc.wantErr != nil)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("error %v does not wrap os.ErrNotExist", err)
			}
		})
	}
	if _, err := findExecPath(shell, true, nil); err == nil || !strings.Contains(err.Error(), "cannot show a window") {
		t.Errorf("a headful launch of %s: error %v, want one saying it cannot show a window", shell, err)
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		opts    Options
		shell   bool
		has     []string
		hasNot  []string
		lastArg string
	}{
		{
			name:    "defaults",
			has:     []string{"--headless=new", "--user-data-dir=/p", "--remote-debugging-port=0", "--window-size=1280,887", "--screen-info={1280x887}", "--test-type", "--disable-features=AutofillServerCommunication,"},
			hasNot:  []string{"--no-sandbox"},
			lastArg: "about:blank",
		},
		{
			name:    "headless shell",
			shell:   true,
			has:     []string{"--user-data-dir=/p", "--window-size=1280,800", "--test-type", "--disable-features=AutofillServerCommunication,"},
			hasNot:  []string{"--headless=new", "--screen-info", "--no-sandbox"},
			lastArg: "about:blank",
		},
		{
			name:   "no sandbox and headful",
			opts:   Options{NoSandbox: true, Headful: true},
			has:    []string{"--no-sandbox", "--window-size=1280,887"},
			hasNot: []string{"--headless=new"},
		},
		{
			name: "caller flags are appended and features merged",
			opts: Options{Flags: []string{"--host-resolver-rules=MAP * ~NOTFOUND", "--disable-features=HttpsUpgrades,Foo"}},
			has:  []string{"--host-resolver-rules=MAP * ~NOTFOUND", ",WebUIOmniboxPopup,HttpsUpgrades,Foo"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := commandLine(tc.opts, tc.shell, "/p")
			joined := strings.Join(args, "\n")
			for _, h := range tc.has {
				if !strings.Contains(joined, h) {
					t.Errorf("command line lacks %q:\n%s", h, joined)
				}
			}
			for _, h := range tc.hasNot {
				if strings.Contains(joined, h) {
					t.Errorf("command line has %q:\n%s", h, joined)
				}
			}
			if n := strings.Count(joined, "--disable-features="); n != 1 {
				t.Errorf("command line has %d --disable-features switches, want 1 (Chromium keeps only the last)", n)
			}
			if tc.lastArg != "" && args[len(args)-1] != tc.lastArg {
				t.Errorf("last argument = %q, want %q", args[len(args)-1], tc.lastArg)
			}
		})
	}
}

func TestTailBuffer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		max    int
		writes []string
		want   string
	}{
		{"under the limit", 16, []string{"a\n", "b\n"}, "a\nb\n"},
		{"exactly the limit keeps the first line", 4, []string{"a\nb\n"}, "a\nb\n"},
		{"cut starts at a line", 8, []string{"first line\n", "two\nthree\n"}, "three\n"},
		{"cut with no newline keeps the bytes", 4, []string{"abcdefgh"}, "efgh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := newTailBuffer(tc.max)
			for _, w := range tc.writes {
				tb.Write([]byte(w))
			}
			if got := tb.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

// withTempDir gives opts a fresh parent directory that the test can inspect.
// It is not t.TempDir: that path is too long for the Unix socket Chromium
// creates under it.
func withTempDir(t *testing.T, opts Options) Options {
	t.Helper()
	dir, err := os.MkdirTemp("", "cbt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	opts.TempDir = dir
	return opts
}

func assertClosed(t *testing.T, b *Browser) {
	t.Helper()
	select {
	case <-b.Done():
	default:
		t.Error("Done is still open after Close")
	}
}

// assertNoTrace checks that a closed launch left nothing behind: the parent
// directory is empty again, and no process names the launch directory.
func assertNoTrace(t *testing.T, parent, dir string) {
	t.Helper()
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s left behind in %s", e.Name(), parent)
	}
	if dir != "" {
		if pids := pidsNaming(dir); len(pids) > 0 {
			t.Errorf("processes %v still run from %s", pids, dir)
		}
	}
}

// syncBuffer is a bytes.Buffer that Chromium's output goroutine and the test
// can share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func TestStaleLaunchDirectoriesAreSwept(t *testing.T) {
	t.Parallel()
	opts := withTempDir(t, testOptions())
	mkdir := func(name string, withLock bool) string {
		dir := filepath.Join(opts.TempDir, name)
		if err := os.MkdirAll(filepath.Join(dir, "profile"), 0o700); err != nil {
			t.Fatal(err)
		}
		if withLock {
			if err := os.WriteFile(filepath.Join(dir, lockName), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	dead := mkdir(launchDirPrefix+"1", true)      // its owner was killed
	unlocked := mkdir(launchDirPrefix+"2", false) // being created
	other := mkdir("somebody-else", true)         // not a launch directory
	live := mkdir(launchDirPrefix+"3", false)     // its owner runs
	lock, err := lockLaunchDir(live)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()

	b, err := Launch(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, tc := range []struct {
		dir  string
		want bool
	}{{dead, false}, {unlocked, true}, {other, true}, {live, true}, {b.proc.dir, true}} {
		if _, err := os.Stat(tc.dir); (err == nil) != tc.want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(tc.dir), err == nil, tc.want)
		}
	}
}

// TestNoBrowserUIPages checks that no window of a launched browser loads
// pages of its own user interface (the address bar's popup, which headless
// never shows), neither the first window nor one a task's browser context
// opens: each costs a renderer and hundreds of requests (disabledFeatures).
func TestNoBrowserUIPages(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	conn, err := cdpconn.Dial(ctx, shared.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	conn.Listen()
	defer conn.Close()
	bc, err := cdpconn.Send(ctx, conn, "", target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		t.Fatal(err)
	}
	defer cdpconn.Send(ctx, conn, "", target.DisposeBrowserContext, target.DisposeBrowserContextParams(bc))
	if _, err := cdpconn.Send(ctx, conn, "", target.CreateTarget, target.CreateTargetParams{URL: "about:blank", BrowserContextID: bc.BrowserContextID}); err != nil {
		t.Fatal(err)
	}
	// The popup's pages open within a moment of their window; look for a
	// second, every tenth of one.
	for range 10 {
		res, err := cdpconn.Send(ctx, conn, "", target.GetTargets, target.GetTargetsParams{Filter: target.Filter{{}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range res.TargetInfos {
			if info.Type == "browser_ui" || strings.HasPrefix(info.URL, "chrome://omnibox") {
				t.Fatalf("the browser loaded a page of its user interface: %s %s", info.Type, info.URL)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}
