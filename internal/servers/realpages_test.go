package servers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
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
// each, that the page shows both before and after the read; see seenText,
// stableWords and keptShare) that the reply contains. Each server reads a
// page once it has loaded. It fails when the median bytes ratio is above
// ratioTarget or read_page keeps less than 99% of a page's visible words,
// and logs the table for docs/benchmarks/servers.md:
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
		bytes, kept   map[string]float64
		builtinMissed []string
		// words are the page's visible words when each server read it,
		// changed those left out because the page changed them during
		// the read (see stableWords).
		words, changed map[string]int
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
		page := openTab(t, ctx, b.URL(), tab)
		for i, name := range names {
			u := "https://" + realHost + "/" + name + ".html"
			nav, err := p.Call(ActNavigate, map[string]any{"{url}": u})
			if err != nil {
				t.Fatal(err)
			}
			if res, err := sess.Call(ctx, nav.Name, nav.Args); err != nil || res.IsError {
				t.Fatalf("%s: %s %s: %v %s", server, nav.Name, u, err, headOf(res.Text, 300))
			}
			// The measure is of what a reply keeps of a page, not of how
			// long a server waits for it to load: the built-in navigate
			// reports a page still loading after its settle bound (a big
			// page on a busy machine), which read_page would then read
			// half parsed while innerText is read whole.
			waitLoaded(t, page, u)
			before := seenText(t, page)
			text, n := readWhole(t, ctx, p, sess, u)
			after := seenText(t, page)
			words, changed := stableWords(before, after)
			r := &rows[i]
			if r.bytes == nil {
				html, _ := os.Stat(filepath.Join(dir, name+".html"))
				*r = row{name: name, html: int(html.Size()), bytes: map[string]float64{}, kept: map[string]float64{}, words: map[string]int{}, changed: map[string]int{}}
			}
			kept, missed := keptShare(words, allPieces(before, after), text)
			r.bytes[server], r.kept[server] = float64(n), kept
			r.words[server], r.changed[server] = len(words), changed
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
	var changing []string
	for _, r := range rows {
		ratio := r.bytes["builtin"] / r.bytes["playwright"]
		ratios = append(ratios, ratio)
		keptB = append(keptB, r.kept["builtin"])
		keptP = append(keptP, r.kept["playwright"])
		fmt.Fprintf(&b2, "| %s | %d | %d | %.0f | %.0f | %.2f | %.1f%% | %.1f%% |\n", r.name, r.html, r.words["builtin"],
			r.bytes["builtin"], r.bytes["playwright"], ratio, 100*r.kept["builtin"], 100*r.kept["playwright"])
		if r.changed["builtin"] > 0 || r.changed["playwright"] > 0 {
			changing = append(changing, fmt.Sprintf("%s (%d, %d)", r.name, r.changed["builtin"], r.changed["playwright"]))
		}
		if r.kept["builtin"] < 0.99 {
			t.Errorf("%s: read_page keeps %.1f%% of the page's %d visible words, want at least 99%%; missing, for example: %q",
				r.name, 100*r.kept["builtin"], r.words["builtin"], r.builtinMissed[:min(len(r.builtinMissed), 20)])
		}
	}
	med, p90 := quantile(ratios, 0.5), quantile(ratios, 0.9)
	fmt.Fprintf(&b2, "\n%d pages: bytes ratio read_page ÷ browser_snapshot median %.2f, p90 %.2f; words kept by read_page min %.1f%%, median %.1f%%; by browser_snapshot min %.1f%%, median %.1f%%\n",
		len(rows), med, p90, 100*slices.Min(keptB), 100*quantile(keptB, 0.5), 100*slices.Min(keptP), 100*quantile(keptP, 0.5))
	if len(changing) > 0 {
		fmt.Fprintf(&b2, "\nWords the page changed during the read (read_page, browser_snapshot), not counted: %s\n", strings.Join(changing, ", "))
	}
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

var (
	wordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)
	// formatRE matches the invisible format characters (soft hyphens,
	// zero-width spaces and joiners): a person reads "regis\u00adtriertem"
	// as one word, and one server's reply keeps the soft hyphen while the
	// other's drops it.
	formatRE = regexp.MustCompile(`\p{Cf}`)
)

