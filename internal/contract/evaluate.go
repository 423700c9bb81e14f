package contract

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"contractbench/internal/problem"
)

// Classes resolves screenshot classes. internal/phash implements it over
// the example images of each class; the interface keeps this package free
// of image decoding and file access.
type Classes interface {
	// Distance returns the Hamming distance from hash to the class
	// classID (the nearest of its examples), and false when no such
	// class is loaded.
	Distance(classID string, hash uint64) (int, bool)
}

// Verdict is the judgement of one Observation against a contract.
type Verdict struct {
	Passed bool `json:"passed"`
	// FailedPath locates the clause that decided the failure: the first
	// failing top-level clause or, inside an and, its first failing child
	// (recursively). An or or a not is reported as itself, since no single
	// child explains its failure. Empty when Passed.
	FailedPath string `json:"failed_path,omitempty"`
	// FailedKind is the kind of the clause at FailedPath.
	FailedKind Kind `json:"failed_kind,omitempty"`
	// Evidence has one entry per leaf evaluated, in evaluation order.
	Evidence []Evidence `json:"evidence"`
	// Undecided reports that the Observation could not decide a leaf (it
	// kept only part of a selector's text and has no answer for the
	// string looked for, or its screenshot is of an error page that the
	// browser did not draw). Such a verdict is a failure whatever a not
	// around the leaf says, and FailedPath names the leaf.
	Undecided bool `json:"undecided,omitempty"`
	// Unstable explains a failure because the contract's outcome changed
	// while the page settled after the agent stopped (Settling.First
	// against the final state): a transient state never passes.
	Unstable string `json:"unstable,omitempty"`
}

// FailedClause names the failing clause for reports, as
// "postconditions[0] (url)"; empty when the verdict passed.
func (v Verdict) FailedClause() string {
	switch {
	case v.Passed:
		return ""
	case v.FailedKind == "":
		return v.FailedPath
	default:
		return v.FailedPath + " (" + string(v.FailedKind) + ")"
	}
}

// Why says why a failed verdict failed when its evidence alone does not:
// its outcome changed while the page settled, or the Observation could
// not decide a clause. "" otherwise.
func (v Verdict) Why() string {
	switch {
	case v.Passed:
		return ""
	case v.Unstable != "":
		return v.Unstable
	case v.Undecided:
		return "the judge's observation could not decide " + v.FailedClause() + ", which never passes"
	}
	return ""
}

// Evidence is what one leaf expected and what the Observation held. Passed
// is the leaf's own result, before any enclosing not inverts it.
type Evidence struct {
	Path     string `json:"path"`
	Kind     Kind   `json:"kind"`
	Passed   bool   `json:"passed"`
	Expected string `json:"expected"`
	// Seen is bounded to about 300 bytes; a cut value ends with
	// "…(+N bytes)".
	Seen string `json:"seen"`
}

// Evaluate judges obs against p. It is pure: the same inputs give the same
// Verdict, which is what lets a stored Observation be re-graded offline.
//
// Every top-level clause is evaluated, so the evidence covers the whole
// contract even when an early clause fails. classes may be nil; a
// screenshot_class clause then fails with evidence saying so.
//
// An empty contract fails: a benchmark task that checks nothing must not
// count as passed.
//
// A leaf the Observation cannot decide (see Verdict.Undecided) fails the
// verdict. When the Observation holds the page as it was when the agent
// stopped (Settling.First), the contract is also evaluated on it, and a
// contract that holds on only one of the two states fails (Verdict.Unstable).
func Evaluate(p Postconditions, obs Observation, classes Classes) Verdict {
	v := evaluate(p, obs, classes)
	if obs.Settling == nil || obs.Settling.First == nil || len(p) == 0 {
		return v
	}
	first := obs.Settling.First
	earlier := obs
	earlier.URL, earlier.Title, earlier.Elements = first.URL, first.Title, first.Elements
	earlier.Screenshot = Screenshot{PHash: first.PHash}
	earlier.Settling = nil
	if first.AtMS > 0 {
		earlier.Network = slices.DeleteFunc(slices.Clone(obs.Network), func(n NetworkEntry) bool { return n.StartMS > first.AtMS })
	}
	fv := evaluate(p, earlier, classes)
	ahead := fmt.Sprintf("%d ms of the page's time later", obs.Settling.AdvancedMS)
	switch {
	case fv.Passed == v.Passed:
	case v.Passed:
		v.Passed = false
		v.FailedPath, v.FailedKind, v.Undecided = fv.FailedPath, fv.FailedKind, fv.Undecided
		v.Unstable = fmt.Sprintf("the contract did not hold when the agent stopped (%s) and held only %s: the outcome was not settled", fv.FailedClause(), ahead)
	default:
		v.Unstable = fmt.Sprintf("the contract held when the agent stopped but not %s (%s): a transient state never passes", ahead, v.FailedClause())
	}
	return v
}

