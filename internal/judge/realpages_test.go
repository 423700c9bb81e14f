package judge

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"contractbench/internal/browser"
	"contractbench/internal/contract"
	"contractbench/internal/webreplay"
)

// realPagesVar names a folder of real saved pages: a MANIFEST.tsv whose
// first column names <name>.html files, each with the text a person reads
// in it as <name>.expected.txt, such as the realpages corpus beside this
// repository. Those pages are not this project's to copy, so the test
// below runs only on a folder given to it.
const realPagesVar = "CONTRACTBENCH_REALPAGES"

// realHost is the name the pages are served under, on loopback.
const realHost = "realpages.test"

// How many sentences of each page's expected text are checked, and the
// seed they are chosen with (with the page's name).
const (
	sentencesPerPage = 20
	sentenceSeed     = 20191120
)

// realMiss is a sentence of a page's expected text that dom_text does not
// find on the page, and why. The sentence is named by sentenceID: the
// corpus is not copied here, not even a sentence of it.
type realMiss struct {
	page, sentence, cause string
}

// Why a sentence is not found. Each was looked at in Chromium: a
// screenshot of the sentence's place, the markup around it, and what the
// judge read and refused there. The judge's faults have a minimal page
// each in docs/benchmarks/reading.md.
const (
	missSpace   = "expected text: a space at an element's edge that the page does not show"
	missDash    = "expected text: no dash where the page's style sheet draws one (::after)"
	missJoined  = "expected text: two lines run together that the page shows apart"
	missFooter  = "offline layout: the site's footer is drawn over the article"
	missOverlap = "offline layout: a list of other articles is drawn over the paragraph"
	missNavBar  = "offline layout: the section bar is drawn over the paragraph's last line"
	missFade    = "paywall: the page fades its excerpt out, the last line nearly white"
)

// realMisses are the misses TestRealPagesSentences accepts. Any other miss
// fails the test, and so does an entry here that no longer misses.
var realMisses = []realMiss{
	{"cnbc-com", "98a1106b", missSpace},
	{"cnbc-com", "7d69f9f8", missFooter},
	{"cnbc-com", "cdb0d9a1", missFooter},
	{"cnbc-com", "c27c0c48", missFooter},
	{"cnn-com", "d7df9e73", missDash},
	{"comoeducarseusfilhos-com-br", "44a64883", missSpace},
	{"jpost-com", "b02a5085", missJoined},
	{"nationalreview-com", "238c3cd6", missOverlap},
	{"nationalreview-com", "8f619be9", missSpace},
	{"note100yen-com", "a126366c", missSpace},
	{"note100yen-com", "837ab342", missSpace},
	{"smithsonianmag-com", "ec3317a6", missSpace},
	{"smithsonianmag-com", "f00ca6a9", missSpace},
	{"theguardian-com", "46499633", missNavBar},
	{"wsj-com", "05c9e4bf", missFade},
}