// wordsOf returns the words of s, its runs of letters and digits once the
// invisible format characters are taken out.
func wordsOf(s string) []string {
	return wordRE.FindAllString(formatRE.ReplaceAllString(s, ""), -1)
}

// openTab attaches to the tab the servers drive, for reading what it
// shows; the attachment ends with ctx.
func openTab(t *testing.T, ctx context.Context, browserURL string, tab target.ID) context.Context {
	t.Helper()
	alloc, cancelAlloc := remote.NewAllocator(ctx, browserURL)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	pctx, cancelPage := chromedp.NewContext(bctx, chromedp.WithTargetID(tab), chromedp.WithDetachOnCancel())
	t.Cleanup(cancelPage)
	return pctx
}

// waitLoaded waits until the tab's document u has loaded (its load event
// fired), bounded by ctx.
func waitLoaded(t *testing.T, page context.Context, u string) {
	t.Helper()
	loaded, err := chromedp.Run(page, chromedp.Evaluate[string](`new Promise((done) => {
		const ready = () => done(location.href);
		if (document.readyState === "complete") ready();
		else addEventListener("load", ready, { once: true });
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("waiting for %s to load: %v", u, err)
	}
	if loaded != u {
		t.Fatalf("the tab shows %s, want %s", loaded, u)
	}
}

// seen is what the tab shows as text at one moment.
type seen struct {
	// words are the distinct words of document.body.innerText, what a
	// person sees of the page as text, less the options of closed
	// drop-down lists (innerText has them all; a person sees the one
	// chosen).
	words []string
	// pieces are the words of the page's visible text nodes, each node
	// on its own, lower-cased: innerText runs the texts of adjacent
	// inline elements together ("ChoicesPrivacyTerms" from three links),
	// and pieces are what such a run is made of.
	pieces map[string]bool
}

func seenText(t *testing.T, page context.Context) seen {
	t.Helper()
	var got struct {
		Inner string   `json:"inner"`
		Nodes []string `json:"nodes"`
	}
	res, err := chromedp.Run(page, chromedp.Evaluate[json.RawMessage](`(() => {
		if (!document.body) return { inner: "", nodes: [] };
		let inner = document.body.innerText;
		for (const s of document.querySelectorAll("select")) {
			const opts = s.innerText;
			if (opts) inner = inner.replace(opts, Array.from(s.selectedOptions, (o) => o.label).join(" "));
		}
		const nodes = [];
		const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const p = n.parentElement;
			if (p && p.checkVisibility({ visibilityProperty: true })) nodes.push(n.data);
		}
		return { inner, nodes };
	})()`))
	if err == nil {
		err = json.Unmarshal(res, &got)
	}
	if err != nil {
		t.Fatalf("reading what the page shows: %v", err)
	}
	words := wordsOf(got.Inner)
	slices.Sort(words)
	s := seen{words: slices.Compact(words), pieces: map[string]bool{}}
	for _, n := range got.Nodes {
		for _, w := range wordsOf(strings.ToLower(n)) {
			s.pieces[w] = true
		}
	}
	return s
}

// stableWords returns the words the page showed both before and after a
// read, and how many it showed only once: a page whose scripts keep
// changing it (a ticker, a rotating teaser) shows the reply words that
// were there when the server read it, and only the words there the whole
// time are surely among them.
func stableWords(before, after seen) ([]string, int) {
	var both []string
	for _, w := range before.words {
		if _, ok := slices.BinarySearch(after.words, w); ok {
			both = append(both, w)
		}
	}
	return both, len(before.words) + len(after.words) - 2*len(both)
}

// allPieces is the union of the pieces of before and after.
func allPieces(before, after seen) map[string]bool {
	all := maps.Clone(before.pieces)
	maps.Copy(all, after.pieces)
	return all
}

// keptShare is the share of words (a page's visible words) that a reply's
// text holds, and the words it does not. Case is ignored (CSS
// text-transform changes the case of innerText, not of the document's
// text). A word counts as held when text has it as a word of its own, or,
// for a word that no single text node of the page has (innerText ran
// adjacent elements' texts together), when text has each of the pieces it
// is made of: the words of the page's text nodes (pieces), so
// "ChoicesPrivacyTerms" is held by a reply that lists three links
// "Choices", "Privacy" and "Terms" with anything between them.
func keptShare(words []string, pieces map[string]bool, text string) (float64, []string) {
	if len(words) == 0 {
		return 1, nil
	}
	tokens := map[string]bool{}
	for _, w := range wordsOf(strings.ToLower(text)) {
		tokens[w] = true
	}
	var missed []string
	for _, w := range words {
		lw := strings.ToLower(w)
		if tokens[lw] || (!pieces[lw] && madeOf(lw, func(p string) bool { return pieces[p] && tokens[p] })) {
			continue
		}
		missed = append(missed, w)
	}
	return 1 - float64(len(missed))/float64(len(words)), missed
}

// madeOf reports whether w is a run of two or more strings that held
// accepts.
func madeOf(w string, held func(string) bool) bool {
	// ends[i]: w[:i] is a run of held strings.
	ends := make([]bool, len(w)+1)
	ends[0] = true
	for i := range len(w) {
		if !ends[i] {
			continue
		}
		for j := i + 1; j <= len(w); j++ {
			if (i > 0 || j < len(w)) && held(w[i:j]) {
				ends[j] = true
			}
		}
	}
	return ends[len(w)]
}

// quantile returns the q-quantile of xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(i, 0)]
}

// TestKeptShare pins the rule TestRealPages counts words kept by, on
// replies written by hand in each server's notation.
func TestKeptShare(t *testing.T) {
	t.Parallel()
	pieces := func(ws ...string) map[string]bool {
		m := map[string]bool{}
		for _, w := range ws {
			m[w] = true
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		words  []string
		pieces map[string]bool
		reply  string
		missed []string
	}{
		{"a word of its own, case ignored", []string{"HISTORY", "keeper"}, pieces("history", "keeper"),
			"## History\nThe Keeper", nil},
		{"links run together by innerText, read_page", []string{"ChoicesPrivacyTerms"}, pieces("choices", "privacy", "terms"),
			"[Choices](e1) [Privacy](e2) [Terms](e3)", nil},
		{"links run together by innerText, browser_snapshot", []string{"ChoicesPrivacyTerms"}, pieces("choices", "privacy", "terms"),
			"- link \"Choices\" [ref=e1]\n- link \"Privacy\" [ref=e2]\n- link \"Terms\" [ref=e3]", nil},
		{"a link inside a run of text with no spaces", []string{"管理ソフトKeePassの起動"}, pieces("管理ソフト", "keepass", "の起動"),
			"管理ソフト[KeePass](e13)の起動", nil},
		{"a soft hyphen is not a break", []string{"registriertem"}, pieces("registriertem"),
			"aus regis\u00adtriertem Smartphone", nil},
		{"a piece missing", []string{"ChoicesPrivacyTerms"}, pieces("choices", "privacy", "terms"),
			"[Choices](e1) [Terms](e3)", []string{"ChoicesPrivacyTerms"}},
		{"a word a text node holds whole is not cut into others", []string{"nowhere"}, pieces("nowhere", "no", "where"),
			"no where", []string{"nowhere"}},
		{"a word inside another is not held", []string{"top"}, pieces("top"),
			"[Scroll](e1) [stop](e2)", []string{"top"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, missed := keptShare(tc.words, tc.pieces, tc.reply)
			if !slices.Equal(missed, tc.missed) {
				t.Errorf("keptShare(%q, %q) missed %q, want %q", tc.words, tc.reply, missed, tc.missed)
			}
		})
	}
}

// TestStableWords: only the words a page shows both before and after a
// read count, and the others are counted as changed.
func TestStableWords(t *testing.T) {
	t.Parallel()
	before := seen{words: []string{"Breaking", "Tower", "keeper", "news"}}
	after := seen{words: []string{"Tower", "keeper", "news", "weather"}}
	words, changed := stableWords(before, after)
	if want := []string{"Tower", "keeper", "news"}; !slices.Equal(words, want) || changed != 2 {
		t.Errorf("stableWords = %q, %d changed; want %q, 2 changed", words, changed, want)
	}
}
