package contract

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"contractbench/internal/problem"
)

// maxDepth bounds how deeply clauses may nest. Real contracts use two or
// three levels; the bound keeps a hostile document from costing more than
// it is worth.
const maxDepth = 32

// DecodePostconditions decodes and validates the sequence node n, the value
// of a task's postconditions key. path prefixes every error path, normally
// "postconditions". Decoding works on the node rather than on bytes so that
// every error carries the line it comes from, and so a task loader can hand
// over the subtree of its own document.
//
// Every problem is collected in one pass. When there is any, the returned
// Postconditions is nil. Defaults are filled in (a dom_text selector of
// DefaultSelector, a network since of SinceTaskStart), so the result is
// canonical.
func DecodePostconditions(n *yaml.Node, path string) (Postconditions, Errors) {
	d := &decoder{}
	p := d.postconditions(n, path)
	if errs := d.result(); errs != nil {
		return nil, errs
	}
	return p, nil
}

// Parse decodes a standalone contract document: a YAML or JSON mapping
// whose only key is postconditions. JSON is read by the YAML parser, so
// both formats go through one decoder and report errors the same way.
// Every problem, a syntax error included, is returned as Errors.
func Parse(data []byte) (Postconditions, error) {
	d := &decoder{}
	var p Postconditions
	if root := d.Document(data); root != nil {
		if m, ok := d.Mapping(root, ""); ok {
			if n := m.Get("postconditions"); n != nil {
				p = d.postconditions(n, "postconditions")
			} else {
				d.Add(root, "postconditions", "missing: a contract document is a mapping with the key postconditions")
			}
			m.Done()
		}
	}
	if errs := d.result(); errs != nil {
		return nil, errs
	}
	return p, nil
}

// UnmarshalJSON decodes the canonical form MarshalJSON writes (a JSON array
// of clauses) with the same decoder and validation as Parse.
func (p *Postconditions) UnmarshalJSON(data []byte) error {
	d := &decoder{}
	var dec Postconditions
	if root := d.Document(data); root != nil {
		dec = d.postconditions(root, "postconditions")
	}
	if errs := d.result(); errs != nil {
		return errs
	}
	*p = dec
	return nil
}

// decoder walks a contract's YAML tree with the problem package's decoding
// kit, which records every problem and carries on, so one pass finds
// everything.
type decoder struct {
	problem.Collector
}

// result returns the problems in source order as Errors, or nil.
func (d *decoder) result() Errors {
	ps := d.Result()
	if ps == nil {
		return nil
	}
	errs := make(Errors, len(ps))
	for i, p := range ps {
		errs[i] = FieldError{Path: p.Path, Line: p.Line, Msg: p.Msg}
	}
	return errs
}

func (d *decoder) postconditions(n *yaml.Node, path string) Postconditions {
	if n == nil {
		d.Add(nil, path, "missing")
		return nil
	}
	items, ok := d.Seq(n, path)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		d.Add(n, path, "empty: a contract must check at least one thing")
		return nil
	}
	p := make(Postconditions, 0, len(items))
	for i, item := range items {
		p = append(p, d.clause(item, problem.Index(path, i), 1))
	}
	return p
}

func (d *decoder) clause(n *yaml.Node, path string, depth int) Clause {
	if depth > maxDepth {
		d.Add(n, path, "clauses nested deeper than %d levels", maxDepth)
		return nil
	}
	m, ok := d.Mapping(n, path)
	if !ok {
		return nil
	}
	f := &fields{Mapping: m, d: d}
	kind, ok := f.kind()
	if !ok {
		// Without a kind the other fields mean nothing; reporting them
		// as unknown would only add noise.
		return nil
	}
	var c Clause
	switch kind {
	case KindURL:
		c = &URL{Pattern: f.regexp("pattern")}
	case KindDOMText:
		dt := &DOMText{Selector: f.selector("selector", false), Contains: f.text("contains", true), Page: f.page("page")}
		if dt.Selector == "" {
			dt.Selector = defaultSelector
		}
		c = dt
	case KindDOMCount:
		dc := &DOMCount{Selector: f.selector("selector", true), Page: f.page("page")}
		dc.Op, dc.Value = f.comparison()
		c = dc
	case KindNetwork:
		nw := &Network{
			URLPattern: f.regexp("url_pattern"),
			StatusIn:   f.statuses("status_in"),
			Method:     f.text("method", false),
			Since:      Since(f.oneOf("since", false, string(SinceTaskStart), string(SinceLastToolCall))),
		}
		if f.Get("body_pattern") != nil {
			nw.BodyPattern = f.regexp("body_pattern")
		}
		nw.Form = f.form("form")
		nw.FormTrim = f.formFields("form_trim", nw.Form)
		nw.FormFoldCase = f.formFields("form_fold_case", nw.Form)
		nw.Count = f.count("count")
		if nw.Since == "" {
			nw.Since = SinceTaskStart
		}
		if !isToken(nw.Method) {
			// A stray space or quote would make the clause unsatisfiable
			// without anyone noticing.
			d.Add(f.Get("method"), problem.Join(path, "method"), "%q is not an HTTP method", problem.Bound(nw.Method, 40))
		}
		c = nw
	case KindScreenshotClass:
		sc := &ScreenshotClass{ClassID: f.text("class_id", true)}
		if v, vn, ok := f.integer("distance_max"); ok {
			if v < 0 || v > 64 {
				d.Add(vn, problem.Join(path, "distance_max"), "%d outside 0..64 (a pHash has 64 bits)", v)
			}
			sc.DistanceMax = v
		}
		c = sc
	case KindNoDialog:
		c = &NoDialog{}
	case KindAnd:
		c = &And{Children: f.children("children", depth)}
	case KindOr:
		c = &Or{Children: f.children("children", depth)}
	case KindNot:
		c = &Not{Child: f.child("child", depth)}
	}
	f.Done()
	return c
}

