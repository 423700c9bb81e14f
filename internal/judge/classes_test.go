package judge

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"contractbench/internal/browser"
	"contractbench/internal/contract"
	"contractbench/internal/phash"
	"contractbench/internal/webreplay"

	"github.com/chromedp/chromedp"
)

var updateClasses = flag.Bool("update-classes", false,
	"capture the WebVoyager screenshot classes anew in Chromium and write them to "+classesDir)

// classesDir is the suite's screenshot classes, which TestScreenshotClasses
// writes with -update-classes and checks otherwise.
const classesDir = suiteDir + "/screenshot-classes"

// The classes.
const (
	blankClass = "blank-page"
	errorClass = "chromium-error-page"
)

// Thresholds, in bits of the 64-bit pHash. The measurements behind them
// (Chromium 156, Debian 12) are in the classes' README.md.
const (
	// nearMax bounds the distance from a fresh screenshot of a blank page
	// or an error page to its class. Measured: 0 for every blank page
	// (a uniform image hashes to the DC bit alone), at most 2 for error
	// pages that are not examples.
	nearMax = 4
	// farMin is the least distance from a page with content to either
	// class. Measured: 31 to blank-page for every such page (the hash sets
	// 31 of its 63 AC bits whenever there is any structure), and at least
	// 24 to chromium-error-page over the suite's 20 start and answer pages.
	farMin = 16
	// errorPageDistanceMax is the distance_max recommended for a task's
	// not {screenshot_class: chromium-error-page}: 8 bits above the
	// farthest error page measured, 14 below the nearest real page.
	errorPageDistanceMax = 10
)

// loadClasses loads the committed screenshot classes.
func loadClasses(t *testing.T) phash.Classes {
	t.Helper()
	classes, err := phash.LoadClasses(os.DirFS(classesDir))
	if err != nil {
		t.Fatalf("loading %s: %v (regenerate with go test ./internal/judge -run TestScreenshotClasses -update-classes)", classesDir, err)
	}
	for _, id := range []string{blankClass, errorClass} {
		if len(classes[id]) == 0 {
			t.Fatalf("%s has no class %q; regenerate with -update-classes", classesDir, id)
		}
	}
	return classes
}

// distances returns the distance of obs's screenshot to each class.
func distances(t *testing.T, classes phash.Classes, obs contract.Observation) (blank, errPage int) {
	t.Helper()
	h, err := strconv.ParseUint(obs.Screenshot.PHash, 16, 64)
	if err != nil {
		t.Fatalf("screenshot of %s: %v", obs.URL, err)
	}
	blank, _ = classes.Distance(blankClass, h)
	errPage, _ = classes.Distance(errorClass, h)
	return blank, errPage
}

// checkNotBlankOrError fails if a page that should show content is within
// farMin of the blank page or the error page class.
func checkNotBlankOrError(t *testing.T, classes phash.Classes, obs contract.Observation) {
	t.Helper()
	blank, errPage := distances(t, classes, obs)
	t.Logf("%s: distance %d to %s, %d to %s", obs.URL, blank, blankClass, errPage, errorClass)
	if blank < farMin || errPage < farMin {
		t.Errorf("%s looks like a blank or error page: distance %d to %s and %d to %s, want both at least %d",
			obs.URL, blank, blankClass, errPage, errorClass, farMin)
	}
}

// A scene is one page whose screenshot TestScreenshotClasses takes.
type scene struct {
	name string
	// class is the class the page belongs to; "" for a page with content.
	class string
	// example makes the screenshot one of the class's committed examples;
	// the other scenes of a class check that the class reaches beyond its
	// own examples.
	example bool
	// replay loads the page in the replay browser; otherwise in the
	// package's shared browser, which has no resolver rules.
	replay bool
	url    string
	// loadError is the net error Chromium reports for the load, for an
	// error page.
	loadError string
}

// blankHost serves a blank page from the archive, to check that blank
// means blank however the page arrived.
const blankHost = "blank.example"

