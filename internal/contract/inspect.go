package contract

import (
	"maps"
	"slices"
	"strings"
)

// Query is what the judge must find out about one selector for a contract
// to be evaluated completely: its matches, and for each string a dom_text
// clause looks for in them, whether any match's text contains it. The
// judge answers Contains over every match and the whole of each text, so a
// verdict never depends on how much text an Observation keeps.
type Query struct {
	Selector string `json:"selector"`
	// Contains holds the strings to look for, white space folded (as
	// Evaluate compares them), sorted and without duplicates.
	Contains []string `json:"contains,omitempty"`
}

// Queries returns what the judge must read on the agent's active page for
// p to be evaluated (Observation.Elements): one Query per selector of the
// dom_text and dom_count clauses that name no page (a dom_text without a
// selector reads DefaultSelector), sorted by selector, each with the
// folded strings p's dom_text clauses look for in it.
func Queries(p Postconditions) []Query {
	return queriesOn(p, "")
}

// PageRead is a page a contract's clauses name (their page), and what the
// judge must read there.
type PageRead struct {
	URL     string  `json:"url"`
	Queries []Query `json:"queries"`
}

// PageReads returns the pages p's dom_text and dom_count clauses name,
// sorted by URL, each with its queries as Queries gives them for the
// active page: what the judge reads in a tab of its own after the agent
// stopped (Observation.Pages).
func PageReads(p Postconditions) []PageRead {
	var urls []string
	walk(p, func(c Clause) {
		if page := clausePage(c); page != "" {
			urls = append(urls, page)
		}
	})
	var out []PageRead
	for _, u := range sortedSet(urls) {
		out = append(out, PageRead{URL: u, Queries: queriesOn(p, u)})
	}
	return out
}

// clausePage is the page a dom_text or dom_count clause reads; "" for the
// active page and for every other kind.
func clausePage(c Clause) string {
	switch c := c.(type) {
	case *DOMText:
		return c.Page
	case *DOMCount:
		return c.Page
	}
	return ""
}

// queriesOn returns the queries of the clauses of p that read page ("" the
// active page).
func queriesOn(p Postconditions, page string) []Query {
	needles := make(map[string][]string)
	walk(p, func(c Clause) {
		if clausePage(c) != page {
			return
		}
		switch c := c.(type) {
		case *DOMText:
			sel := c.selector()
			needles[sel] = append(needles[sel], FoldSpace(c.Contains))
		case *DOMCount:
			needles[c.Selector] = append(needles[c.Selector], "")
		}
	})
	out := make([]Query, 0, len(needles))
	for _, sel := range sortedSet(slices.Collect(maps.Keys(needles))) {
		q := Query{Selector: sel}
		if n := slices.DeleteFunc(needles[sel], func(s string) bool { return s == "" }); len(n) > 0 {
			q.Contains = sortedSet(n)
		}
		out = append(out, q)
	}
	return out
}

// NeedsScreenshotClass reports whether p has a screenshot_class clause, so
// a judge knows whether every state it evaluates needs a screenshot.
func NeedsScreenshotClass(p Postconditions) bool {
	return len(ClassIDs(p)) > 0
}

// ClassIDs returns the screenshot classes p names, sorted and without
// duplicates, so a caller can load exactly those before evaluating.
func ClassIDs(p Postconditions) []string {
	var out []string
	walk(p, func(c Clause) {
		if c, ok := c.(*ScreenshotClass); ok {
			out = append(out, c.ClassID)
		}
	})
	return sortedSet(out)
}

// walk calls visit for every clause of p, parents before children.
func walk(p Postconditions, visit func(Clause)) {
	var rec func(c Clause)
	rec = func(c Clause) {
		if c == nil {
			return
		}
		visit(c)
		switch c := c.(type) {
		case *And:
			for _, ch := range c.Children {
				rec(ch)
			}
		case *Or:
			for _, ch := range c.Children {
				rec(ch)
			}
		case *Not:
			rec(c.Child)
		}
	}
	for _, c := range p {
		rec(c)
	}
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// writeMethods are the HTTP methods that change a site's state.
var writeMethods = []string{"POST", "PUT", "PATCH", "DELETE"}

// IsWrite reports whether an HTTP method changes a site's state (POST, PUT,
// PATCH or DELETE, in any case).
func IsWrite(method string) bool {
	return slices.Contains(writeMethods, strings.ToUpper(method))
}

// RequiresWrite reports whether p holds only if the browser sent a write
// request: a network clause with a write method (IsWrite) that p needs
// whatever else holds, at the top level or inside an and. A write inside an
// or or a not is one way among others, or forbidden, never required.
func RequiresWrite(p Postconditions) bool {
	var rec func(c Clause) bool
	rec = func(c Clause) bool {
		switch c := c.(type) {
		case *Network:
			_, zero, _ := c.count().Op.compare(0, c.count().Value)
			return IsWrite(c.Method) && !zero
		case *And:
			return slices.ContainsFunc(c.Children, rec)
		}
		return false
	}
	return slices.ContainsFunc(p, rec)
}
