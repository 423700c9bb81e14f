package contract

import (
	"slices"
)

// Selectors returns the CSS selectors whose matches the judge must capture
// in Observation.Elements for p to be evaluated: every dom_text selector
// (DefaultSelector when none is named) and every dom_count selector, sorted
// and without duplicates.
func Selectors(p Postconditions) []string {
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