// fields is one clause's mapping. The clause decoder asks for each field
// it knows; whatever it never asked for is unknown (Mapping.Done), so the
// list of accepted fields lives in exactly one place, the decoder itself.
type fields struct {
	*problem.Mapping
	d          *decoder
	clauseKind Kind
}

// field returns the value of a field, required or not; nil when it is
// absent (a required one is recorded as missing).
func (f *fields) field(name string, required bool) *yaml.Node {
	if required {
		return f.Need(name)
	}
	return f.Get(name)
}

func (f *fields) kind() (Kind, bool) {
	n := f.Get("kind")
	p := problem.Join(f.Path, "kind")
	if n == nil {
		f.d.Add(f.Node, p, "missing: every clause needs a kind (%s)", kindList())
		return "", false
	}
	s, ok := f.d.Str(n, p)
	if !ok {
		return "", false
	}
	if !slices.Contains(kinds, Kind(s)) {
		f.d.Add(n, p, "unknown kind %q (want one of %s)", problem.Bound(s, 40), kindList())
		return "", false
	}
	f.clauseKind = Kind(s)
	return f.clauseKind, true
}

// text returns a non-empty string field; "" when it is absent or invalid
// (the problem is recorded). TrimSpace, which the kit's Text uses, and
// FoldSpace agree on what white space is, so a value that passes here is
// not empty after folding either.
func (f *fields) text(name string, required bool) string {
	n := f.field(name, required)
	if n == nil {
		return ""
	}
	return f.d.Text(n, problem.Join(f.Path, name))
}

// selector returns a field holding a CSS selector, refusing one whose
// syntax is broken in a way no browser accepts (see checkSelector).
func (f *fields) selector(name string, required bool) string {
	sel := f.text(name, required)
	if sel == "" {
		return ""
	}
	if msg := checkSelector(sel); msg != "" {
		f.d.Add(f.Get(name), problem.Join(f.Path, name), "%q is not a valid CSS selector: %s", problem.Bound(sel, 80), msg)
		return ""
	}
	return sel
}

// checkSelector finds the syntax errors of a selector that are certain
// without a full CSS parser: brackets, parentheses and quotes that do not
// close (h1[, a:not(.x), [title="x]), a closer without its opener, and a
// combinator or comma with nothing after it (ul >, h1,). Chromium remains
// the final parser: a selector that passes here and is still rejected is
// reported by the judge as the clause's evidence.
func checkSelector(sel string) string {
	var open []rune // unclosed [ and (
	var quote rune
	for i := 0; i < len(sel); i++ {
		c := rune(sel[i])
		switch {
		case c == '\\':
			i++ // the next character is escaped
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '(':
			open = append(open, c)
		case c == ']' || c == ')':
			want := map[rune]rune{']': '[', ')': '('}[c]
			if len(open) == 0 || open[len(open)-1] != want {
				return fmt.Sprintf("%q at byte %d closes nothing", c, i)
			}
			open = open[:len(open)-1]
		}
	}
	switch {
	case quote != 0:
		return fmt.Sprintf("the quote %q is not closed", quote)
	case len(open) > 0:
		return fmt.Sprintf("%q is not closed", open[len(open)-1])
	}
	if t := strings.TrimSpace(sel); strings.ContainsAny(t[len(t)-1:], ">+~,") {
		return fmt.Sprintf("it ends with %q", t[len(t)-1:])
	}
	return ""
}

// page returns an optional field naming a page the judge opens itself: an
// absolute http or https URL with a host.
func (f *fields) page(name string) string {
	s := f.text(name, false)
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		f.d.Add(f.Get(name), problem.Join(f.Path, name), "%q is not a URL: %v", problem.Bound(s, 80), errors.Unwrap(err))
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		f.d.Add(f.Get(name), problem.Join(f.Path, name), "%q is not an absolute http or https URL: the judge opens it in a tab of its own", problem.Bound(s, 80))
	default:
		return s
	}
	return ""
}

