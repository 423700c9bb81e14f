package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"contractbench/internal/contract"
	"contractbench/internal/suite"
	"contractbench/internal/webreplay"
)

// The table of page sizes lives in docs/benchmarks/servers.md between
// these markers; TestPageSizes checks it against what it measures.
const (
	pagesDoc     = "../../docs/benchmarks/servers.md"
	pagesBegin   = "<!-- pages:begin -->\n"
	pagesEnd     = "<!-- pages:end -->\n"
	pagesCommand = "go test ./internal/servers -run TestPageSizes -update"
	// ratioTarget is the goal for the built-in server: read_page
	// at most a third of @playwright/mcp's browser_snapshot on the same
	// pages, measured at the median.
	ratioTarget = 0.33
)

// hubPages are read by agents on their way in several tasks; they are
// measured even if no task starts on them any more.
var hubPages = []string{
	"https://en.wikipedia.org/wiki/Main_Page",
	"https://developer.mozilla.org/en-US/",
}

// pageReads is the one call that reads a whole page, by server: its page
// tool with the arguments that return everything. 100000 is read_page's
// ceiling (a larger max_bytes is cut to it); a reply that still comes
// back truncated fails the test rather than being measured short.
var pageReads = map[string]string{
	"builtin":         `{"mode":"text","max_bytes":100000}`,
	"playwright":      `{}`,
	"chrome-devtools": `{}`,
}

// pageSize is one row of the table: a page and what reading it costs.
type pageSize struct {
	page string // the URL without its scheme, as the doc names pages
	html int    // bytes of the HTML the replay server sends
	// reply and nav are the sizes of the page tool's reply and of the
	// navigate reply before it, by server.
	reply, nav map[string]int
}

// TestPageSizes measures what one read of a page costs on each server, on
// the pages agents read in the suite: every task's start and answer pages
// and the hubs. On one Chromium behind the fixture web, each server (the
// built-in one started from a freshly built contractbench, the peers from
// node_modules) navigates to every page with its own navigate tool and
// reads it once with its page tool; the size is mcpclient's Result.Bytes,
// the number the runner reports. The table in docs/benchmarks/servers.md
// must equal the measurement; -update rewrites it.
//
// A peer that is not installed fails the test (see requireInstalled).
func TestPageSizes(t *testing.T) {
	set := loadServers(t)
	profiles := make([]*Profile, 0, len(set.Names()))
	for _, name := range set.Names() {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pageReads[name]; !ok {
			t.Fatalf("servers.yaml has a server %q that TestPageSizes does not know how to read a page on: add it to pageReads", name)
		}
		requireInstalled(t, p)
		profiles = append(profiles, p)
	}
	archive, err := webreplay.Open(filepath.Join(repoRoot, "benchmarks/webvoyager/web"))
	if err != nil {
		t.Fatal(err)
	}
	rows := suitePages(t, archive)
	self := buildSelf(t)
	b := sharedBrowser(t)

	for _, p := range profiles {
		t.Run(p.Name(), func(t *testing.T) {
			// A guard against a hung server, not a speed bound: a
			// navigate and a read per page, on a machine that may be busy.
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute+time.Duration(len(rows))*20*time.Second)
			defer cancel()
			startTask(t, ctx, b.URL(), "")
			sess := startServer(t, ctx, p, b.URL(), self)
			read := json.RawMessage(pageReads[p.Name()])
			tool := p.Tool(ActRead)
			if !p.PageTool(tool) {
				t.Fatalf("%s reads a page with %s, which servers.yaml does not list in page_tools", p.Name(), tool)
			}
			for i := range rows {
				u := "https://" + rows[i].page
				nav, err := p.Call(ActNavigate, map[string]any{"{url}": u})
				if err != nil {
					t.Fatal(err)
				}
				navRes, err := sess.Call(ctx, nav.Name, nav.Args)
				if err != nil || navRes.IsError {
					t.Fatalf("%s %s: %v %s", nav.Name, nav.Args, err, navRes.Text)
				}
				rows[i].nav[p.Name()] = navRes.Bytes
				res, err := sess.Call(ctx, tool, read)
				if err != nil || res.IsError {
					t.Fatalf("%s on %s: %v %s", tool, u, err, res.Text)
				}
				// Each reply names the page it read; a reply without the
				// URL would be a measure of some other page.
				if !strings.Contains(res.Text, u) {
					t.Fatalf("%s's reply on %s does not name the page; it begins:\n%s", tool, u, headOf(res.Text, 400))
				}
				// read_page ends a cut reply with how to read on.
				if strings.Contains(res.Text, "; call read_page with offset=") {
					t.Fatalf("%s cut its reply on %s short (%d bytes); it must read the whole page:\n%s", tool, u, res.Bytes, tailOf(res.Text, 300))
				}
				rows[i].reply[p.Name()] = res.Bytes
			}
		})
	}
	if t.Failed() {
		return
	}
	checkPagesSection(t, pagesSection(rows, set.Names()))
}