// TestRealPagesSentences checks dom_text on real markup: for each page,
// up to sentencesPerPage sentences of the text a person reads in it
// (<name>.expected.txt, chosen with a fixed seed; see realSentences), each
// a dom_text clause on body of one contract, graded as the runner grades
// (contract.Parse, Judge.Grade) once the page has loaded. Every sentence
// must pass, or be one of realMisses. It logs, per page, the passes and
// each miss with what the judge saw, and the totals for
// docs/benchmarks/reading.md:
//
//	CONTRACTBENCH_REALPAGES=../shared/corpora/realpages go test ./internal/judge -run TestRealPagesSentences -v -timeout 30m
//
// Without the variable it is skipped: the corpus is not part of this
// repository.
func TestRealPagesSentences(t *testing.T) {
	dir := realPagesDir(t)
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
	// A browser of its own: the shared one has no route to the replay web.
	lctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	b, err := browser.Launch(lctx, browser.Options{NoSandbox: os.Geteuid() == 0, Flags: srv.ChromiumFlags()})
	cancel()
	if err != nil {
		t.Fatalf("launching Chromium: %v", err)
	}
	defer b.Close()
	alloc, cancelAlloc := remote.NewAllocator(t.Context(), b.URL())
	defer cancelAlloc()
	drv, cancelDrv := chromedp.NewContext(alloc)
	defer cancelDrv()
	if err := chromedp.Do(drv); err != nil {
		t.Fatalf("connecting to %s: %v", b.URL(), err)
	}

	type key struct{ page, sentence string }
	listed := map[key]string{}
	for _, m := range realMisses {
		listed[key{m.page, m.sentence}] = m.cause
	}
	checked := map[key]bool{}
	ran := map[string]bool{}
	start := time.Now()
	var sentences, passed int
	causes := map[string]int{}
	var slowest time.Duration
	var slowPage string
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(dir, name+".expected.txt"))
			if err != nil {
				t.Fatal(err)
			}
			picked := pickSentences(realSentences(string(text)), name)
			if len(picked) == 0 {
				t.Fatal("no sentence to check")
			}
			ran[name] = true
			began := time.Now()
			v := gradeSentences(t, drv, b.URL(), "https://"+realHost+"/"+name+".html", picked)
			took := time.Since(began)
			if took > slowest {
				slowest, slowPage = took, name
			}
			n := 0
			for i, s := range picked {
				e := v.Evidence[i]
				k := key{name, sentenceID(s)}
				checked[k] = true
				cause, known := listed[k]
				switch {
				case e.Passed && known:
					t.Errorf("sentence %s passes, but realMisses lists it (%s): %q", k.sentence, cause, s)
				case e.Passed:
					n++
				case known:
					causes[cause]++
					t.Logf("known miss, sentence %s (%s): %q\n\tsaw %s", k.sentence, cause, s, e.Seen)
				default:
					t.Errorf("miss, sentence %s: %q\n\tsaw %s", k.sentence, s, e.Seen)
				}
			}
			sentences += len(picked)
			passed += n
			t.Logf("%d of %d sentences pass (%s)", n, len(picked), took.Round(time.Millisecond))
			if v.Unstable != "" {
				t.Logf("unstable: %s", v.Unstable)
			}
		})
	}
	for _, m := range realMisses {
		if ran[m.page] && !checked[key{m.page, m.sentence}] {
			t.Errorf("realMisses lists sentence %s of %s, which was not checked", m.sentence, m.page)
		}
	}
	// The causes, the commonest first.
	var why strings.Builder
	known := 0
	for _, c := range slices.SortedFunc(maps.Keys(causes), func(a, b string) int {
		return cmp.Or(causes[b]-causes[a], strings.Compare(a, b))
	}) {
		fmt.Fprintf(&why, "\n\t%d %s", causes[c], c)
		known += causes[c]
	}
	t.Logf("%d pages, %d sentences: %d pass, %d miss (%d known):%s\n%s in all, slowest page %s (%s)",
		len(ran), sentences, passed, sentences-passed, known, why.String(),
		time.Since(start).Round(time.Second), slowPage, slowest.Round(time.Millisecond))
}

// gradeSentences opens u in a fresh browser context of the browser drv
// drives, as the runner starts a task, and grades one contract of a
// dom_text clause on body per sentence, with a judge confined to that
// context and attached before the tab opens.
func gradeSentences(t *testing.T, drv context.Context, browserURL, u string, sentences []string) contract.Verdict {
	t.Helper()
	type clause struct {
		Kind     string `json:"kind"`
		Selector string `json:"selector"`
		Contains string `json:"contains"`
	}
	var doc struct {
		Postconditions []clause `json:"postconditions"`
	}
	for _, s := range sentences {
		doc.Postconditions = append(doc.Postconditions, clause{"dom_text", "body", s})
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := contract.Parse(raw)
	if err != nil {
		t.Fatalf("contract: %v", err)
	}

	bc, err := chromedp.CallBrowser(drv, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		t.Fatalf("creating a browser context: %v", err)
	}
	id := bc.BrowserContextID
	defer func() {
		_, _ = chromedp.CallBrowser(drv, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: id})
	}()
	actx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	j, err := Attach(actx, browserURL, Options{BrowserContext: id})
	cancel()
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	defer func() {
		if err := j.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	tab, closeTab := chromedp.NewContext(drv, chromedp.WithExistingBrowserContext(id))
	defer closeTab()
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	j.MarkToolCall()
	nctx, cancel := context.WithTimeout(tab, time.Minute)
	err = chromedp.Do(nctx, chromedp.Navigate(u))
	cancel()
	if err != nil {
		t.Fatalf("navigating to %s: %v", u, err)
	}
	gctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	v, _, err := j.Grade(gctx, pc, nil)
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	if len(v.Evidence) != len(sentences) {
		t.Fatalf("%d pieces of evidence for %d clauses", len(v.Evidence), len(sentences))
	}
	return v
}

// realPagesDir returns the folder realPagesVar names, or skips the test
// when it names none. A relative folder is taken from the repository's
// root, where TestRealPagesSentences's command is run: go test runs a
// test in its package's folder.
func realPagesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(realPagesVar)
	if dir == "" {
		t.Skipf("set %s to a folder of saved pages to check dom_text on them", realPagesVar)
	}
	if filepath.IsAbs(dir) {
		return dir
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			return filepath.Join(root, dir)
		}
		up := filepath.Dir(root)
		if up == root {
			t.Fatalf("%s=%s is relative, and no go.mod is above %s to take it from", realPagesVar, dir, root)
		}
		root = up
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

// realSentences splits a page's expected text into the sentences worth a
// check, white space folded, in order. Each line is cut after a
// sentence's end (., ?, ! followed by a space or the line's end, or 。！？
// anywhere), with the closing quotes and brackets after it; a line with
// no sentence end is a heading or a label and is left out, and so are
// sentences under 20 characters, or under four words in a script written
// with spaces. A text with no sentence end at all (a list, a timetable)
// is read as lines instead.
func realSentences(text string) []string {
	if s := splitSentences(text, false); len(s) > 0 {
		return s
	}
	return splitSentences(text, true)
}

// splitSentences is realSentences, with each line that has no sentence
// end taken whole (lines) or left out.
func splitSentences(text string, lines bool) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		rs := []rune(contract.FoldSpace(line))
		if !lines && !slices.ContainsFunc(rs, sentenceEnd) {
			continue
		}
		from := 0
		for i := 0; i < len(rs); i++ {
			if !sentenceEnd(rs[i]) {
				continue
			}
			j := i + 1
			for j < len(rs) && (sentenceEnd(rs[j]) || closer(rs[j])) {
				j++
			}
			if j < len(rs) && rs[j] != ' ' && !wideEnd(rs[i]) {
				continue
			}
			out = append(out, strings.TrimSpace(string(rs[from:j])))
			from, i = j, j-1
		}
		if from < len(rs) {
			out = append(out, strings.TrimSpace(string(rs[from:])))
		}
	}
	return slices.DeleteFunc(out, func(s string) bool {
		return len([]rune(s)) < 20 || (len(strings.Fields(s)) < 4 && !strings.ContainsFunc(s, unspaced))
	})
}

