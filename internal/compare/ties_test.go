package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"contractbench/internal/phash"
	"contractbench/internal/report"
)

// tiesFixture is three runs of twenty tasks: a leader, a run one task
// behind it and a run far behind. The leader comes in a bundle.
func tiesFixture() []BoardRun {
	p := strings.Repeat
	return []BoardRun{
		{Run: boardTestRun("anthropic", "claude", "v1", 0, strings.Split(p("P", 18)+"FF", "")...), Link: "a.tar.gz", Bundle: "sha256:" + p("ab", 32)},
		{Run: boardTestRun("openai", "gpt", "v1", 0, strings.Split(p("P", 17)+"FFF", "")...), Link: "b.html"},
		{Run: boardTestRun("reference", "", "v1", 0, strings.Split(p("P", 3)+p("F", 17), "")...), Link: "c.html"},
	}
}

func TestBoardTiesAndStability(t *testing.T) {
	page, err := newBoardPage(tiesFixture())
	if err != nil {
		t.Fatal(err)
	}
	g := page.Groups[0]
	if len(g.Ranked) != 3 {
		t.Fatalf("%d ranked", len(g.Ranked))
	}
	top, near, far := g.Ranked[0], g.Ranked[1], g.Ranked[2]
	if top.Agent != "anthropic" || !top.Tied {
		t.Errorf("top row %s, tied %v", top.Agent, top.Tied)
	}
	// The near run passed no task the top one failed, and failed one it
	// passed: McNemar 1 vs 0, p = 1, Holm keeps it at 1.
	if !near.Tied || near.VsTop == nil || near.VsTop.P != "1.000" || near.VsTop.OnlyThis != 1 || near.VsTop.OnlyNext != 0 {
		t.Errorf("near row: tied %v, against #1 %+v", near.Tied, near.VsTop)
	}
	// The far run: 15 vs 0 discordant tasks, exact p = 2^-14, doubled by
	// Holm (the smaller of two p-values) and still far below 0.05.
	if far.Tied || far.VsTop == nil || !far.VsTop.Significant || far.VsTop.P != "< 0.001" {
		t.Errorf("far row: tied %v, against #1 %+v", far.Tied, far.VsTop)
	}
	// Rank stability: the far run is last on every half of the tasks,
	// and the leader never behind; the second, one task apart from it,
	// is level with it on the halves without that task (about half of
	// them), where it shares rank 1.
	if far.Stability != "100%" || top.Stability != "100%" || g.Splits != stabilitySplits || g.Half != 10 {
		t.Errorf("the rows keep their ranks on %s, %s, %s of %d halves of %d", top.Stability, near.Stability, far.Stability, g.Splits, g.Half)
	}
	if s := strings.TrimSuffix(near.Stability, "%"); s < "40" || s > "60" || len(s) != 2 {
		t.Errorf("the second row keeps its rank on %s of the halves, want about half", near.Stability)
	}
	// One attempt per task is fewer than three.
	if g.FewAttempts != report.FewAttemptsWarning(1) {
		t.Errorf("group warning %q", g.FewAttempts)
	}
}

func TestBoardShowsBundlesAndDenominators(t *testing.T) {
	runs := tiesFixture()
	// The near run was asked for two attempts a task and stopped after
	// the first.
	near := runs[1].Run
	near.Settings.Repeat = 2
	near.Incomplete = true
	// The far run's first two tasks cannot be done: it failed both.
	far := runs[2].Run
	for i := range far.Results {
		if r := &far.Results[i]; r.Task == "t19" || r.Task == "t20" {
			r.Tags = append(r.Tags, "kind:impossible")
		}
	}
	page := renderBoard(t, runs)
	for _, want := range []string{
		`<span class="badge bundle" title="verified bundle, manifest sha256:abab`,
		`<a href="b.html">report</a> <span class="badge note" title="given as a report alone`,
		`passed 17, failed 3, harness error 0, interrupted 0, not run 20 (of 40 asked)`,
		`<span class="badge tied">tied with #1</span>`,
		`<span class="differs">below #1, p &lt; 0.001</span>`,
		`Warning: ranked on one attempt per task`,
		`class="num stability">`,
		`<div class="meta cannot-be-done">cannot be done: handled 0 / 2 (0.0%)`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the board lacks %s", want)
		}
	}
}

// boardShot is the board of tiesFixture as a reader sees it in Chromium,
// kept in the docs (docs/statistics.md, "Reading the board").
var boardShot = filepath.Join("..", "..", "docs", "board-ties.png")

// TestBoardTiesInBrowser opens the board of a bundled run, two runs given
// as reports alone and a tied pair in Chromium, checks that the marks are
// laid out where a reader sees them, and compares the top of the page with
// the picture the docs show (rewritten with -update).
func TestBoardTiesInBrowser(t *testing.T) {
	file := filepath.Join(t.TempDir(), "board.html")
	if err := os.WriteFile(file, []byte(renderBoard(t, tiesFixture())), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := boardTab(t)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1480, 760),
		chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
		t.Fatalf("opening %s: %v", file, err)
	}
	raw, err := chromedp.Run(tab, chromedp.Evaluate[json.RawMessage](`Array.from(document.querySelectorAll("table.ranking tbody tr")).map(r => ({
		vs: r.querySelector(".vs-top").innerText, stability: r.querySelector(".stability").innerText,
		bundle: (r.querySelector(".badge.bundle") || {innerText: ""}).innerText,
		shown: r.querySelector(".vs-top .badge, .vs-top .differs").getBoundingClientRect().width > 0}))`))
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Vs, Stability, Bundle string
		Shown                 bool
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0].Vs != "#1" || !strings.HasPrefix(rows[1].Vs, "tied with #1") || !strings.HasPrefix(rows[2].Vs, "below #1") ||
		!strings.HasPrefix(rows[0].Bundle, "verified ") || rows[1].Bundle != "" || rows[2].Stability != "100%" {
		t.Fatalf("rows as shown: %+v", rows)
	}
	for i, r := range rows {
		if !r.Shown {
			t.Errorf("row %d: its mark against #1 has no width", i+1)
		}
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(boardShot, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(boardShot)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	hw, err := phash.FromPNG(want)
	if err != nil {
		t.Fatalf("%s: %v", boardShot, err)
	}
	hg, err := phash.FromPNG(shot)
	if err != nil {
		t.Fatal(err)
	}
	if d := phash.Distance(hw, hg); d > 10 {
		got := filepath.Join(t.TempDir(), "got.png")
		os.WriteFile(got, shot, 0o644)
		t.Errorf("the board is %d bits from %s; the screenshot is %s (run with -update after an intended change)", d, boardShot, got)
	}
}