// suitePages lists the pages agents read: each task's start page and the
// page its contract expects it to end on, plus hubPages, once each, with
// fragments dropped (a fragment scrolls the page; every server reads the
// whole document regardless), sorted. Every page must be an HTML page of
// the fixture web.
func suitePages(t *testing.T, archive *webreplay.Archive) []pageSize {
	t.Helper()
	s, err := suite.Load(filepath.Join(repoRoot, "benchmarks/webvoyager"))
	if err != nil {
		t.Fatal(err)
	}
	// The page each task's contract expects the agent to end on, fragment
	// included: the same URLs internal/judge opens to check that every
	// contract passes on its answer.
	data, err := os.ReadFile(filepath.Join(s.Dir, "answer-urls.json"))
	if err != nil {
		t.Fatal(err)
	}
	// An entry is the answer URL, or a list of the pages on the way
	// ending with it; the answer is the page measured.
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatalf("answer-urls.json: %v", err)
	}
	answerPages := map[string]string{}
	for id, v := range entries {
		var path []string
		if json.Unmarshal(v, &path) == nil && len(path) > 0 {
			answerPages[id] = path[len(path)-1]
			continue
		}
		var one string
		if err := json.Unmarshal(v, &one); err != nil {
			t.Fatalf("answer-urls.json: %s: want a URL or a list of URLs, got %s", id, v)
		}
		answerPages[id] = one
	}
	urls := slices.Clone(hubPages)
	for _, id := range s.IDs() {
		task, _ := s.Task(id)
		answer, ok := answerPages[id]
		if !ok {
			t.Fatalf("task %s has no answer page in answer-urls.json; add the URL its contract expects", id)
		}
		if err := matchesURLClauses(task.Postconditions, answer); err != nil {
			t.Fatalf("task %s: answer-urls.json says %s: %v", id, answer, err)
		}
		if task.StartURL != "" {
			urls = append(urls, task.StartURL)
		}
		urls = append(urls, answer)
	}
	var rows []pageSize
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("page %q: %v", raw, err)
		}
		res, ok := archive.Lookup("GET", u.Hostname(), u.EscapedPath(), u.RawQuery)
		if !ok || res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("page %s is not an HTML page of the fixture web (found %t)", raw, ok)
		}
		u.Fragment, u.RawFragment = "", ""
		page := strings.TrimPrefix(u.String(), "https://")
		if !slices.ContainsFunc(rows, func(r pageSize) bool { return r.page == page }) {
			rows = append(rows, pageSize{page: page, html: len(res.Body), reply: map[string]int{}, nav: map[string]int{}})
		}
	}
	slices.SortFunc(rows, func(a, b pageSize) int { return strings.Compare(a.page, b.page) })
	return rows
}