// regexp returns a required field holding an RE2 regular expression that
// compiles.
func (f *fields) regexp(name string) string {
	s := f.text(name, true)
	if s == "" {
		return ""
	}
	if _, err := regexp.Compile(s); err != nil {
		msg := err.Error()
		if se, ok := errors.AsType[*syntax.Error](err); ok {
			msg = se.Code.String()
		}
		f.d.Add(f.Get(name), problem.Join(f.Path, name), "invalid regexp %q: %s", problem.Bound(s, 80), msg)
		return ""
	}
	return s
}

func (f *fields) oneOf(name string, required bool, allowed ...string) string {
	s := f.text(name, required)
	if s == "" || slices.Contains(allowed, s) {
		return s
	}
	f.d.Add(f.Get(name), problem.Join(f.Path, name), "%q is not one of %s", problem.Bound(s, 40), strings.Join(allowed, ", "))
	return ""
}

// comparison reads the op and value of a count, in this mapping.
func (f *fields) comparison() (Op, int) {
	op := Op(f.oneOf("op", true, string(OpEq), string(OpGTE), string(OpLTE)))
	v, vn, ok := f.integer("value")
	if ok && v < 0 {
		f.d.Add(vn, problem.Join(f.Path, "value"), "%d is negative: a count is never below 0", v)
	}
	return op, v
}

// count reads an optional mapping {op, value}: how many requests a
// network clause wants.
func (f *fields) count(name string) *Count {
	n := f.Get(name)
	if n == nil {
		return nil
	}
	m, ok := f.d.Mapping(n, problem.Join(f.Path, name))
	if !ok {
		return nil
	}
	inner := &fields{Mapping: m, d: f.d, clauseKind: f.clauseKind}
	var c Count
	c.Op, c.Value = inner.comparison()
	inner.Done()
	return &c
}

func (f *fields) integer(name string) (int, *yaml.Node, bool) {
	n := f.Need(name)
	if n == nil {
		return 0, nil, false
	}
	v, ok := f.d.Int(n, problem.Join(f.Path, name))
	return v, n, ok
}

// list returns the items of a required, non-empty list field; what says
// what an empty one lacks.
func (f *fields) list(name, what string) ([]*yaml.Node, string, bool) {
	n := f.Need(name)
	p := problem.Join(f.Path, name)
	if n == nil {
		return nil, p, false
	}
	items, ok := f.d.Seq(n, p)
	if !ok {
		return nil, p, false
	}
	if len(items) == 0 {
		f.d.Add(n, p, "empty: %s", what)
		return nil, p, false
	}
	return items, p, true
}

func (f *fields) statuses(name string) []int {
	items, p, ok := f.list(name, "list at least one status code")
	if !ok {
		return nil
	}
	out := make([]int, 0, len(items))
	for i, item := range items {
		ip := problem.Index(p, i)
		v, ok := f.d.Int(item, ip)
		if !ok {
			continue
		}
		if v < 100 || v > 599 {
			f.d.Add(item, ip, "status %d outside 100..599", v)
		}
		out = append(out, v)
	}
	return out
}

// form returns an optional mapping of form field names to the exact
// values they must have; nil when absent.
func (f *fields) form(name string) map[string]string {
	n := f.Get(name)
	if n == nil {
		return nil
	}
	p := problem.Join(f.Path, name)
	pairs, ok := f.d.Pairs(n, p)
	if !ok {
		return nil
	}
	if len(pairs) == 0 {
		f.d.Add(n, p, "empty: name at least one form field, or leave form out")
		return nil
	}
	out := make(map[string]string, len(pairs))
	for _, kv := range pairs {
		if strings.TrimSpace(kv.Key) == "" {
			f.d.Add(kv.K, p, "a form field name is empty")
			continue
		}
		if v, ok := f.d.Str(kv.V, problem.Join(p, kv.Key)); ok {
			out[kv.Key] = v
		}
	}
	return out
}

// formFields returns an optional list of field names of form, each of
// which the clause's form must name.
func (f *fields) formFields(name string, form map[string]string) []string {
	n := f.Get(name)
	if n == nil {
		return nil
	}
	p := problem.Join(f.Path, name)
	names := f.d.Strings(n, p)
	for i, k := range names {
		if _, ok := form[k]; !ok && k != "" {
			f.d.Add(n, problem.Index(p, i), "%q is not a field of form", problem.Bound(k, 40))
		}
	}
	if len(names) == 0 {
		return nil
	}
	return sortedSet(names)
}

func (f *fields) children(name string, depth int) []Clause {
	items, p, ok := f.list(name, string(f.clauseKind)+" needs at least one clause")
	if !ok {
		return nil
	}
	out := make([]Clause, 0, len(items))
	for i, item := range items {
		out = append(out, f.d.clause(item, problem.Index(p, i), depth+1))
	}
	return out
}

func (f *fields) child(name string, depth int) Clause {
	n := f.Need(name)
	p := problem.Join(f.Path, name)
	if n == nil {
		return nil
	}
	if n.Kind == yaml.SequenceNode {
		f.d.Add(n, p, "expected exactly one clause (a mapping), got a list")
		return nil
	}
	return f.d.clause(n, p, depth+1)
}

// isToken reports whether s is empty or made of ASCII letters only, as
// every HTTP method in use is.
func isToken(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func kindList() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
