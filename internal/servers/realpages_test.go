package servers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"contractbench/internal/browser"
	"contractbench/internal/mcpclient"
	"contractbench/internal/webreplay"
)

// realPagesVar names a folder of real saved pages (a MANIFEST.tsv whose
// first column names <name>.html files), such as the realpages corpus
// beside this repository. Those pages are not this project's to copy, so
// the measurement below runs only on a folder given to it.
const realPagesVar = "CONTRACTBENCH_REALPAGES"

// realHost is the name the pages are served under, on loopback.
const realHost = "realpages.test"

// TestRealPages measures read_page against @playwright/mcp's
// browser_snapshot on real saved pages: the bytes of each reply (all of
// read_page's pages when it pages on) and the share of each page's visible
// words (the runs of letters and digits of document.body.innerText, once
// each; see visibleWords and keptShare) that the reply contains. It fails when the median bytes ratio is
// above ratioTarget or read_page keeps less than 99% of a page's visible
// words, and logs the table for docs/benchmarks/servers.md:
//
//	CONTRACTBENCH_REALPAGES=../shared/corpora/realpages go test ./internal/servers -run TestRealPages -v -timeout 30m
//
// Without the variable it is skipped: the corpus is not part of this
// repository.
func TestRealPages(t *testing.T) {
	dir := os.Getenv(realPagesVar)
	if dir == "" {
		t.Skipf("set %s to a folder of saved pages to measure read_page on them", realPagesVar)
	}
	names := realPageNames(t, dir)
	archive := webreplay.NewArchive("real saved pages, served for measurement only")
	for _, name := range names {
		body, err := os.ReadFile(filepath.Join(dir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		e := webreplay.Entry{Path: "/" + name + ".html", Header: map[string]string{"content-type": "text/html; charset=utf-8"}}
		if err := archive.Add(realHost, e, body); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := webreplay.NewServer(webreplay.Replay(archive), webreplay.ServerOptions{Hosts: archive.Hosts()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	lctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	b, err := browser.Launch(lctx, browser.Options{NoSandbox: os.Geteuid() == 0, Flags: srv.ChromiumFlags()})
	cancel()
	if err != nil {
		t.Fatalf("the measurement needs Chromium (apt-get install chromium): %v", err)
	}
	defer b.Close()

	set := loadServers(t)
	self := buildSelf(t)
	type row struct {
		name          string
		html          int
		words         int
		bytes, kept   map[string]float64
		builtinMissed []string
	}
	rows := make([]row, len(names))
	for _, server := range []string{"builtin", "playwright"} {
		p, err := set.Get(server)
		if err != nil {
			t.Fatal(err)
		}
		requireInstalled(t, p)
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
		_, tab := startTask(t, ctx, b.URL(), "")
		sess := startServer(t, ctx, p, b.URL(), self)
		for i, name := range names {
			u := "https://" + realHost + "/" + name + ".html"
			nav, err := p.render(ActNavigate, map[string]any{"{url}": u})
			if err != nil {
				t.Fatal(err)
			}
			if res, err := sess.Call(ctx, nav.Name, nav.Args); err != nil || res.IsError {
				t.Fatalf("%s: %s %s: %v %s", server, nav.Name, u, err, headOf(res.Text, 300))
			}
			text, n := readWhole(t, ctx, p, sess, u)
			words := visibleWords(t, ctx, b.URL(), tab)
			r := &rows[i]
			if r.bytes == nil {
				html, _ := os.Stat(filepath.Join(dir, name+".html"))
				*r = row{name: name, html: int(html.Size()), words: len(words), bytes: map[string]float64{}, kept: map[string]float64{}}
			}
			kept, missed := keptShare(words, text)
			r.bytes[server], r.kept[server] = float64(n), kept
			if server == "builtin" {
				r.builtinMissed = missed
			}
		}
		cancel()
	}

	var b2 strings.Builder
	b2.WriteString("| page | HTML bytes | visible words | read_page bytes | browser_snapshot bytes | ratio | read_page words kept | browser_snapshot words kept |\n")
	b2.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	var ratios, keptB, keptP []float64
	for _, r := range rows {
		ratio := r.bytes["builtin"] / r.bytes["playwright"]
		ratios = append(ratios, ratio)
		keptB = append(keptB, r.kept["builtin"])
		keptP = append(keptP, r.kept["playwright"])
		fmt.Fprintf(&b2, "| %s | %d | %d | %.0f | %.0f | %.2f | %.1f%% | %.1f%% |\n", r.name, r.html, r.words,
			r.bytes["builtin"], r.bytes["playwright"], ratio, 100*r.kept["builtin"], 100*r.kept["playwright"])
		if r.kept["builtin"] < 0.99 {
			t.Errorf("%s: read_page keeps %.1f%% of the page's %d visible words, want at least 99%%; missing, for example: %q",
				r.name, 100*r.kept["builtin"], r.words, r.builtinMissed[:min(len(r.builtinMissed), 20)])
		}
	}
	med, p90 := quantile(ratios, 0.5), quantile(ratios, 0.9)
	fmt.Fprintf(&b2, "\n%d pages: bytes ratio read_page ÷ browser_snapshot median %.2f, p90 %.2f; words kept by read_page min %.1f%%, median %.1f%%; by browser_snapshot min %.1f%%, median %.1f%%\n",
		len(rows), med, p90, 100*slices.Min(keptB), 100*quantile(keptB, 0.5), 100*slices.Min(keptP), 100*quantile(keptP, 0.5))
	t.Log("\n" + b2.String())
	if med > ratioTarget {
		t.Errorf("median bytes ratio %.2f, want at most %.2f", med, ratioTarget)
	}
}

// realPageNames reads the names of a corpus's MANIFEST.tsv.
func realPageNames(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		if name, _, _ := strings.Cut(sc.Text(), "\t"); !first && name != "" {
			names = append(names, name)
		}
	}
	if err := sc.Err(); err != nil || len(names) == 0 {
		t.Fatalf("%s/MANIFEST.tsv: %d names, %v", dir, len(names), err)
	}
	slices.Sort(names)
	return names
}

var offsetRE = regexp.MustCompile(`; call read_page with offset=(\d+)$`)

// readWhole reads the page with the profile's page tool and returns the
// text and the bytes of every reply: read_page is called again from the
// offset it names until it is done.
func readWhole(t *testing.T, ctx context.Context, p *Profile, sess *mcpclient.Session, u string) (string, int) {
	t.Helper()
	tool := p.Tool(ActRead)
	args := pageReads[p.Name()]
	var text strings.Builder
	total := 0
	for range 100 {
		res, err := sess.Call(ctx, tool, json.RawMessage(args))
		if err != nil || res.IsError {
			t.Fatalf("%s on %s: %v %s", tool, u, err, headOf(res.Text, 300))
		}
		total += res.Bytes
		body := strings.TrimRight(res.Text, "\n")
		m := offsetRE.FindStringSubmatch(body)
		if m == nil {
			text.WriteString(res.Text)
			return text.String(), total
		}
		text.WriteString(body[:len(body)-len(m[0])])
		off, _ := strconv.Atoi(m[1])
		args = fmt.Sprintf(`{"mode":"text","max_bytes":100000,"offset":%d}`, off)
	}
	t.Fatalf("%s on %s: still paging after 100 replies", tool, u)
	return "", 0
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)

// visibleWords returns the distinct words of the tab's document.body
// innerText, what a person sees of the page as text, less the options of
// closed drop-down lists (innerText has them all; a person sees the one
// chosen).
func visibleWords(t *testing.T, ctx context.Context, browserURL string, tab target.ID) []string {
	t.Helper()
	alloc, cancelAlloc := remote.NewAllocator(ctx, browserURL)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	pctx, cancelPage := chromedp.NewContext(bctx, chromedp.WithTargetID(tab), chromedp.WithDetachOnCancel())
	defer cancelPage()
	inner, err := chromedp.Run(pctx, chromedp.Evaluate[string](`(() => {
		if (!document.body) return "";
		let text = document.body.innerText;
		for (const s of document.querySelectorAll("select")) {
			const opts = s.innerText;
			if (opts) text = text.replace(opts, Array.from(s.selectedOptions, (o) => o.label).join(" "));
		}
		return text;
	})()`))
	if err != nil {
		t.Fatalf("reading innerText: %v", err)
	}
	words := wordRE.FindAllString(inner, -1)
	slices.Sort(words)
	return slices.Compact(words)
}

// keptShare is the share of words that text contains, and some that it
// does not. A word counts as contained when text has it ignoring case (CSS
// text-transform changes the case of innerText, not of the document's
// text) and the spaces and punctuation between text's words (innerText
// runs inline boxes together: "ChoicesPrivacyTerms").
func keptShare(words []string, text string) (float64, []string) {
	if len(words) == 0 {
		return 1, nil
	}
	lower := strings.ToLower(text)
	tokens := map[string]bool{}
	for _, w := range wordRE.FindAllString(lower, -1) {
		tokens[w] = true
	}
	stream := strings.Join(wordRE.FindAllString(lower, -1), "")
	var missed []string
	for _, w := range words {
		lw := strings.ToLower(w)
		if !tokens[lw] && !strings.Contains(stream, lw) {
			missed = append(missed, w)
		}
	}
	return 1 - float64(len(missed))/float64(len(words)), missed
}

// quantile returns the q-quantile of xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(i, 0)]
}