// matchesURLClauses checks u against every top-level url clause of a
// contract, the clauses that say where the agent must end.
func matchesURLClauses(pc contract.Postconditions, u string) error {
	n := 0
	for _, c := range pc {
		clause, ok := c.(*contract.URL)
		if !ok {
			continue
		}
		n++
		re, err := regexp.Compile(clause.Pattern)
		if err != nil {
			return err
		}
		if !re.MatchString(u) {
			return fmt.Errorf("the contract's url pattern %q does not match it", clause.Pattern)
		}
	}
	if n == 0 {
		return fmt.Errorf("the contract has no top-level url clause to check it against")
	}
	return nil
}

// buildSelf builds contractbench for the built-in server, so that it runs
// as `contractbench mcp` exactly as the runner starts it.
func buildSelf(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "contractbench")
	// go test puts the toolchain that builds the tests first on PATH.
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/contractbench")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building contractbench for the built-in server: %v\n%s", err, out)
	}
	return bin
}

// pagesSection renders what goes between the markers: the table, one row
// per page and a total, the median ratio with its range, and the command
// that measured it. servers gives the column order; the first is the
// built-in server, compared with "playwright".
func pagesSection(rows []pageSize, servers []string) string {
	var b strings.Builder
	b.WriteString("Bytes of one page-tool reply, counted as the runner counts every reply\n" +
		"(the reply's content as JSON), after the server navigated to the page\n" +
		"with its own navigate tool; HTML bytes is what the fixture web serves.\n" +
		"read_page is called with mode=text and the largest max_bytes, so it\n" +
		"returns the whole page.\n\n")
	b.WriteString("| page | HTML bytes |")
	for _, s := range servers {
		fmt.Fprintf(&b, " %s %s |", s, pageToolNames[s])
	}
	b.WriteString(" builtin ÷ playwright |\n| --- |" + strings.Repeat(" ---: |", len(servers)+2) + "\n")

	total := pageSize{reply: map[string]int{}}
	ratios := make([]pageRatio, 0, len(rows))
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d |", r.page, r.html)
		total.html += r.html
		for _, s := range servers {
			fmt.Fprintf(&b, " %d |", r.reply[s])
			total.reply[s] += r.reply[s]
		}
		ratio := float64(r.reply["builtin"]) / float64(r.reply["playwright"])
		ratios = append(ratios, pageRatio{r.page, ratio})
		fmt.Fprintf(&b, " %.2f |\n", ratio)
	}
	fmt.Fprintf(&b, "| **all %d pages** | %d |", len(rows), total.html)
	for _, s := range servers {
		fmt.Fprintf(&b, " %d |", total.reply[s])
	}
	fmt.Fprintf(&b, " %.2f |\n\n", float64(total.reply["builtin"])/float64(total.reply["playwright"]))

	var navs []string
	for _, s := range servers {
		lo, hi := -1, 0
		for _, r := range rows {
			if n := r.nav[s]; lo < 0 || n < lo {
				lo = n
			}
			hi = max(hi, r.nav[s])
		}
		navs = append(navs, fmt.Sprintf("%s %d–%d", s, lo, hi))
	}
	// A server that returned the page with its navigation would pay for
	// reading a page there too, not only in its page tool; the range
	// shows whether any does.
	fmt.Fprintf(&b, "Not in the table: the navigate reply before each read (bytes: %s).\n\n", strings.Join(navs, ", "))

	med, lo, hi := ratioStats(ratios)
	verdict := "met"
	if med > ratioTarget {
		verdict = "**not met**"
	}
	fmt.Fprintf(&b, "Median builtin ÷ playwright over the %d pages: **%.2f** (min %.2f on %s, max %.2f on %s). "+
		"The target, at most %.2f, is %s.\n\n", len(rows), med, lo.ratio, lo.page, hi.ratio, hi.page, ratioTarget, verdict)
	b.WriteString("Measured on one Chromium behind the fixture web, and checked on every test run, by:\n\n")
	b.WriteString("```\n" + pagesCommand + "\n```\n")
	return b.String()
}

// pageToolNames heads each server's column with the tool it was read by.
var pageToolNames = map[string]string{
	"builtin":         "read_page",
	"playwright":      "browser_snapshot",
	"chrome-devtools": "take_snapshot",
}

type pageRatio struct {
	page  string
	ratio float64
}