func sentenceEnd(r rune) bool { return strings.ContainsRune(".?!。！？", r) }

// wideEnd ends a sentence with no space after it.
func wideEnd(r rune) bool { return strings.ContainsRune("。！？", r) }

func closer(r rune) bool { return strings.ContainsRune("\"'”’»)]）」』", r) }

// unspaced tells a letter of a script written without spaces between
// words.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai)
}

// pickSentences chooses up to sentencesPerPage of sentences, the same
// ones on every run (a PCG seeded with sentenceSeed and the page's name),
// in the order of the text.
func pickSentences(sentences []string, page string) []string {
	if len(sentences) <= sentencesPerPage {
		return sentences
	}
	h := fnv.New64a()
	h.Write([]byte(page))
	r := rand.New(rand.NewPCG(sentenceSeed, h.Sum64()))
	idx := r.Perm(len(sentences))[:sentencesPerPage]
	slices.Sort(idx)
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = sentences[i]
	}
	return out
}

// sentenceID names a sentence without quoting it: the first 8 hex digits
// of its SHA-256.
func sentenceID(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// TestRealSentences pins how realSentences cuts an expected text.
func TestRealSentences(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a heading line is left out", "Opening hours\n\nThe shop opens at nine on every weekday. It closes at six in the evening.",
			[]string{"The shop opens at nine on every weekday.", "It closes at six in the evening."}},
		{"closing quotes stay with their sentence", `"Your order has been sent to the kitchen," she said. Is it ready? Not yet!`,
			[]string{`"Your order has been sent to the kitchen," she said.`}},
		{"a point inside a word does not end a sentence", "The parcel weighs 2.5 kg and goes to the U.K. office first, then further on. It left.",
			[]string{"The parcel weighs 2.5 kg and goes to the U.K.", "office first, then further on."}},
		{"white space is folded", "The  parcel\u00a0was sent\tat the start of the week.",
			[]string{"The parcel was sent at the start of the week."}},
		{"unspaced scripts are cut after 。", "注文したお茶は明日の朝までに届く予定になっています。店の営業時間は毎日九時から六時までとなっております。短い。",
			[]string{"注文したお茶は明日の朝までに届く予定になっています。", "店の営業時間は毎日九時から六時までとなっております。"}},
		{"a text with no sentence end is read as lines", "Monday: green tea and lemon cake\nTuesday: black tea and scones\nClosed",
			[]string{"Monday: green tea and lemon cake", "Tuesday: black tea and scones"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := realSentences(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("realSentences(%q)\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}
