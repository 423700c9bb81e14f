package problem

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Collector is the one YAML decoding kit: every decoder of an input file
// (task, contract, servers, archive) walks its document's node tree with
// these methods, so all of them read YAML with the same strictness and
// report with the same words. Each method records what is wrong and carries
// on, so a decoder reports everything at once instead of stopping at the
// first problem.
//
// The strictness, everywhere:
//   - A file is exactly one YAML document (JSON is YAML too); a second one
//     is an error, not ignored.
//   - Aliases are refused: one value under several paths makes paths in
//     problems and evidence ambiguous.
//   - A string must be a YAML string: `contains: 1969` and `query: 1` are
//     errors (quote them), never converted; null is a value of the wrong
//     type, not an absent field.
//   - Strings are valid UTF-8 without control characters other than tab,
//     newline and carriage return.
//   - Mapping keys are strings, none repeated; a key the decoder never asks
//     for is an unknown field.
type Collector struct {
	File string
	List List
}

// Add records a problem at node n (its line; 0 when n is nil) and path.
func (c *Collector) Add(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	c.List = append(c.List, Problem{File: c.File, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Result returns the problems in file order (stably sorted by line: a
// mapping's unknown fields are found after its known ones), or nil.
func (c *Collector) Result() List {
	if len(c.List) == 0 {
		return nil
	}
	slices.SortStableFunc(c.List, func(a, b Problem) int { return cmp.Compare(a.Line, b.Line) })
	return c.List
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Document parses data, the content of the collector's file, as exactly one
// YAML document and returns its root node, or nil after recording why there
// is none: a syntax error (with its line), an empty document, or a second
// document.
func (c *Collector) Document(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			c.Add(nil, "", "empty document")
		} else {
			c.syntax(err)
		}
		return nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		c.syntax(err)
		return nil
	default:
		c.Add(&extra, "", "a second YAML document: a file holds one document")
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || isNull(doc.Content[0]) {
		c.Add(nil, "", "empty document")
		return nil
	}
	return doc.Content[0]
}

func (c *Collector) syntax(err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	c.List = append(c.List, Problem{File: c.File, Line: line, Msg: "not valid YAML: " + msg})
}

// absentOrAlias reports whether there is no value to read: n is nil (an
// absent field, nothing recorded) or an alias (refused).
func (c *Collector) absentOrAlias(n *yaml.Node, path string) bool {
	if n == nil {
		return true
	}
	if n.Kind == yaml.AliasNode {
		c.Add(n, path, "YAML aliases are not allowed")
		return true
	}
	return false
}

// expected records that n is not the kind of value wanted.
func (c *Collector) expected(n *yaml.Node, path, want string) {
	hint := ""
	if want == "a string" && n.Kind == yaml.ScalarNode {
		hint = " (quote it to make it a string)"
	}
	c.Add(n, path, "expected %s, got %s%s", want, Describe(n), hint)
}

// The value readers below (Str, Text, Strings, Int, Number, Seq, Pairs,
// Mapping) take a nil node as an absent field: they return the zero value
// and false and record nothing, so a decoder reads an optional field with
// one call. Required fields are reported missing by Mapping.Need or Fields.

// Str returns the value of a YAML string. Anything else (a number, a
// boolean, null, a list) is refused rather than converted: `contains: 1969`
// is almost always meant as text, and saying so is cheaper than guessing
// wrong once.
func (c *Collector) Str(n *yaml.Node, path string) (string, bool) {
	if c.absentOrAlias(n, path) {
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		c.expected(n, path, "a string")
		return "", false
	}
	if msg := checkText(n.Value); msg != "" {
		c.Add(n, path, "%s", msg)
		return "", false
	}
	return n.Value, true
}

// Text returns a string that is not empty or only white space; "" when it
// is not one (the problem is recorded).
func (c *Collector) Text(n *yaml.Node, path string) string {
	s, ok := c.Str(n, path)
	if !ok {
		return ""
	}
	if strings.TrimSpace(s) == "" {
		c.Add(n, path, "empty")
		return ""
	}
	return s
}

// Strings returns a list of Text values, one per item ("" for a bad one,
// so indexes still match the document).
func (c *Collector) Strings(n *yaml.Node, path string) []string {
	items, ok := c.Seq(n, path)
	if !ok {
		return nil
	}
	out := make([]string, len(items))
	for i, item := range items {
		out[i] = c.Text(item, Index(path, i))
	}
	return out
}

// Int returns the value of a YAML integer.
func (c *Collector) Int(n *yaml.Node, path string) (int, bool) {
	if c.absentOrAlias(n, path) {
		return 0, false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		c.expected(n, path, "an integer")
		return 0, false
	}
	var v int
	if err := n.Decode(&v); err != nil {
		c.Add(n, path, "integer %s out of range", Bound(n.Value, 40))
		return 0, false
	}
	return v, true
}

// Number returns the value of a YAML integer or float.
func (c *Collector) Number(n *yaml.Node, path string) (float64, bool) {
	if c.absentOrAlias(n, path) {
		return 0, false
	}
	var v float64
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") || n.Decode(&v) != nil {
		c.expected(n, path, "a number")
		return 0, false
	}
	return v, true
}

// Seq returns the items of a YAML sequence.
func (c *Collector) Seq(n *yaml.Node, path string) ([]*yaml.Node, bool) {
	if c.absentOrAlias(n, path) {
		return nil, false
	}
	if n.Kind != yaml.SequenceNode {
		c.expected(n, path, "a list")
		return nil, false
	}
	return n.Content, true
}

// Pair is one entry of a mapping, in document order.
type Pair struct {
	Key  string
	K, V *yaml.Node
}

// Pairs returns the entries of a YAML mapping in document order. Keys must
// be strings and none may repeat; an offending entry is recorded and left
// out.
func (c *Collector) Pairs(n *yaml.Node, path string) ([]Pair, bool) {
	if c.absentOrAlias(n, path) {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		c.expected(n, path, "a mapping")
		return nil, false
	}
	out := make([]Pair, 0, len(n.Content)/2)
	first := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			c.Add(k, path, "field names must be strings, got %s", Describe(k))
			continue
		}
		if line, dup := first[k.Value]; dup {
			c.Add(k, Join(path, k.Value), "field %q appears twice (first on line %d)", Bound(k.Value, 40), line)
			continue
		}
		first[k.Value] = k.Line
		out = append(out, Pair{Key: k.Value, K: k, V: v})
	}
	return out, true
}

// Mapping is one YAML mapping being decoded. The decoder asks for each
// field it knows with Get or Need; Done then reports every field nobody
// asked for, so the list of accepted fields lives in one place, the
// decoder itself.
type Mapping struct {
	c     *Collector
	Path  string
	Node  *yaml.Node
	pairs []Pair
	vals  map[string]*yaml.Node
	asked []string
}

// Mapping starts decoding n as a mapping. It returns false (after recording
// why) when n is not one.
func (c *Collector) Mapping(n *yaml.Node, path string) (*Mapping, bool) {
	pairs, ok := c.Pairs(n, path)
	if !ok {
		return nil, false
	}
	m := &Mapping{c: c, Path: path, Node: n, pairs: pairs, vals: make(map[string]*yaml.Node, len(pairs))}
	for _, p := range pairs {
		m.vals[p.Key] = p.V
	}
	return m, true
}

// Get returns the value of an optional field, or nil when it is absent.
func (m *Mapping) Get(name string) *yaml.Node {
	if !slices.Contains(m.asked, name) {
		m.asked = append(m.asked, name)
	}
	return m.vals[name]
}

// Need returns the value of a required field, recording it as missing
// (at the mapping's line) when it is absent.
func (m *Mapping) Need(name string) *yaml.Node {
	v := m.Get(name)
	if v == nil {
		m.c.Add(m.Node, Join(m.Path, name), "missing")
	}
	return v
}

// Done reports every field that was never asked for, naming the known ones.
func (m *Mapping) Done() {
	for _, p := range m.pairs {
		if !slices.Contains(m.asked, p.Key) {
			m.c.Add(p.K, Join(m.Path, p.Key), "unknown field %q (known: %s)", Bound(p.Key, 40), strings.Join(m.asked, ", "))
		}
	}
}

// Fields decodes n as a mapping whose keys are all among required and
// optional, and returns its values by key. It is Mapping, Need, Get and
// Done in one call for decoders that know all their fields up front.
func (c *Collector) Fields(n *yaml.Node, path string, required, optional []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	m, ok := c.Mapping(n, path)
	if !ok {
		return out
	}
	for _, name := range required {
		if v := m.Need(name); v != nil {
			out[name] = v
		}
	}
	for _, name := range optional {
		if v := m.Get(name); v != nil {
			out[name] = v
		}
	}
	m.Done()
	return out
}

// isNull reports whether n is a YAML null.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// checkText refuses strings no input needs and that the canonical JSON
// form of a contract could not carry back through the YAML parser: invalid
// UTF-8, control characters other than tab, newline and carriage return,
// and the non-characters U+FFFE and U+FFFF.
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

// Join extends a document path with a field: Join("budget", "max_usd") is
// "budget.max_usd", and Join("", "id") is "id". Names that are not plain
// identifiers are quoted, so a key such as "a.b" cannot be mistaken for two
// steps: Join("env", "a.b") is `env["a.b"]`.
func Join(path, field string) string {
	plain := field != ""
	for _, r := range field {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	switch {
	case !plain:
		return path + "[" + strconv.Quote(field) + "]"
	case path == "":
		return field
	default:
		return path + "." + field
	}
}

// Index extends a document path with a list index: Index("reference", 2)
// is "reference[2]".
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