// ratioStats returns the median of the ratios (the mean of the middle two
// for an even count) and the pages with the smallest and largest.
func ratioStats(rs []pageRatio) (median float64, lo, hi pageRatio) {
	if len(rs) == 0 {
		return 0, pageRatio{}, pageRatio{}
	}
	sorted := slices.Clone(rs)
	slices.SortStableFunc(sorted, func(a, b pageRatio) int {
		switch {
		case a.ratio < b.ratio:
			return -1
		case a.ratio > b.ratio:
			return 1
		}
		return 0
	})
	n := len(sorted)
	median = sorted[n/2].ratio
	if n%2 == 0 {
		median = (sorted[n/2-1].ratio + sorted[n/2].ratio) / 2
	}
	return median, sorted[0], sorted[n-1]
}

// checkPagesSection compares the doc's section with want, or writes want
// into it with -update.
func checkPagesSection(t *testing.T, want string) {
	t.Helper()
	doc, err := os.ReadFile(pagesDoc)
	if err != nil {
		t.Fatalf("reading the benchmark doc: %v", err)
	}
	before, rest, ok1 := strings.Cut(string(doc), pagesBegin)
	got, after, ok2 := strings.Cut(rest, pagesEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q … %q section for the page sizes", pagesDoc, pagesBegin, pagesEnd)
	}
	if *update {
		if err := os.WriteFile(pagesDoc, []byte(before+pagesBegin+want+pagesEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != want {
		t.Errorf("the page sizes in %s differ from the measurement at line %d of the section; after a deliberate change to a server, the fixture web or Chromium, run %s and review the diff\n--- measured\n%s--- documented\n%s",
			pagesDoc, firstDiffLine(want, got), pagesCommand, want, got)
	}
}

func headOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func TestRatioStats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		in         []pageRatio
		wantMedian float64
		wantLo     string
		wantHi     string
	}{
		{"one page", []pageRatio{{"a", 0.5}}, 0.5, "a", "a"},
		{"odd count takes the middle", []pageRatio{{"a", 0.9}, {"b", 0.1}, {"c", 0.4}}, 0.4, "b", "a"},
		{"even count averages the middle two", []pageRatio{{"a", 0.2}, {"b", 0.6}, {"c", 0.4}, {"d", 0.1}}, 0.3, "d", "b"},
		// Ties keep the table's order, so the doc names the same page on
		// every run.
		{"ties name the later page as max, the earlier as min", []pageRatio{{"a", 0.5}, {"b", 0.5}}, 0.5, "a", "b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			med, lo, hi := ratioStats(tc.in)
			if math.Abs(med-tc.wantMedian) > 1e-9 || lo.page != tc.wantLo || hi.page != tc.wantHi {
				t.Errorf("ratioStats(%v) = %.3f, min %s, max %s; want %.3f, min %s, max %s",
					tc.in, med, lo.page, hi.page, tc.wantMedian, tc.wantLo, tc.wantHi)
			}
		})
	}
}

func TestMatchesURLClauses(t *testing.T) {
	t.Parallel()
	at := &contract.URL{Pattern: `^https://tc39\.es/ecma262/#sec-strict-mode-code$`}
	other := &contract.DOMText{Selector: "h1", Contains: "ECMAScript"}
	tests := []struct {
		name    string
		pc      contract.Postconditions
		u       string
		wantErr string // empty: no error
	}{
		{"matching url clause", contract.Postconditions{other, at}, "https://tc39.es/ecma262/#sec-strict-mode-code", ""},
		{"fragment missing", contract.Postconditions{at}, "https://tc39.es/ecma262/", "does not match it"},
		{"no url clause", contract.Postconditions{other}, "https://tc39.es/ecma262/", "no top-level url clause"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := matchesURLClauses(tc.pc, tc.u)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("matchesURLClauses(%s) = %v, want no error", tc.u, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("matchesURLClauses(%s) = %v, want an error containing %q", tc.u, err, tc.wantErr)
			}
		})
	}
}