// evaluate judges one state.
func evaluate(p Postconditions, obs Observation, classes Classes) Verdict {
	e := &evaluator{obs: obs, classes: classes, evidence: make([]Evidence, 0, len(p))}
	v := Verdict{Passed: true}
	if len(p) == 0 {
		v.Passed = false
		v.FailedPath = "postconditions"
		v.Evidence = e.evidence
		return v
	}
	for i, c := range p {
		r := e.eval(c, problem.Index("postconditions", i))
		if !r.ok && v.Passed {
			v.Passed = false
			v.FailedPath, v.FailedKind = r.path, r.kind
		}
	}
	if e.undecided != nil {
		v.Passed, v.Undecided = false, true
		v.FailedPath, v.FailedKind = e.undecided.path, e.undecided.kind
	}
	v.Evidence = e.evidence
	return v
}

// evaluator carries one evaluation's state: the evidence so far, the first
// leaf the Observation could not decide, and the folded texts, which
// several dom_text clauses on the same selector share.
type evaluator struct {
	obs       Observation
	classes   Classes
	folded    map[[2]string][]string
	evidence  []Evidence
	undecided *result
}

// result is a clause's outcome and, when it failed, the clause that
// explains the failure.
type result struct {
	ok   bool
	path string
	kind Kind
}

func (e *evaluator) eval(c Clause, path string) result {
	switch c := c.(type) {
	case *And:
		for i, ch := range c.Children {
			if r := e.eval(ch, problem.Index(path+".children", i)); !r.ok {
				return r
			}
		}
		return result{ok: len(c.Children) > 0, path: path, kind: KindAnd}
	case *Or:
		ok := false
		for i, ch := range c.Children {
			// No short cut: when every alternative fails, the report
			// needs each one's evidence.
			if e.eval(ch, problem.Index(path+".children", i)).ok {
				ok = true
			}
		}
		return result{ok: ok, path: path, kind: KindOr}
	case *Not:
		ok := c.Child != nil && !e.eval(c.Child, path+".child").ok
		return result{ok: ok, path: path, kind: KindNot}
	case *URL:
		return e.record(path, KindURL, e.url(c))
	case *DOMText:
		return e.record(path, KindDOMText, e.domText(c))
	case *DOMCount:
		return e.record(path, KindDOMCount, e.domCount(c))
	case *Network:
		return e.record(path, KindNetwork, e.network(c))
	case *ScreenshotClass:
		return e.record(path, KindScreenshotClass, e.screenshot(c))
	case *NoDialog:
		return e.record(path, KindNoDialog, e.noDialog())
	default: // nil: only a hand-built contract has one
		return e.record(path, "", check{expected: "a clause", seen: "nil clause"})
	}
}

// check is the outcome of one leaf. An undecided check is not ok, and
// fails the whole verdict.
type check struct {
	ok, undecided  bool
	expected, seen string
}

func (e *evaluator) record(path string, kind Kind, c check) result {
	e.evidence = append(e.evidence, Evidence{
		Path:     path,
		Kind:     kind,
		Passed:   c.ok,
		Expected: problem.Bound(c.expected, maxSeen),
		Seen:     problem.Bound(c.seen, maxSeen),
	})
	r := result{ok: c.ok, path: path, kind: kind}
	if c.undecided && e.undecided == nil {
		e.undecided = &r
	}
	return r
}