// TestScreenshotClasses takes real screenshots with the judge of blank
// pages, Chromium's network error pages and fixture pages, and checks that
// the committed classes sort them: each blank or error page is within
// nearMax of its class, each fixture page at least farMin from both,
// and screenshot_class clauses judge them accordingly.
//
// It does so in the full browser, which draws the
// error pages, and in the headless shell, which draws an empty document
// instead: there every screenshot_class clause on an error page is
// undecided, and fails, whatever it says; blank and fixture pages are
// sorted as in the full browser.
//
// With -update-classes it first writes the example scenes' screenshots
// in the full browser as the classes' PNGs, replacing the old ones.
func TestScreenshotClasses(t *testing.T) {
	t.Run("chromium", func(t *testing.T) { screenshotClasses(t, browser.Chromium, *updateClasses) })
	t.Run("headless shell", func(t *testing.T) { screenshotClasses(t, browser.HeadlessShell, false) })
}

// screenshotClasses is TestScreenshotClasses in the Chromium at execPath.
func screenshotClasses(t *testing.T, execPath string, update bool) {
	refused := closedPort(t)
	scenes := []scene{
		{name: "about-blank", class: blankClass, example: true, replay: true, url: "about:blank"},
		{name: "data-url-white", class: blankClass, example: true, replay: true,
			url: "data:text/html,<!doctype html><title>blank</title><body style=background:white>"},
		{name: "archive-blank", class: blankClass, replay: true, url: "https://" + blankHost + "/"},

		// Examples: a short host name, whose message fits one line; a long
		// one, whose message wraps; and a refused connection, whose page
		// has a different list of suggestions.
		{name: "name-not-resolved", class: errorClass, example: true, replay: true,
			url: "https://tracker.example.net/", loadError: "net::ERR_NAME_NOT_RESOLVED"},
		{name: "long-name-not-resolved", class: errorClass, example: true, replay: true,
			url: "https://a-rather-long-host-name-outside-the-archive.example.org/", loadError: "net::ERR_NAME_NOT_RESOLVED"},
		{name: "connection-refused", class: errorClass, example: true,
			url: fmt.Sprintf("http://127.0.0.1:%d/", refused), loadError: "net::ERR_CONNECTION_REFUSED"},
		{name: "ip-literal-not-resolved", class: errorClass, replay: true,
			url: "https://93.184.216.34/", loadError: "net::ERR_NAME_NOT_RESOLVED"},
		{name: "very-long-name-not-resolved", class: errorClass, replay: true,
			url: "https://an-even-longer-host-name-that-no-archive-would-ever-hold.subdomain.example.org/path?q=1", loadError: "net::ERR_NAME_NOT_RESOLVED"},
		{name: "localhost-refused", class: errorClass,
			url: fmt.Sprintf("http://localhost:%d/page", refused), loadError: "net::ERR_CONNECTION_REFUSED"},

		{name: "example-com", replay: true, url: "https://example.com/"},
		{name: "wikipedia-eiffel-tower", replay: true, url: "https://en.wikipedia.org/wiki/Eiffel_Tower"},
		{name: "mdn-fetch", replay: true, url: "https://developer.mozilla.org/en-US/docs/Web/API/Window/fetch"},
	}

	a, err := webreplay.Open(suiteDir + "/web")
	if err != nil {
		t.Fatalf("opening the fixture archive: %v", err)
	}
	if err := a.Add(blankHost, webreplay.Entry{Path: "/", Header: map[string]string{"content-type": "text/html; charset=utf-8"}}, []byte("<!doctype html><title>blank</title>")); err != nil {
		t.Fatal(err)
	}
	web := startReplayWebIn(t, a, execPath)
	replayTab := web.agentTab(t)
	replayJudge := judgeOf(t, web.browser.URL(), stillClock)
	// A browser of the same binary with no resolver rules, for the pages
	// off the archive.
	plain := &replayWeb{browser: launchTest(t, browser.Options{ExecPath: execPath})}
	plainTab := plain.agentTab(t)
	plainJudge := judgeOf(t, plain.browser.URL(), stillClock)

	shots := make([]contract.Observation, len(scenes))
	for i, sc := range scenes {
		tab, j := plainTab, plainJudge
		if sc.replay {
			tab, j = replayTab, replayJudge
		}
		shots[i] = photograph(t, tab, j, sc)
	}
	hashAll(t, shots)

	if update {
		writeClasses(t, scenes, shots)
	}
	classes := loadClasses(t)

	for i, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			obs := shots[i]
			blank, errPage := distances(t, classes, obs)
			t.Logf("%s (%s, %s): phash %s, distance %d to %s, %d to %s", sc.name, obs.URL, obs.Browser, obs.Screenshot.PHash, blank, blankClass, errPage, errorClass)
			switch {
			case sc.class == errorClass && drawsNoErrorPage(obs):
				checkUndecided(t, classes, obs)
				return
			case sc.class == "":
				if blank < farMin || errPage < farMin {
					t.Errorf("distance %d to %s and %d to %s, want both at least %d", blank, blankClass, errPage, errorClass, farMin)
				}
			default:
				own, other := blank, errPage
				if sc.class == errorClass {
					own, other = errPage, blank
				}
				if own > nearMax {
					t.Errorf("distance %d to its class %s, want at most %d", own, sc.class, nearMax)
				}
				if other < farMin {
					t.Errorf("distance %d to the other class, want at least %d", other, farMin)
				}
			}
			checkClassVerdicts(t, classes, sc, obs)
		})
	}
}

