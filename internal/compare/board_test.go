package compare

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"contractbench/internal/browser"
	"contractbench/internal/contract"
	"contractbench/internal/report"
)

// boardTestRun is a run of the suite "demo" with one task per element of
// attempts, named t01, t02, …, whose attempts passed where the string
// holds 'P' and failed where it holds 'F' ("PPF": three attempts, two
// passed). version is the version of every task's spec, so runs of
// different versions have different digests.
func boardTestRun(agent, model, version string, usd float64, attempts ...string) *report.Run {
	r := &report.Run{
		SchemaVersion: report.SchemaVersion,
		GitSHA:        fmt.Sprintf("%x", sha256.Sum256([]byte(agent+model+version))),
		Started:       time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC),
		DurationMS:    60000,
		Settings: report.Settings{
			Suite: "demo", Agent: agent, Model: model, Server: "builtin", Web: "replay",
			Repeat: len(attempts[0]), Parallel: 1, AllTasks: true,
		},
	}
	for ti, outcomes := range attempts {
		task := fmt.Sprintf("t%02d", ti+1)
		r.Settings.Tasks = append(r.Settings.Tasks, task)
		for ai, o := range outcomes {
			res := report.TaskResult{
				Task: task, Attempt: ai + 1, Outcome: report.OutcomePassed,
				DurationMS: int64(1000 + 100*ti), ToolCalls: 3,
				Tokens: report.Tokens{Input: 1000, Output: 100, CacheRead: 400},
				USD:    usd,
				Evidence: []contract.Evidence{{Path: "postconditions[0]", Kind: contract.KindURL, Passed: o == 'P',
					Expected: "URL matches ^https://demo\\.test/$", Seen: "https://demo.test/"}},
				Provenance: &report.TaskProvenance{
					Spec:     fmt.Sprintf("sha256:%x", sha256.Sum256([]byte("spec "+version+task))),
					Contract: fmt.Sprintf("sha256:%x", sha256.Sum256([]byte("contract "+version+task))),
				},
			}
			if o != 'P' {
				res.Outcome = report.OutcomeFailed
				res.Failed = &report.Clause{Path: "postconditions[0]", Kind: contract.KindURL}
			}
			r.Results = append(r.Results, res)
		}
	}
	return r
}

// unrestricted labels r as the run of an agent with raw browser access: a
// contract that held is tainted, never passed.
func unrestricted(r *report.Run) *report.Run {
	r.Settings.Trust = report.TrustUnrestricted
	for i := range r.Results {
		res := &r.Results[i]
		res.Trust = report.TrustUnrestricted
		res.Decide()
	}
	return r
}

// boardFixture is two groups of the suite "demo": four runs of version 1
// of its ten tasks (one of them unrestricted) and two repeated runs of
// version 2 of three tasks.
func boardFixture() []BoardRun {
	p := strings.Repeat
	return []BoardRun{
		{Run: boardTestRun("openai", "gpt-5", "v1", 0.012, strings.Split(p("P", 3)+p("F", 7), "")...), Link: "runs/openai.html"},
		{Run: boardTestRun("anthropic", "claude-sonnet-4-5", "v1", 0.02, strings.Split(p("P", 9)+"F", "")...), Link: "runs/anthropic.html"},
		{Run: unrestricted(boardTestRun("exec", "", "v1", 0, strings.Split(p("P", 8)+"FF", "")...)), Link: "runs/forge.json"},
		{Run: boardTestRun("reference", "", "v1", 0, strings.Split("FFFFFFFPPP", "")...), Link: "runs/reference.html"},
		{Run: boardTestRun("anthropic", "claude-sonnet-4-5", "v2", 0.03, "PPP", "PPF", "FFF"), Link: "v2/anthropic x3.json"},
		{Run: boardTestRun("openai", "gpt-5", "v2", 0.01, "PPP", "PFF", "FFF"), Link: "v2/openai-x3.html"},
	}
}