func pass(expected, seen string) check { return check{ok: true, expected: expected, seen: seen} }
func fail(expected, seen string) check { return check{expected: expected, seen: seen} }

func (e *evaluator) url(c *URL) check {
	expected := "URL matches " + c.Pattern
	seen := e.obs.URL
	if seen == "" {
		seen = "(no URL)"
	}
	re, err := regexp.Compile(c.Pattern)
	if err != nil {
		// Only a hand-built clause gets here; decoding rejects it.
		return fail(expected, "invalid pattern: "+err.Error())
	}
	return check{ok: re.MatchString(e.obs.URL), expected: expected, seen: seen}
}

// elements returns what the judge read of sel on page ("" the agent's
// active page), and onPage to put before the evidence: the page read.
// missing, when not "", says why the Observation has no answer. A
// selector the judge did not capture is not the same as one that matched
// nothing, and a page it could not read shows nothing either way: such a
// clause cannot be decided (counting 0 would let `eq 0`, or a not around
// the clause, pass on an incomplete observation).
func (e *evaluator) elements(page, sel string) (el Elements, onPage, missing string) {
	if page == "" {
		el, ok := e.obs.Elements[sel]
		if !ok {
			return el, "", "selector " + sel + " missing from the observation"
		}
		return el, "", ""
	}
	r, ok := e.obs.Pages[page]
	switch {
	case !ok:
		return el, "", "the page " + page + " missing from the observation"
	case r.Error != "":
		return el, "", "the judge could not read " + page + ": " + r.Error
	}
	onPage = "on " + page
	if r.URL != "" && r.URL != page {
		onPage += " (read at " + r.URL + ")"
	}
	if el, ok = r.Elements[sel]; !ok {
		return el, "", "selector " + sel + " " + onPage + " missing from the observation"
	}
	return el, onPage + ", ", ""
}

// onPageOf says, for a clause's expectation, which page it reads.
func onPageOf(page string) string {
	if page == "" {
		return ""
	}
	return " on " + page + " (opened by the judge)"
}

func (e *evaluator) domText(c *DOMText) check {
	sel := c.selector()
	want := FoldSpace(c.Contains)
	expected := fmt.Sprintf("visible text of %s%s contains %q", sel, onPageOf(c.Page), want)
	el, on, missing := e.elements(c.Page, sel)
	if missing != "" {
		return check{undecided: true, expected: expected, seen: missing}
	}
	if el.Count == 0 {
		return fail(expected, on+"no visible element matches "+sel+hiddenNote(el))
	}
	if want == "" {
		return fail(expected, "nothing to look for: contains is empty")
	}
	// The judge's answer, found over every match and all of its text.
	if hit, ok := el.Contains[want]; ok {
		if hit.Match > 0 {
			return pass(expected, fmt.Sprintf("%s%s: %s; match %d: %s", on, sel, plural(el.Count, "match", "matches"), hit.Match, strconv.Quote(hit.Excerpt)))
		}
		if el.TextsCut {
			return fail(expected, fmt.Sprintf("%s%s: %s, searched in full, none contains it; the texts kept here are cut", on, sel, plural(el.Count, "match", "matches")))
		}
	} else if el.TextsCut {
		return check{undecided: true, expected: expected, seen: fmt.Sprintf(
			"%s%s: %s; the observation kept only part of their text and has no answer for this string, so the clause cannot be decided from it", on, sel, plural(el.Count, "match", "matches"))}
	}
	texts := e.foldedTexts(c.Page, sel, el)
	if len(texts) == 0 {
		return fail(expected, fmt.Sprintf("%s%s: %s, no visible text", on, sel, plural(el.Count, "match", "matches")))
	}
	for i, t := range texts {
		if at := strings.Index(t, want); at >= 0 {
			return pass(expected, fmt.Sprintf("%s%s: %s; match %d: %s", on, sel, plural(el.Count, "match", "matches"), i+1, strconv.Quote(excerpt(t, at, len(want)))))
		}
	}
	// Show the text that came closest: the longest prefix of want found
	// anywhere, or the start of the first match when not even one
	// character was.
	best, bestN, bestAt := 0, 0, -1
	for i, t := range texts {
		if n, at := longestPrefix(t, want); n > bestN {
			best, bestN, bestAt = i, n, at
		}
	}
	if bestN == 0 {
		return fail(expected, fmt.Sprintf("%s%s: %s; match 1 begins: %s", on, sel, plural(el.Count, "match", "matches"), strconv.Quote(excerpt(texts[0], 0, 0))))
	}
	return fail(expected, fmt.Sprintf("%s%s: %s; longest part found is %q, in match %d: %s",
		on, sel, plural(el.Count, "match", "matches"), want[:bestN], best+1, strconv.Quote(excerpt(texts[best], bestAt, bestN))))
}

