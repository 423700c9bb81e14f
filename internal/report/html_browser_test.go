package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"contractbench/internal/browser"
	"contractbench/internal/phash"
)

// screenshotGoldenMaxDistance is how far, in bits of the 64-bit perceptual
// hash, the rendered page may be from its golden screenshot. Exact pixels
// vary with the fonts a machine has; the layout (header, table, the first
// task's panels) does not, and a change to it moves the hash further.
const screenshotGoldenMaxDistance = 10

// TestHTMLInBrowser opens the HTML view of the fixture run in Chromium and
// checks what a reader sees, through the DOM: every result, the failed
// clause's evidence, the step list, images that load, the filters, the
// network log filter, no console error (the page's own policy forbids
// loading anything, so a reference to any outside asset shows up as one),
// and a screenshot of the top of the page against a golden image.
func TestHTMLInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		t.Fatalf("the HTML report test needs Chromium (apt-get install chromium, or make chromium): %v", err)
	}
	defer b.Close()

	var page bytes.Buffer
	if err := WriteHTML(&page, testRun(t)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	alloc, cancelAlloc := remote.NewAllocator(ctx, b.URL())
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()

	// The tab exists once something ran in it; only then can it be
	// listened to.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	var mu sync.Mutex
	var problems []string
	err = chromedp.Listen(tab, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, fmt.Sprintf("exception: %s (line %d)", e.ExceptionDetails.Text, e.ExceptionDetails.LineNumber))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
			}
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("%s %s: %s %s", e.Entry.Source, e.Entry.Level, e.Entry.Text, e.Entry.URL))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tab, log.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS("#shown"))); err != nil {
		t.Fatalf("opening %s: %v", file, err)
	}

	// eval runs a script in the page (awaiting a promise it returns) and
	// decodes its value into out.
	eval := func(script string, out any) {
		t.Helper()
		raw, err := chromedp.Run(tab, chromedp.Evaluate[json.RawMessage](script, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("evaluating %s: %v", script, err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("evaluating %s: decoding %s: %v", script, raw, err)
		}
	}
	click := func(sel string) {
		t.Helper()
		if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
	}
	visibleTasks := func() []string {
		t.Helper()
		var ids []string
		eval(`Array.from(document.querySelectorAll("section.task")).filter(s => s.offsetParent !== null).map(s => s.querySelector("h2").textContent)`, &ids)
		return ids
	}
	text := func(sel string) string {
		t.Helper()
		var s string
		eval(`(document.querySelector(`+jsString(sel)+`) || {textContent: "<missing>"}).textContent`, &s)
		return s
	}

	t.Run("every result", func(t *testing.T) {
		var rows, sections int
		eval(`document.querySelectorAll("#results tbody tr").length`, &rows)
		eval(`document.querySelectorAll("section.task").length`, &sections)
		if rows != 10 || sections != 10 {
			t.Errorf("%d table rows and %d task sections, want 10 and 10", rows, sections)
		}
		if got := text("#score"); !strings.Contains(got, "7 / 10") || !strings.Contains(got, "39.7%–89.2%") {
			t.Errorf("#score = %q, want 7 / 10 with its interval 39.7%%–89.2%%", got)
		}
	})

	t.Run("failed clause and its evidence", func(t *testing.T) {
		if got := text("#result-3 .failed-clause"); got != "postconditions[1] (or)" {
			t.Errorf("failed clause of task-03 = %q, want postconditions[1] (or)", got)
		}
		var node struct {
			Class string `json:"class"`
			Text  string `json:"text"`
		}
		eval(`(n => ({class: n.className, text: n.textContent}))(document.querySelector('#result-3 [data-path="postconditions[1].children[0]"]'))`, &node)
		if node.Class != "node n-failed" || !strings.Contains(node.Text, `visible text of .infobox contains "330 m"`) || !strings.Contains(node.Text, "33O m") {
			t.Errorf("evidence node postconditions[1].children[0]: class %q, text %q; want n-failed with what was expected and seen", node.Class, node.Text)
		}
		if got := text(`#result-3 [data-path="postconditions[1]"] > .st`); got != "✗" {
			t.Errorf("the or clause is marked %q, want ✗", got)
		}
		if got := text("#result-8 .not-evaluated"); !strings.Contains(got, "not evaluated") {
			t.Errorf("the harness error's contract panel says %q, want not evaluated", got)
		}
	})

	t.Run("steps", func(t *testing.T) {
		var steps []struct {
			Tool  string `json:"tool"`
			Args  string `json:"args"`
			Thumb bool   `json:"thumb"`
			Note  string `json:"note"`
		}
		eval(`Array.from(document.querySelectorAll("#result-3 .steps > li")).map(li => ({
			tool: li.querySelector(".tool").textContent,
			args: (li.querySelector(".args") || {}).textContent || "",
			thumb: !!li.querySelector("img.thumb"),
			note: (li.querySelector(".nothumb") || {}).textContent || ""}))`, &steps)
		if len(steps) != 2 {
			t.Fatalf("task-03 shows %d steps, want 2: %+v", len(steps), steps)
		}
		if steps[0].Tool != "navigate" || !strings.Contains(steps[0].Args, "Eiffel_Tower") || !steps[0].Thumb {
			t.Errorf("step 1 = %+v, want navigate with its URL and a thumbnail", steps[0])
		}
		if steps[1].Tool != "read_page" || steps[1].Thumb || !strings.Contains(steps[1].Note, "a dialog is showing") {
			t.Errorf("step 2 = %+v, want read_page without a thumbnail, saying why", steps[1])
		}
	})

	t.Run("images load", func(t *testing.T) {
		var imgs []struct {
			Alt   string `json:"alt"`
			Width int    `json:"width"`
		}
		eval(`Promise.all(Array.from(document.images).map(i => i.decode().then(() => ({alt: i.alt, width: i.naturalWidth}), () => ({alt: i.alt, width: 0}))))`, &imgs)
		if len(imgs) != 4 { // three final screenshots and one thumbnail
			t.Errorf("%d images, want 4", len(imgs))
		}
		for _, img := range imgs {
			if img.Width == 0 {
				t.Errorf("image %q did not load", img.Alt)
			}
		}
	})

	t.Run("filters", func(t *testing.T) {
		click(`button[data-filter="outcome"][data-value="failed"]`)
		if got := visibleTasks(); len(got) != 1 || got[0] != "task-03-wikipedia-eiffel-height" {
			t.Errorf("outcome failed shows %q, want task-03 alone", got)
		}
		if got := text("#shown"); got != "1 of 10 shown" {
			t.Errorf("#shown = %q", got)
		}
		click(`button[data-filter="outcome"][data-value="error"]`)
		if got := visibleTasks(); len(got) != 2 {
			t.Errorf("outcomes failed and error show %q, want 2 tasks", got)
		}
		click("#show-all")
		click(`button[data-filter="tag"][data-value="smoke"]`)
		if got := visibleTasks(); len(got) != 4 {
			t.Errorf("tag smoke shows %q, want the 4 smoke tasks", got)
		}
		var rows int
		eval(`Array.from(document.querySelectorAll("#results tbody tr")).filter(r => r.offsetParent !== null).length`, &rows)
		if rows != 4 {
			t.Errorf("tag smoke leaves %d table rows, want 4", rows)
		}
		click("#show-all")
		if got := visibleTasks(); len(got) != 10 {
			t.Errorf("all shows %d tasks, want 10", len(got))
		}
	})

	t.Run("network log filter", func(t *testing.T) {
		click("#result-3 .netlog > summary")
		if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#result-3 .netlog input[type=search]"), "load.php")); err != nil {
			t.Fatal(err)
		}
		if got := text("#result-3 .netlog .netcount"); got != "1 of 2" {
			t.Errorf("filtering the network log by load.php counts %q, want 1 of 2", got)
		}
		var shown []string
		eval(`Array.from(document.querySelectorAll("#result-3 .net tbody tr")).filter(r => r.offsetParent !== null).map(r => r.textContent)`, &shown)
		if len(shown) != 1 || !strings.Contains(shown[0], "load.php") {
			t.Errorf("rows shown: %q, want the load.php request alone", shown)
		}
		click("#result-3 .netlog > summary")
	})

	t.Run("screenshot golden", func(t *testing.T) {
		if err := chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("h1"))); err != nil {
			t.Fatal(err)
		}
		shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "run.golden-top.png")
		if *update {
			if err := os.WriteFile(golden, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		hw, err := phash.FromPNG(want)
		if err != nil {
			t.Fatalf("%s: %v", golden, err)
		}
		hg, err := phash.FromPNG(shot)
		if err != nil {
			t.Fatalf("the screenshot: %v", err)
		}
		if d := phash.Distance(hw, hg); d > screenshotGoldenMaxDistance {
			got := filepath.Join(t.TempDir(), "got.png")
			os.WriteFile(got, shot, 0o644)
			t.Errorf("the top of the page is %d bits from %s (at most %d allowed); the screenshot is %s (run with -update after an intended change)",
				d, golden, screenshotGoldenMaxDistance, got)
		}
	})

	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("the page reported: %s", p)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