func renderBoard(t *testing.T, runs []BoardRun) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteBoard(&b, runs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestBoardGolden pins the page of two groups byte for byte. Nothing on it
// depends on the clock: it shows durations as the reports recorded them
// and no time of its own.
func TestBoardGolden(t *testing.T) {
	t.Parallel()
	checkGolden(t, "board.golden.html", []byte(renderBoard(t, boardFixture())))
}

func TestBoardRanking(t *testing.T) {
	t.Parallel()
	page, err := newBoardPage(boardFixture())
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Groups) != 2 {
		t.Fatalf("%d groups, want 2", len(page.Groups))
	}
	var got []string
	for _, row := range page.Groups[0].Ranked {
		got = append(got, row.Agent)
	}
	// openai and reference both pass 3 of 10 with the same interval: the
	// name decides.
	if want := "anthropic openai reference"; strings.Join(got, " ") != want {
		t.Errorf("ranking %q, want %q", got, want)
	}
	first, second := page.Groups[0].Ranked[0], page.Groups[0].Ranked[1]
	if first.Score != "90.0%" || first.Interval != "59.6%–98.2%" || first.CostPerSolved != "$0.0222" || first.TokensPerTask != "1500" {
		t.Errorf("first row %+v", first)
	}
	// anthropic passed t04..t09 where openai failed them, and nothing
	// the other way: exact McNemar p = 2/2^6.
	if n := first.Next; n == nil || !n.Significant || n.P != "0.031" || n.OnlyThis != 6 || n.OnlyNext != 0 || n.Shared != 10 {
		t.Errorf("anthropic against openai: %+v, want differs, p 0.031, 6 to 0 of 10", n)
	}
	// openai passed t01..t03, reference t08..t10: 3 against 3.
	if n := second.Next; n == nil || n.Significant || n.P != "1.000" || n.OnlyThis != 3 || n.OnlyNext != 3 {
		t.Errorf("openai against reference: %+v, want p 1 on 3 against 3", n)
	}
	if last := page.Groups[0].Ranked[2]; last.Next != nil || last.CostPerSolved != "" {
		t.Errorf("last row: next %+v, cost %q; want neither", last.Next, last.CostPerSolved)
	}

	// The repeated runs: the lower bound breaks no tie here, the score
	// does; pass^3 is 1/3 for both (one task always passes).
	v2 := page.Groups[1].Ranked
	if len(v2) != 2 || v2[0].Agent != "anthropic" || v2[0].PassK != "pass^3 33.3%" || v2[1].PassK != "pass^3 33.3%" {
		t.Errorf("version 2 ranking: %+v", v2)
	}
	if first.PassK != "" {
		t.Errorf("pass^k %q for a run of one attempt per task", first.PassK)
	}
}

// A tie in score goes to the higher lower bound: 3 / 4 is less sure than
// 75 / 100.
func TestBoardTieBrokenByLowerBound(t *testing.T) {
	t.Parallel()
	few := boardTestRun("a-few", "", "v1", 0, "PPP", "PPP", "PPP", "FFF")
	many := boardTestRun("z-many", "", "v1", 0, "PPP", "PPP", "PPP", "FFF")
	// The same tasks, three attempts each in one run and one in the other.
	few.Settings.Repeat = 1
	var once []report.TaskResult
	for _, res := range few.Results {
		if res.Attempt == 1 {
			once = append(once, res)
		}
	}
	few.Results = once
	page, err := newBoardPage([]BoardRun{{Run: few}, {Run: many}})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Groups) != 1 {
		t.Fatalf("%d groups, want one", len(page.Groups))
	}
	if r := page.Groups[0].Ranked; r[0].Agent != "z-many" || r[0].score != r[1].score {
		t.Errorf("ranking %s (%v), %s (%v): want z-many first on its lower bound", r[0].Agent, r[0].low, r[1].Agent, r[1].low)
	}
}