func (e *evaluator) foldedTexts(page, sel string, el Elements) []string {
	key := [2]string{page, sel}
	if t, ok := e.folded[key]; ok {
		return t
	}
	t := make([]string, len(el.Texts))
	for i, s := range el.Texts {
		t[i] = FoldSpace(s)
	}
	if e.folded == nil {
		e.folded = make(map[[2]string][]string)
	}
	e.folded[key] = t
	return t
}

func (e *evaluator) domCount(c *DOMCount) check {
	sym, _, known := c.Op.compare(0, c.Value)
	expected := fmt.Sprintf("count of %s%s %s %d", c.Selector, onPageOf(c.Page), sym, c.Value)
	if !known {
		return fail(expected, fmt.Sprintf("unknown op %q", c.Op))
	}
	el, on, missing := e.elements(c.Page, c.Selector)
	if missing != "" {
		return check{undecided: true, expected: expected, seen: missing}
	}
	_, holds, _ := c.Op.compare(el.Count, c.Value)
	return check{ok: holds, expected: expected, seen: on + "count " + strconv.Itoa(el.Count) + hiddenNote(el)}
}

// hiddenNote says how many matches were left out as not seen.
func hiddenNote(el Elements) string {
	if el.Hidden == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d more in the document but not visible, not counted)", el.Hidden)
}

// maxListed bounds how many network entries or dialogs evidence lists.
const maxListed = 5

func (e *evaluator) network(c *Network) check {
	since := c.since()
	count := c.count()
	window := "after the agent's first tool call"
	if since == SinceLastToolCall {
		window = "after the last tool call"
	}
	expected := networkExpected(c, count) + ", " + window
	if _, _, known := count.Op.compare(0, count.Value); !known {
		return fail(expected, fmt.Sprintf("unknown count op %q", count.Op))
	}

	re, err := regexp.Compile(c.URLPattern)
	if err != nil {
		return fail(expected, "invalid url_pattern: "+err.Error())
	}
	body, err := newBodyCheck(c)
	if err != nil {
		return fail(expected, err.Error())
	}
	t := tallyNetwork(e.obs.Network, c, since, re, body)

	// A body the judge cut, or a status it never saw, could be a match or
	// not: the number of matches is somewhere from len(hits) to
	// len(hits)+cut+pending, and the clause is decided only when the count
	// holds, or fails, over all of it.
	holds, decided := count.decide(len(t.hits), len(t.hits)+t.cut+t.pending)
	seen := t.seen(c, body, window)
	if !decided {
		return check{undecided: true, expected: expected, seen: t.undecided(seen)}
	}
	return check{ok: holds, expected: expected, seen: seen}
}

// networkExpected says what a network clause asks for, but for its window.
func networkExpected(c *Network, count Count) string {
	var exp strings.Builder
	if c.Count == nil {
		exp.WriteString("a request")
	} else {
		exp.WriteString(count.quantity())
	}
	if c.Method != "" {
		exp.WriteString(" " + strings.ToUpper(c.Method))
	}
	fmt.Fprintf(&exp, " to %s with status in %s", c.URLPattern, statusList(c.StatusIn))
	if c.BodyPattern != "" {
		fmt.Fprintf(&exp, ", body matching %s", c.BodyPattern)
	}
	if len(c.Form) > 0 {
		fmt.Fprintf(&exp, ", form %s", formList(c.Form))
	}
	if len(c.FormTrim) > 0 {
		fmt.Fprintf(&exp, " (trimmed: %s)", strings.Join(c.FormTrim, ", "))
	}
	if len(c.FormFoldCase) > 0 {
		fmt.Fprintf(&exp, " (in any case: %s)", strings.Join(c.FormFoldCase, ", "))
	}
	return exp.String()
}

