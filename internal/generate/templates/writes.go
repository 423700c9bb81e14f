package templates

import (
	"fmt"
	"regexp"
	"strings"

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

// trimmedField is a body pattern that matches a form field whose value
// the site stores trimmed: value, with any spaces before and after it, as
// a browser encodes a form (a space as + or %20, any other mark escaped
// or not).
func trimmedField(name, value string) string {
	var b strings.Builder
	for _, r := range value {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ':
			b.WriteString(`(?:\+|%20)`)
		default:
			var enc strings.Builder
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&enc, "%%%02X", c)
			}
			b.WriteString("(?:" + regexp.QuoteMeta(string(r)) + "|" + enc.String() + ")")
		}
	}
	space := `(?:\+|%20)*`
	return `(?:^|&)` + regexp.QuoteMeta(name) + "=" + space + b.String() + space + `(?:&|$)`
}

// postField holds when a write to a URL matching pattern carried field
// with value, as the site stores it (trimmed).
func postField(pattern, field, value string) *contract.Network {
	w := generate.Post(pattern, nil)
	w.BodyPattern = trimmedField(field, value)
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