// Runs of one suite name whose tasks, contracts or selections differ are
// never ranked in one table, nor tested against each other.
func TestBoardDigestsNeverShareATable(t *testing.T) {
	t.Parallel()
	base := boardTestRun("a", "", "v1", 0, "P", "P", "F")
	changed := boardTestRun("b", "", "v1", 0, "P", "F", "F")
	changed.Results[1].Provenance = &report.TaskProvenance{Spec: "sha256:other", Contract: changed.Results[1].Provenance.Contract}
	fewer := boardTestRun("c", "", "v1", 0, "P", "P")
	errored := boardTestRun("d", "", "v1", 0, "P", "P", "F")
	errored.Results[2] = report.TaskResult{Task: "t03", Attempt: 1, Outcome: report.OutcomeError, Reason: "browser: crashed"}
	other := boardTestRun("e", "", "v1", 0, "P", "P", "F")
	other.Settings.Suite = "elsewhere"
	same := boardTestRun("f", "", "v1", 0, "F", "P", "F")

	runs := []BoardRun{{Run: base}, {Run: changed}, {Run: fewer}, {Run: errored}, {Run: other}, {Run: same}}
	page, err := newBoardPage(runs)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][]string{}
	for _, g := range page.Groups {
		for _, row := range g.Ranked {
			tables[g.Suite+" "+g.Digest] = append(tables[g.Suite+" "+g.Digest], row.Agent)
		}
	}
	if len(tables) != 5 {
		t.Fatalf("tables %v, want 5: only a and f share one", tables)
	}
	for key, agents := range tables {
		if len(agents) > 1 && strings.Join(agents, " ") != "a f" {
			t.Errorf("table %s ranks %v together", key, agents)
		}
	}
	for _, g := range page.Groups {
		if len(g.Ranked) == 1 && g.Ranked[0].Agent == "d" && (len(g.Unrecorded) != 1 || g.Unrecorded[0] != "t03") {
			t.Errorf("the run with a harness error lists unrecorded %v, want t03", g.Unrecorded)
		}
	}

	html := renderBoard(t, runs)
	if n := strings.Count(html, `<table class="ranking">`); n != 5 {
		t.Errorf("%d ranking tables in the page, want 5", n)
	}
	if !strings.Contains(html, "No result recorded the inputs of t03") {
		t.Errorf("the page does not say which task's inputs are unrecorded")
	}
}

// An unrestricted run is listed in its group's own section with how often
// the contract held, and never in a ranking, even alone.
func TestBoardUnrestrictedRunOnlyInItsSection(t *testing.T) {
	t.Parallel()
	html := renderBoard(t, boardFixture())
	want := "contract held 8 / 10 (unrestricted: the agent could write the evidence)"
	if n := strings.Count(html, want); n != 1 {
		t.Errorf("the page says %q %d times, want once", want, n)
	}
	for _, table := range regexp.MustCompile(`(?s)<table class="ranking">.*?</table>`).FindAllString(html, -1) {
		if strings.Contains(table, "runs/forge.json") || strings.Contains(table, "unrestricted") {
			t.Errorf("a ranking holds the unrestricted run:\n%s", table)
		}
	}
	section := regexp.MustCompile(`(?s)<h3>Unprotected runs</h3>.*?</table>`).FindString(html)
	if !strings.Contains(section, "runs/forge.json") || !strings.Contains(section, want) {
		t.Errorf("the unprotected section lacks the run:\n%s", section)
	}

	// A suite with no trusted run ranks nothing.
	alone := renderBoard(t, []BoardRun{{Run: unrestricted(boardTestRun("exec", "", "v1", 0, "P", "F")), Link: "forge.json"}})
	if strings.Contains(alone, `<table class="ranking">`) || !strings.Contains(alone, "nothing is ranked") ||
		!strings.Contains(alone, "contract held 1 / 2 (unrestricted: the agent could write the evidence)") {
		t.Errorf("a board of one unrestricted run:\n%s", alone)
	}
}