// networkTally sorts the observed requests for one network clause, so the
// evidence can say how close they came when none matches.
type networkTally struct {
	// URL matches outside the window: beforeAgent, made before the
	// agent's first tool call or fetched ahead; earlier, made before the
	// last tool call when the window starts there.
	beforeAgent, earlier int
	inWindow, urlMatch   int // requests in the window, and those of them that match the URL pattern
	// cut counts the requests that could match but for a body the judge
	// cut; pending, those that could match but for a status the judge
	// never saw (no response and no error: still in flight, or ended
	// without the browser reporting how).
	cut, pending int
	near         []NetworkEntry // url matches in the window that fail on status, method or body
	nearWhy      []string       // per near entry, what its body lacked ("" when status or method failed)
	hits         []NetworkEntry
}

// tallyNetwork sorts entries by whether they fall in the clause's window
// and match its URL pattern, then by how far each of those matches.
func tallyNetwork(entries []NetworkEntry, c *Network, since Since, re *regexp.Regexp, body bodyCheck) networkTally {
	var t networkTally
	for _, n := range entries {
		matchesURL := re.MatchString(n.URL)
		if n.BeforeFirstToolCall || n.Speculative {
			if matchesURL {
				t.beforeAgent++
			}
			continue
		}
		if since == SinceLastToolCall && !n.AfterLastToolCall {
			if matchesURL {
				t.earlier++
			}
			continue
		}
		t.inWindow++
		if matchesURL {
			t.urlMatch++
			t.add(n, c, body)
		}
	}
	return t
}

// add sorts a request in the window that matches the URL pattern: a hit,
// one that could be a hit but for what the judge did not see, or a near
// miss with what it lacked.
func (t *networkTally) add(n NetworkEntry, c *Network, body bodyCheck) {
	statusOK := slices.Contains(c.StatusIn, n.Status)
	unseen := !statusOK && n.Status == 0 && n.Error == ""
	if !statusOK && !unseen || c.Method != "" && !strings.EqualFold(c.Method, n.Method) {
		t.near, t.nearWhy = append(t.near, n), append(t.nearWhy, "")
		return
	}
	why := body.mismatch(n)
	switch {
	case why == "" && !unseen:
		t.hits = append(t.hits, n)
		return
	case why != "" && n.BodyTruncated:
		t.cut++ // the part cut off could match
	case why == "":
		t.pending++ // the status never seen could be a wanted one
		why = "no response seen"
	}
	t.near, t.nearWhy = append(t.near, n), append(t.nearWhy, why)
}

// seen describes the matching requests or, with none, the nearest the
// observation holds.
func (t networkTally) seen(c *Network, body bodyCheck, window string) string {
	switch {
	case len(t.hits) > 0 && c.Count == nil:
		seen := describeRequest(t.hits[0])
		if len(t.hits) > 1 {
			seen += fmt.Sprintf(" (+%d more matching)", len(t.hits)-1)
		}
		return seen
	case len(t.hits) > 0:
		return fmt.Sprintf("%s %s: %s", plural(len(t.hits), "request matches", "requests match"), window, listRequests(t.hits, nil))
	case t.urlMatch == 0:
		seen := fmt.Sprintf("none of %s %s matches the URL pattern", plural(t.inWindow, "request", "requests"), window)
		if t.earlier > 0 {
			seen += fmt.Sprintf("; %s before the last tool call did", plural(t.earlier, "request", "requests"))
		}
		if t.beforeAgent > 0 {
			seen += fmt.Sprintf("; %s made before the agent's first tool call or fetched ahead by the browser did, which never count", plural(t.beforeAgent, "request", "requests"))
		}
		return seen
	}
	wanted := "a wanted status and method"
	if body.active() {
		wanted = "a wanted status, method and body"
	}
	return fmt.Sprintf("URL pattern matched by %s %s, none with %s: %s", plural(t.urlMatch, "request", "requests"), window, wanted, listRequests(t.near, t.nearWhy))
}

