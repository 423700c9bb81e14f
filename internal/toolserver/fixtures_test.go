package toolserver

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"contractbench/internal/webreplay"
)

// sizesDoc holds the table of read_page sizes per fixture page, between
// the markers below; TestFixtures checks it against what it measures.
const (
	sizesDoc   = "../../docs/benchmarks/toolserver.md"
	sizesBegin = "<!-- sizes:begin -->\n"
	sizesEnd   = "<!-- sizes:end -->\n"
)

// fixturePage is one HTML page of the fixture web.
type fixturePage struct {
	host, path, query string
	html              int // bytes of the HTML as served
}

func (p fixturePage) url() string {
	u := "https://" + p.host + p.path
	if p.query != "" && p.query != "*" {
		u += "?" + p.query
	}
	return u
}

// golden is where the page's read_page replies are pinned.
func (p fixturePage) golden() string {
	name := strings.TrimPrefix(p.path, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index"
	}
	return filepath.Join("testdata", "fixtures", p.host, filepath.FromSlash(name)+".txtar")
}

// fixturePages lists the archive's HTML pages (status 200, GET), by host.
func fixturePages(a *webreplay.Archive) map[string][]fixturePage {
	pages := map[string][]fixturePage{}
	for _, host := range a.Hosts() {
		for _, e := range a.Entries(host) {
			if e.Method != "GET" || e.Status != 200 || !strings.HasPrefix(e.Header["content-type"], "text/html") {
				continue
			}
			p := fixturePage{host: host, path: e.Path, query: e.Query}
			query := e.Query
			if query == "*" {
				query = ""
			}
			if res, ok := a.Lookup("GET", host, e.Path, query); ok {
				p.html = len(res.Body)
			}
			pages[host] = append(pages[host], p)
		}
	}
	return pages
}

// size is one row of the sizes table.
type size struct {
	page              string
	html, text, inter int
}

// TestFixtures walks every HTML page of the fixture web: each must load
// through the replay server, and its read_page replies (whole, both modes)
// must match the golden files in testdata/fixtures. It also keeps the
// table of sizes in docs/benchmarks/toolserver.md true. Run with -update
// after changing the fixture web or the renderer, and review the diff.
func TestFixtures(t *testing.T) {
	t.Parallel()
	if fixturesErr != nil {
		t.Fatalf("the fixture web %s does not open: %v", fixtureDir, fixturesErr)
	}
	var (
		mu        sync.Mutex
		sizes     []size
		synthetic size
	)
	// One browser context per host, all hosts at once: the work is mostly
	// waiting for pages to settle, which overlaps well, and t.Parallel
	// would allow only GOMAXPROCS hosts at a time.
	byHost := fixturePages(fixtures)
	envs := map[string]*env{}
	for host := range byHost {
		envs[host] = newEnv(t)
	}
	var wg sync.WaitGroup
	for host, pages := range byHost {
		wg.Go(func() {
			e := envs[host]
			for _, p := range pages {
				s, err := checkFixture(t, e, p)
				if err != nil {
					t.Errorf("%s: %v", p.url(), err)
					continue
				}
				mu.Lock()
				sizes = append(sizes, s)
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	// A synthetic page with 400 links, the shape other tool servers are
	// often measured on, for comparison.
	t.Run("synthetic", func(t *testing.T) {
		e := newEnv(t)
		res, err := http.Get(site.URL + "/long.html")
		if err != nil {
			t.Fatal(err)
		}
		html, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		e.open("/long.html")
		text := e.ok("read_page", map[string]any{"max_bytes": maxBudget})
		inter := e.ok("read_page", map[string]any{"mode": "interactive", "max_bytes": maxBudget})
		synthetic = size{"test site: 400 links (/long.html)", len(html), len(body(text)), len(body(inter))}
	})
	if t.Failed() {
		return
	}
	checkSizesTable(t, sizes, synthetic)
}

// checkFixture loads page p, compares its read_page replies with the
// golden file and measures them. It is safe to run on any goroutine.
func checkFixture(t *testing.T, e *env, p fixturePage) (size, error) {
	nav, err := e.try("navigate", map[string]any{"url": p.url()})
	if err != nil {
		return size{}, err
	}
	if nav.isError || strings.Contains(nav.text, "(HTTP ") {
		return size{}, fmt.Errorf("does not load cleanly from the fixture web:\n%s", nav.text)
	}
	var replies [2]string
	for i, mode := range goldenSections {
		r, err := e.try("read_page", map[string]any{"mode": mode, "max_bytes": maxBudget})
		if err != nil {
			return size{}, err
		}
		if r.isError {
			return size{}, fmt.Errorf("read_page mode=%s failed:\n%s", mode, r.text)
		}
		replies[i] = r.text
	}
	comment := "read_page replies for " + p.url() + " from the fixture web.\nRegenerate with: go test ./internal/toolserver -run TestFixtures -update\n"
	if err := golden(p.golden(), comment, map[string]string{"text": replies[0], "interactive": replies[1]}); err != nil {
		return size{}, err
	}
	return size{strings.TrimPrefix(p.url(), "https://"), p.html, len(body(replies[0])), len(body(replies[1]))}, nil
}

// sizesTable renders the measured sizes as the Markdown table the doc
// carries: one row per fixture page, their total, then the synthetic page.
func sizesTable(sizes []size, synthetic size) string {
	slices.SortFunc(sizes, func(a, b size) int { return strings.Compare(a.page, b.page) })
	var b strings.Builder
	b.WriteString("| page | HTML bytes | read_page text | % of HTML | interactive |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: |\n")
	var html, text, inter int
	for _, s := range sizes {
		fmt.Fprintf(&b, "| %s | %d | %d | %d%% | %d |\n", s.page, s.html, s.text, percent(s.text, s.html), s.inter)
		html, text, inter = html+s.html, text+s.text, inter+s.inter
	}
	fmt.Fprintf(&b, "| **all %d fixture pages** | %d | %d | %d%% | %d |\n", len(sizes), html, text, percent(text, html), inter)
	s := synthetic
	fmt.Fprintf(&b, "| %s | %d | %d | %d%% | %d |\n", s.page, s.html, s.text, percent(s.text, s.html), s.inter)
	return b.String()
}

func percent(part, whole int) int {
	if whole == 0 {
		return 0
	}
	return (part*100 + whole/2) / whole
}

func checkSizesTable(t *testing.T, sizes []size, synthetic size) {
	t.Helper()
	doc, err := os.ReadFile(sizesDoc)
	if err != nil {
		t.Fatalf("reading the benchmark doc: %v", err)
	}
	before, rest, ok1 := strings.Cut(string(doc), sizesBegin)
	_, after, ok2 := strings.Cut(rest, sizesEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q … %q section for the sizes table", sizesDoc, sizesBegin, sizesEnd)
	}
	table := sizesTable(sizes, synthetic)
	if *update {
		if err := os.WriteFile(sizesDoc, []byte(before+sizesBegin+table+sizesEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, _, _ := strings.Cut(rest, sizesEnd); got != table {
		t.Errorf("the sizes table in %s is out of date; run go test ./internal/toolserver -run TestFixtures -update\n--- measured\n%s--- documented\n%s", sizesDoc, table, got)
	}
}