func TestBoardLinksAreRelativeURLs(t *testing.T) {
	t.Parallel()
	html := renderBoard(t, []BoardRun{
		{Run: boardTestRun("a", "", "v1", 0, "P"), Link: "v2/anthropic x3.json"},
		{Run: boardTestRun("b", "", "v1", 0, "F"), Link: "c:d.html"},
	})
	for _, want := range []string{`href="v2/anthropic%20x3.json"`, `href="./c:d.html"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// boardTab launches Chromium and opens a blank tab in it, both closed when
// the test ends.
func boardTab(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		t.Fatalf("the board test needs Chromium (apt-get install chromium, or make chromium): %v", err)
	}
	t.Cleanup(func() { b.Close() })
	alloc, cancelAlloc := remote.NewAllocator(ctx, b.URL())
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return tab
}

// TestBoardInBrowser opens the board in Chromium and checks what a reader
// sees through the DOM, that no script error or console message of error
// or warning level occurred, and that the page requested nothing but
// itself: its policy forbids loading anything, and every request the
// browser sent is recorded too.
func TestBoardInBrowser(t *testing.T) {
	file := filepath.Join(t.TempDir(), "board.html")
	if err := os.WriteFile(file, []byte(renderBoard(t, boardFixture())), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := boardTab(t)
	var mu sync.Mutex
	var problems, requests []string
	err := chromedp.Listen(tab, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, fmt.Sprintf("exception: %s (line %d)", e.ExceptionDetails.Text, e.ExceptionDetails.LineNumber))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, fmt.Sprintf("console.%s", e.Type))
			}
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("%s %s: %s %s", e.Entry.Source, e.Entry.Level, e.Entry.Text, e.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tab, log.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tab, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
		t.Fatalf("opening %s: %v", file, err)
	}
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

	var groups []struct {
		Digest      string   `json:"digest"`
		Ranked      []string `json:"ranked"`
		Differs     []string `json:"differs"`
		Unprotected []string `json:"unprotected"`
	}
	eval(`Array.from(document.querySelectorAll("section.group")).map(s => ({
		digest: s.dataset.digest,
		ranked: Array.from(s.querySelectorAll("table.ranking tbody tr")).map(r => r.cells[1].firstChild.textContent),
		differs: Array.from(s.querySelectorAll("table.ranking tbody tr")).map(r => r.dataset.differs || ""),
		unprotected: Array.from(s.querySelectorAll("table.unprotected-runs tbody tr")).map(r => r.querySelector(".held").textContent)}))`, &groups)
	if len(groups) != 2 || groups[0].Digest == groups[1].Digest {
		t.Fatalf("groups %+v, want two of different digests", groups)
	}
	if got := strings.Join(groups[0].Ranked, " "); got != "anthropic openai reference" {
		t.Errorf("first group ranks %q", got)
	}
	if got := strings.Join(groups[0].Differs, " "); got != "true false " {
		t.Errorf("data-differs of the first group: %q, want true, false and none for the last", got)
	}
	if len(groups[0].Unprotected) != 1 || !strings.HasPrefix(groups[0].Unprotected[0], "contract held 8 / 10") || len(groups[1].Unprotected) != 0 {
		t.Errorf("unprotected sections %q and %q", groups[0].Unprotected, groups[1].Unprotected)
	}

	// The page is laid out by its style sheet: the report's variables
	// resolve and the interval bar has a width.
	var layout struct {
		Font string  `json:"font"`
		Bar  float64 `json:"bar"`
	}
	eval(`({font: getComputedStyle(document.body).fontFamily,
		bar: document.querySelector(".ci span").getBoundingClientRect().width})`, &layout)
	if !strings.Contains(layout.Font, "system-ui") || layout.Bar <= 0 {
		t.Errorf("layout %+v: the style sheet did not apply", layout)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("the page reported: %s", p)
	}
	for _, u := range requests {
		if u != "file://"+file {
			t.Errorf("the page requested %s", u)
		}
	}
	if len(requests) == 0 {
		t.Errorf("no request seen, not even the page's own: the network listener did not work")
	}
}

// The board pairs the tasks diff pairs: an attempt the harness broke is
// left out of the McNemar test rather than counted as a failure.
func TestBoardLeavesHarnessErrorsOutOfThePair(t *testing.T) {
	t.Parallel()
	a := boardTestRun("a", "", "v1", 0, "P", "P", "P")
	b := boardTestRun("b", "", "v1", 0, "P", "P", "P")
	b.Results[2] = report.TaskResult{Task: "t03", Attempt: 1, Outcome: report.OutcomeError, Reason: "browser: crashed"}
	p := comparePair(&boardRow{tasks: NewRun("", "", a)}, &boardRow{tasks: NewRun("", "", b)})
	if p.Shared != 2 || p.OnlyThis != 0 || p.OnlyNext != 0 {
		t.Errorf("pair %+v: want 2 tasks shared and none differing (t03's error left out)", *p)
	}
}