// undecided puts before seen the requests that could match but for what
// the judge cut or never saw.
func (t networkTally) undecided(seen string) string {
	var could []string
	if t.cut > 0 {
		could = append(could, fmt.Sprintf("%s with a body longer than the %d bytes the judge keeps", plural(t.cut, "request", "requests"), MaxBodyBytes))
	}
	if t.pending > 0 {
		could = append(could, fmt.Sprintf("%s whose response the judge never saw", plural(t.pending, "request", "requests")))
	}
	return fmt.Sprintf("undecided: %s could match; %s", strings.Join(could, " and "), seen)
}

// listRequests describes up to maxListed requests, each followed by its
// reason when why has one.
func listRequests(ns []NetworkEntry, why []string) string {
	var b strings.Builder
	for i, n := range ns[:min(len(ns), maxListed)] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(describeRequest(n))
		if i < len(why) && why[i] != "" {
			b.WriteString(", " + why[i])
		}
	}
	if len(ns) > maxListed {
		fmt.Fprintf(&b, "; +%d more", len(ns)-maxListed)
	}
	return b.String()
}

func describeRequest(n NetworkEntry) string {
	switch {
	case n.Status != 0:
		return fmt.Sprintf("%s %s (%d)", n.Method, n.URL, n.Status)
	case n.Error != "":
		return fmt.Sprintf("%s %s (failed: %s)", n.Method, n.URL, n.Error)
	default:
		return fmt.Sprintf("%s %s (no response)", n.Method, n.URL)
	}
}

func (e *evaluator) screenshot(c *ScreenshotClass) check {
	expected := fmt.Sprintf("screenshot within Hamming distance %d of class %q", c.DistanceMax, c.ClassID)
	ph := e.obs.Screenshot.PHash
	switch {
	case errorPageUndrawn(e.obs):
		return check{undecided: true, expected: expected, seen: "undecided: the page could not be loaded (" + e.obs.URL +
			"), and a headless shell draws nothing where Chromium draws its error page, so the class cannot be told from the pixels"}
	case ph == "" && len(e.obs.Screenshot.PNG) > 0:
		return fail(expected, "screenshot has no phash")
	case ph == "":
		return fail(expected, "no screenshot in the observation")
	case e.classes == nil:
		return fail(expected, "no screenshot classes loaded")
	}
	hash, err := strconv.ParseUint(ph, 16, 64)
	if err != nil || len(ph) != 16 {
		return fail(expected, fmt.Sprintf("invalid phash %q (want 16 hex digits)", ph))
	}
	d, ok := e.classes.Distance(c.ClassID, hash)
	if !ok {
		return fail(expected, fmt.Sprintf("screenshot class %q not loaded", c.ClassID))
	}
	return check{ok: d <= c.DistanceMax, expected: expected, seen: fmt.Sprintf("distance %d (phash %s)", d, ph)}
}

// errorPageUndrawn reports whether obs is of a page that could not be
// loaded (its document is Chromium's chrome-error://), seen in a headless
// shell: the full browser draws its network error page there, the shell an
// empty document, so the screenshot says nothing of what a person would
// have seen (docs/decisions/0041-the-headless-shell.md).
func errorPageUndrawn(obs Observation) bool {
	return strings.HasPrefix(obs.Browser, "HeadlessChrome/") && strings.HasPrefix(obs.URL, "chrome-error:")
}

func (e *evaluator) noDialog() check {
	const expected = "no dialog opened"
	ds := e.obs.Dialogs
	if len(ds) == 0 {
		return pass(expected, "no dialog")
	}
	var b strings.Builder
	if len(ds) == 1 {
		b.WriteString("1 dialog: ")
	} else {
		fmt.Fprintf(&b, "%d dialogs: ", len(ds))
	}
	for i, d := range ds[:min(len(ds), maxListed)] {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %q", d.Type, problem.Bound(d.Message, 80))
		if d.Open {
			b.WriteString(" (still open)")
		}
	}
	if len(ds) > maxListed {
		fmt.Fprintf(&b, "; +%d more", len(ds)-maxListed)
	}
	return fail(expected, b.String())
}

// plural says n of something, in the singular (one) or the plural (many).
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func statusList(s []int) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = strconv.Itoa(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
