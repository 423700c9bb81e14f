package contract

import (
	"slices"
)

// selectorsOf returns the CSS selectors whose matches the judge must capture
// in Observation.Elements for p to be evaluated: every dom_text selector
// (DefaultSelector when none is named) and every dom_count selector, sorted
// and without duplicates.
func selectorsOf(p Postconditions) []string {
	var out []string
	walk(p, func(c Clause) {
		switch c := c.(type) {
		case *DOMText:
			out = append(out, c.selector())
		case *DOMCount:
			out = append(out, c.Selector)
		}
	})
	return sortedSet(out)
}

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

// Queries returns one Query per selector of Selectors(p), in the same
// order, each with the folded strings p's dom_text clauses look for in it.
func Queries(p Postconditions) []Query {
	needles := make(map[string][]string)
	walk(p, func(c Clause) {
		switch c := c.(type) {
		case *DOMText:
			sel := c.selector()
			if want := FoldSpace(c.Contains); want != "" {
				needles[sel] = append(needles[sel], want)
			} else if _, ok := needles[sel]; !ok {
				needles[sel] = nil
			}
		case *DOMCount:
			if _, ok := needles[c.Selector]; !ok {
				needles[c.Selector] = nil
			}
		}
	})
	out := make([]Query, 0, len(needles))
	for _, sel := range selectorsOf(p) {
		q := Query{Selector: sel}
		if n := needles[sel]; len(n) > 0 {
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
