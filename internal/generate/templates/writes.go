package templates

import (
	"regexp"
	"slices"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
)

// writesOn holds when exactly n writes to host were accepted (form posts
// answered with the sites' 303). Beside a clause for each write a task
// asks for, it fails every other write: to any route, with any values, on
// any record, including routes added later.
func writesOn(host string, n int) *contract.Network {
	w := generate.Post("^https://"+regexp.QuoteMeta(host)+"/", nil)
	w.Count = &contract.Count{Op: contract.OpEq, Value: n}
	return w
}

// postField holds when a write to a URL matching pattern carried field
// with value, as the site stores it: trimmed.
func postField(pattern, field, value string) *contract.Network {
	return trimmed(generate.Post(pattern, map[string]string{field: value}))
}

// trimmed compares every field of w's form as the sites store them:
// without the spaces at their ends.
func trimmed(w *contract.Network) *contract.Network {
	for k := range w.Form {
		w.FormTrim = append(w.FormTrim, k)
	}
	slices.Sort(w.FormTrim)
	return w
}

// pathPattern matches the page at u whatever its query and fragment: a
// fragment never decides, and what a query parameter changes is for
// clauses on what the page shows to decide.
func pathPattern(u string) string { return "^" + regexp.QuoteMeta(u) + `(?:[?#].*)?$` }

// domClause is a clause that reads a page.
type domClause interface {
	*contract.DOMText | *contract.DOMCount
}

// onPage reads c on the page at u, which the judge opens itself after the
// agent stops: the state as the site shows it, wherever the agent ended.
func onPage[C domClause](u string, c C) C {
	switch c := any(c).(type) {
	case *contract.DOMText:
		c.Page = u
	case *contract.DOMCount:
		c.Page = u
	}
	return c
}
