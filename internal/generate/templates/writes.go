package templates

import (
	"regexp"
	"slices"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// writesOn holds when exactly n writes to host were accepted (form posts
// answered with the sites' 303). Beside a clause for each write a task
// asks for, it fails every other write: to any route, with any values, on
// any record, including routes added later.
func writesOn(host string, n int) *contract.Network {
	w := generate.Post("^"+regexp.QuoteMeta(sandbox.Base(host)), nil)
	w.Count = &contract.Count{Op: contract.OpEq, Value: n}
	return w
}

// posted holds when the site accepted (303) a write to rt on the record
// args carrying form's fields, each one the route reads.
func posted(rt sandbox.Route, form map[string]string, args ...string) *contract.Network {
	return generate.Post(generate.Exact(rt.URL(args...)), rt.Form(form))
}

// refused holds when the site answered a post to rt on the record args
// with status: the agent tried the write and the site said why not.
func refused(rt sandbox.Route, status int, args ...string) *contract.Network {
	return &contract.Network{URLPattern: generate.Exact(rt.URL(args...)), Method: rt.Method, StatusIn: []int{status}}
}

// refusedWith is refused, of a post carrying form's fields.
func refusedWith(rt sandbox.Route, status int, form map[string]string, args ...string) *contract.Network {
	n := refused(rt, status, args...)
	n.Form = rt.Form(form)
	return n
}

// at matches the page of rt on the record args whatever its query and
// fragment (see pathPattern).
func at(rt sandbox.Route, args ...string) string { return pathPattern(rt.URL(args...)) }

// postField holds when a write to rt on the record args carried field
// with value, as the site stores it: trimmed.
func postField(rt sandbox.Route, field, value string, args ...string) *contract.Network {
	return trimmed(posted(rt, map[string]string{field: value}, args...))
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

// look loads the page at u and reads it: an agent checking a result by
// reloading its page, or looking at it elsewhere.
func look(u string) []suite.Step { return []suite.Step{generate.Navigate(u), generate.Read()} }