// classClauses are the screenshot clauses a task would write, and whether
// each holds on a page of the class sc.
func classClauses(class string) []struct {
	clause string
	holds  bool
} {
	return []struct {
		clause string
		holds  bool
	}{
		{fmt.Sprintf(`{kind: screenshot_class, class_id: %s, distance_max: %d}`, blankClass, nearMax), class == blankClass},
		{fmt.Sprintf(`{kind: screenshot_class, class_id: %s, distance_max: %d}`, errorClass, errorPageDistanceMax), class == errorClass},
		{fmt.Sprintf(`{kind: not, child: {kind: screenshot_class, class_id: %s, distance_max: %d}}`, errorClass, errorPageDistanceMax), class != errorClass},
		{fmt.Sprintf(`{kind: not, child: {kind: screenshot_class, class_id: %s, distance_max: %d}}`, blankClass, nearMax), class != blankClass},
	}
}

// checkClassVerdicts evaluates, on obs, the screenshot clauses a task would
// write, and checks each verdict against the scene's class.
func checkClassVerdicts(t *testing.T, classes phash.Classes, sc scene, obs contract.Observation) {
	t.Helper()
	for _, tc := range classClauses(sc.class) {
		if v := evaluateClause(t, tc.clause, obs, classes); v.Passed != tc.holds {
			t.Errorf("%s: passed = %v, want %v; evidence %+v", tc.clause, v.Passed, tc.holds, v.Evidence)
		}
	}
}

// checkUndecided checks that every screenshot clause is undecided, and
// fails, on obs: an error page that the browser did not draw.
func checkUndecided(t *testing.T, classes phash.Classes, obs contract.Observation) {
	t.Helper()
	for _, tc := range classClauses(errorClass) {
		if v := evaluateClause(t, tc.clause, obs, classes); v.Passed || !v.Undecided {
			t.Errorf("%s on an error page the shell did not draw: passed %v, undecided %v, want failed and undecided; evidence %+v", tc.clause, v.Passed, v.Undecided, v.Evidence)
		}
	}
}

func evaluateClause(t *testing.T, clause string, obs contract.Observation, classes phash.Classes) contract.Verdict {
	t.Helper()
	p, err := contract.Parse([]byte("postconditions: [" + clause + "]"))
	if err != nil {
		t.Fatalf("parsing %s: %v", clause, err)
	}
	return contract.Evaluate(p, obs, classes)
}

