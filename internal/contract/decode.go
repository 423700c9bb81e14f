package contract

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
// The error is an Errors for a document that parses but is not a valid
// contract, and a syntax error naming the line otherwise.
func Parse(data []byte) (Postconditions, error) {
	root, err := parseYAML(data)
	if err != nil {
		return nil, err
	}
	d := &decoder{}
	var p Postconditions
	if f, ok := d.mapping(root, ""); ok {
		if n := f.get("postconditions"); n != nil {
			p = d.postconditions(n, "postconditions")
		} else {
			d.fail("postconditions", root, "missing: a contract document is a mapping with the key postconditions")
		}
		f.rejectUnknown("a contract document")
	}
	if errs := d.result(); errs != nil {
		return nil, errs
	}
	return p, nil
}

// UnmarshalJSON decodes the canonical form MarshalJSON writes (a JSON array
// of clauses) with the same decoder and validation as Parse.
func (p *Postconditions) UnmarshalJSON(data []byte) error {
	root, err := parseYAML(data)
	if err != nil {
		return err
	}
	dec, errs := DecodePostconditions(root, "postconditions")
	if errs != nil {
		return errs
	}
	*p = dec
	return nil
}

// parseYAML parses exactly one YAML (or JSON) document and returns its root
// node. A second document is an error rather than silently ignored: it is
// most likely a contract the author expected to be read.
func parseYAML(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, Errors{{Msg: "empty document"}}
		}
		return nil, fmt.Errorf("contract syntax: %w", err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, fmt.Errorf("contract syntax: %w", err)
	default:
		return nil, Errors{{Line: extra.Line, Msg: "a second YAML document: a contract is a single document"}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, Errors{{Line: doc.Line, Msg: "empty document"}}
	}
	return doc.Content[0], nil
}

// decoder accumulates errors while it walks a document; every method
// reports what it finds and carries on, so one pass finds everything.
type decoder struct {
	errs Errors
}