// drawsNoErrorPage reports whether obs is of a browser that draws no
// network error page: a headless shell.
func drawsNoErrorPage(obs contract.Observation) bool {
	return strings.HasPrefix(obs.Browser, "HeadlessChrome/")
}

// photograph loads the scene in tab and returns the judge's observation of
// it once the page has settled: the expected document is showing and two
// screenshots in a row are the same.
func photograph(t *testing.T, tab context.Context, j *Judge, sc scene) contract.Observation {
	t.Helper()
	err := chromedp.Do(tab, chromedp.Navigate(sc.url))
	var loadErr *chromedp.LoadError
	switch {
	case sc.loadError == "" && err != nil:
		t.Fatalf("%s: loading %s: %v", sc.name, sc.url, err)
	case sc.loadError != "" && !errors.As(err, &loadErr):
		t.Fatalf("%s: loading %s: error %v, want the load to fail with %s", sc.name, sc.url, err, sc.loadError)
	case sc.loadError != "" && loadErr.ErrorText != sc.loadError:
		t.Fatalf("%s: loading %s failed with %s, want %s", sc.name, sc.url, loadErr.ErrorText, sc.loadError)
	}
	// Chromium reports the error before its error page is drawn; the page
	// names the error code once it is. A headless shell draws an empty
	// error document.
	ready := func(obs contract.Observation) bool {
		switch {
		case sc.loadError == "":
			return obs.URL == sc.url
		case drawsNoErrorPage(obs):
			return strings.HasPrefix(obs.URL, "chrome-error:")
		}
		body := obs.Elements["body"]
		return len(body.Texts) > 0 && strings.Contains(body.Texts[0], strings.TrimPrefix(sc.loadError, "net::"))
	}
	// It settles when two observations in a row show the same pixels. The
	// bound is a number of observations, not a time: on a busy machine
	// each takes longer, and fewer would fit in any time.
	const looks = 200
	var last []byte
	for n := 1; ; n++ {
		obs := observe(t, j, "body")
		if n > looks {
			t.Fatalf("%s: %s did not settle in %d observations; last seen %s with body %q", sc.name, sc.url, looks, obs.URL, obs.Elements["body"].Texts)
		}
		// Comparing the PNGs rather than their hashes is cheaper and
		// stricter: Chromium encodes the same pixels the same way.
		if ready(obs) && len(obs.Screenshot.PNG) > 0 {
			if bytes.Equal(obs.Screenshot.PNG, last) {
				return obs
			}
			last = obs.Screenshot.PNG
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hashAll sets the perceptual hash of every screenshot, as the runner does
// after Observe. Hashing a full screenshot is slow under the race detector,
// so the screenshots are hashed side by side.
func hashAll(t *testing.T, shots []contract.Observation) {
	t.Helper()
	errs := make([]error, len(shots))
	var wg sync.WaitGroup
	for i := range shots {
		wg.Go(func() {
			h, err := phash.FromPNG(shots[i].Screenshot.PNG)
			shots[i].Screenshot.PHash, errs[i] = h.String(), err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("hashing the screenshot of %s: %v", shots[i].URL, err)
		}
	}
}

// writeClasses replaces each class's PNGs with the example scenes'
// screenshots.
func writeClasses(t *testing.T, scenes []scene, shots []contract.Observation) {
	t.Helper()
	for _, class := range []string{blankClass, errorClass} {
		dir := filepath.Join(classesDir, class)
		old, err := filepath.Glob(filepath.Join(dir, "*.png"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, sc := range scenes {
		if !sc.example {
			continue
		}
		file := filepath.Join(classesDir, sc.class, sc.name+".png")
		if err := os.WriteFile(file, shots[i].Screenshot.PNG, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (phash %s)", file, shots[i].Screenshot.PHash)
	}
}