func (d *decoder) fail(path string, n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	d.errs = append(d.errs, FieldError{Path: path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// result returns the errors in source order, or nil. The walk reports a
// clause's unknown fields after its known ones, so sorting is what makes
// the list read top to bottom.
func (d *decoder) result() Errors {
	if len(d.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(d.errs, func(a, b FieldError) int { return cmp.Compare(a.Line, b.Line) })
	return d.errs
}

func (d *decoder) postconditions(n *yaml.Node, path string) Postconditions {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	items, ok := d.sequence(n, path)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		d.fail(path, n, "empty: a contract must check at least one thing")
		return nil
	}
	p := make(Postconditions, 0, len(items))
	for i, item := range items {
		p = append(p, d.clause(item, indexPath(path, i), 1))
	}
	return p
}

// noAlias reports an alias node as an error. Contracts are small, and an
// alias would let one clause appear under several paths, which makes error
// and evidence paths ambiguous.
func (d *decoder) noAlias(n *yaml.Node, path string) bool {
	if n.Kind == yaml.AliasNode {
		d.fail(path, n, "YAML aliases are not allowed in contracts")
		return false
	}
	return true
}

func (d *decoder) sequence(n *yaml.Node, path string) ([]*yaml.Node, bool) {
	if n == nil {
		d.fail(path, nil, "missing")
		return nil, false
	}
	if !d.noAlias(n, path) {
		return nil, false
	}
	if n.Kind != yaml.SequenceNode {
		d.fail(path, n, "expected a list, got %s", problem.Describe(n))
		return nil, false
	}
	return n.Content, true
}

func (d *decoder) mapping(n *yaml.Node, path string) (*fields, bool) {
	if !d.noAlias(n, path) {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		what := "a mapping"
		if path != "" {
			what = "a clause (a mapping with a kind)"
		}
		d.fail(path, n, "expected %s, got %s", what, problem.Describe(n))
		return nil, false
	}
	f := &fields{d: d, path: path, node: n, vals: make(map[string]*yaml.Node, len(n.Content)/2)}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			d.fail(path, k, "field names must be strings, got %s", problem.Describe(k))
			continue
		}
		if first, dup := f.vals[k.Value]; dup {
			d.fail(fieldPath(path, k.Value), k, "duplicate field (first on line %d)", first.Line)
			continue
		}
		f.vals[k.Value] = v
		f.keys = append(f.keys, k)
	}
	return f, true
}

func (d *decoder) clause(n *yaml.Node, path string, depth int) Clause {
	if depth > maxDepth {
		d.fail(path, n, "clauses nested deeper than %d levels", maxDepth)
		return nil
	}
	f, ok := d.mapping(n, path)
	if !ok {
		return nil
	}
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
		dt := &DOMText{Selector: f.selector("selector", false), Contains: f.text("contains", true)}
		if dt.Selector == "" {
			dt.Selector = DefaultSelector
		}
		c = dt
	case KindDOMCount:
		dc := &DOMCount{
			Selector: f.selector("selector", true),
			Op:       Op(f.oneOf("op", true, string(OpEq), string(OpGTE), string(OpLTE))),
		}
		if v, vn, ok := f.integer("value"); ok {
			if v < 0 {
				d.fail(fieldPath(path, "value"), vn, "%d is negative: a count is never below 0", v)
			}
			dc.Value = v
		}
		c = dc
	case KindNetwork:
		nw := &Network{
			URLPattern: f.regexp("url_pattern"),
			StatusIn:   f.statuses("status_in"),
			Method:     f.text("method", false),
			Since:      Since(f.oneOf("since", false, string(SinceTaskStart), string(SinceLastToolCall))),
		}
		if nw.Since == "" {
			nw.Since = SinceTaskStart
		}
		if !isToken(nw.Method) {
			// A stray space or quote would make the clause unsatisfiable
			// without anyone noticing.
			d.fail(fieldPath(path, "method"), f.vals["method"], "%q is not an HTTP method", problem.Bound(nw.Method, 40))
		}
		c = nw
	case KindScreenshotClass:
		sc := &ScreenshotClass{ClassID: f.text("class_id", true)}
		if v, vn, ok := f.integer("distance_max"); ok {
			if v < 0 || v > 64 {
				d.fail(fieldPath(path, "distance_max"), vn, "%d outside 0..64 (a pHash has 64 bits)", v)
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
	f.rejectUnknown("kind " + string(kind))
	return c
}

// integer decodes an !!int scalar into an int.
func (d *decoder) integer(n *yaml.Node, path string) (int, bool) {
	if !d.noAlias(n, path) {
		return 0, false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		d.fail(path, n, "expected an integer, got %s", problem.Describe(n))
		return 0, false
	}
	var v int
	if err := n.Decode(&v); err != nil {
		d.fail(path, n, "integer %s out of range", problem.Bound(n.Value, 40))
		return 0, false
	}
	return v, true
}

// fields is one decoded mapping. The clause decoder asks for each field it
// knows; whatever it never asked for is unknown, so the list of accepted
// fields lives in exactly one place, the decoder itself.
type fields struct {
	d          *decoder
	path       string
	node       *yaml.Node
	keys       []*yaml.Node // in document order
	vals       map[string]*yaml.Node
	asked      []string
	clauseKind Kind
}

func (f *fields) get(name string) *yaml.Node {
	f.asked = append(f.asked, name)
	return f.vals[name]
}

func (f *fields) missing(name string) {
	owner := "a contract document"
	if f.clauseKind != "" {
		owner = "kind " + string(f.clauseKind)
	}
	f.d.fail(fieldPath(f.path, name), f.node, "missing (required by %s)", owner)
}

func (f *fields) kind() (Kind, bool) {
	n := f.get("kind")
	p := fieldPath(f.path, "kind")
	if n == nil {
		f.d.fail(p, f.node, "missing: every clause needs a kind (%s)", kindList())
		return "", false
	}
	s, ok := f.d.str(n, p)
	if !ok {
		return "", false
	}
	if !slices.Contains(kinds, Kind(s)) {
		f.d.fail(p, n, "unknown kind %q (want one of %s)", problem.Bound(s, 40), kindList())
		return "", false
	}
	f.clauseKind = Kind(s)
	return f.clauseKind, true
}

// text returns a non-empty string field; "" when it is absent or invalid
// (the error is recorded).
func (f *fields) text(name string, required bool) string {
	n := f.get(name)
	p := fieldPath(f.path, name)
	if n == nil {
		if required {
			f.missing(name)
		}
		return ""
	}
	s, ok := f.d.str(n, p)
	if !ok {
		return ""
	}
	// TrimSpace and FoldSpace agree on what white space is, so a value
	// that passes here is not empty after folding either.
	if strings.TrimSpace(s) == "" {
		f.d.fail(p, n, "empty")
		return ""
	}
	return s
}

// selector returns a field holding a CSS selector, refusing one whose
// syntax is broken in a way no browser accepts (see checkSelector).
func (f *fields) selector(name string, required bool) string {
	sel := f.text(name, required)
	if sel == "" {
		return ""
	}
	if msg := checkSelector(sel); msg != "" {
		f.d.fail(fieldPath(f.path, name), f.get(name), "%q is not a valid CSS selector: %s", sel, msg)
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
		f.d.fail(fieldPath(f.path, name), f.vals[name], "invalid regexp %q: %s", problem.Bound(s, 80), msg)
		return ""
	}
	return s
}

func (f *fields) oneOf(name string, required bool, allowed ...string) string {
	s := f.text(name, required)
	if s == "" || slices.Contains(allowed, s) {
		return s
	}
	f.d.fail(fieldPath(f.path, name), f.vals[name], "%q is not one of %s", problem.Bound(s, 40), strings.Join(allowed, ", "))
	return ""
}

func (f *fields) integer(name string) (int, *yaml.Node, bool) {
	n := f.get(name)
	if n == nil {
		f.missing(name)
		return 0, nil, false
	}
	v, ok := f.d.integer(n, fieldPath(f.path, name))
	return v, n, ok
}

func (f *fields) statuses(name string) []int {
	n := f.get(name)
	p := fieldPath(f.path, name)
	if n == nil {
		f.missing(name)
		return nil
	}
	items, ok := f.d.sequence(n, p)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		f.d.fail(p, n, "empty: list at least one status code")
		return nil
	}
	out := make([]int, 0, len(items))
	for i, item := range items {
		ip := indexPath(p, i)
		v, ok := f.d.integer(item, ip)
		if !ok {
			continue
		}
		if v < 100 || v > 599 {
			f.d.fail(ip, item, "status %d outside 100..599", v)
		}
		out = append(out, v)
	}
	return out
}

func (f *fields) children(name string, depth int) []Clause {
	n := f.get(name)
	p := fieldPath(f.path, name)
	if n == nil {
		f.missing(name)
		return nil
	}
	items, ok := f.d.sequence(n, p)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		f.d.fail(p, n, "empty: %s needs at least one clause", f.clauseKind)
		return nil
	}
	out := make([]Clause, 0, len(items))
	for i, item := range items {
		out = append(out, f.d.clause(item, indexPath(p, i), depth+1))
	}
	return out
}

func (f *fields) child(name string, depth int) Clause {
	n := f.get(name)
	p := fieldPath(f.path, name)
	if n == nil {
		f.missing(name)
		return nil
	}
	if n.Kind == yaml.SequenceNode {
		f.d.fail(p, n, "expected exactly one clause (a mapping), got a list")
		return nil
	}
	return f.d.clause(n, p, depth+1)
}

// rejectUnknown reports every field nobody asked for, naming the ones owner
// accepts.
func (f *fields) rejectUnknown(owner string) {
	for _, k := range f.keys {
		if !slices.Contains(f.asked, k.Value) {
			f.d.fail(fieldPath(f.path, k.Value), k, "unknown field (%s takes: %s)", owner, strings.Join(f.asked, ", "))
		}
	}
}

// str decodes a string scalar. Numbers, booleans and nulls are refused
// rather than converted: `contains: 1969` is almost always meant as text,
// and saying so is cheaper than guessing wrong once.
func (d *decoder) str(n *yaml.Node, path string) (string, bool) {
	if !d.noAlias(n, path) {
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		hint := ""
		if n.Kind == yaml.ScalarNode {
			hint = " (quote it to make it a string)"
		}
		d.fail(path, n, "expected a string, got %s%s", problem.Describe(n), hint)
		return "", false
	}
	if msg := checkText(n.Value); msg != "" {
		d.fail(path, n, "%s", msg)
		return "", false
	}
	return n.Value, true
}

// checkText refuses strings no page text, selector or pattern needs and
// that the canonical JSON form could not carry back through the YAML
// parser: invalid UTF-8, control characters other than tab, newline and
// carriage return, and the non-characters U+FFFE and U+FFFF.
func checkText(s string) string {
	if !utf8.ValidString(s) {
		return "not valid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case unicode.IsControl(r) || r == 0xFFFE || r == 0xFFFF:
			return fmt.Sprintf("contains the control character %U", r)
		}
	}
	return ""
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

func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// fieldPath appends a field name to path. Names that are not plain
// identifiers are quoted, so a key such as "a.b" cannot be mistaken for
// two steps.
func fieldPath(path, name string) string {
	plain := name != ""
	for _, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	switch {
	case !plain:
		return path + "[" + strconv.Quote(name) + "]"
	case path == "":
		return name
	default:
		return path + "." + name
	}
}
