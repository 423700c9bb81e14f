// Package problem describes defects of input files (task specs, contracts,
// fixture archives), located as precisely as a decoder can: the file, the
// line, and the path inside the document. Decoders collect every problem
// instead of stopping at the first, so one run shows everything to fix.
//
// It imports only the standard library and the YAML library, so every
// decoder, the judge side included, can use it.
package problem

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Problem is one defect of an input file.
type Problem struct {
	// File names the file (or folder) as the user gave it.
	File string `json:"file"`
	// Line is 1-based, or 0 when unknown.
	Line int `json:"line,omitempty"`
	// Path is the place inside the document
	// (postconditions[2].children[0].pattern), or "" for the whole file.
	Path string `json:"path,omitempty"`
	Msg  string `json:"message"`
}

// String formats p the way compilers do, so editors can jump to it:
// "tasks/task-01.yaml:12: postconditions[0].pattern: invalid regexp".
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// List is every problem found, in file order. It is an error.
type List []Problem

// Error lists the problems one per line.
func (l List) Error() string {
	lines := make([]string, len(l))
	for i, p := range l {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Describe names what a YAML node is, for "want X, found Y" messages.
// Long scalars are cut so a message stays one readable line.
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		v := Bound(n.Value, 40)
		switch n.ShortTag() {
		case "!!str":
			return "the string " + strconv.Quote(v)
		case "!!int":
			return "the integer " + v
		case "!!float":
			return "the number " + v
		case "!!bool":
			return "the boolean " + v
		case "!!null":
			return "null"
		default:
			return "a " + n.ShortTag() + " value"
		}
	}
	return "nothing"
}

// Bound cuts a value quoted in a message to at most max bytes, on a rune
// boundary, and says how much was left out: "abc…(+120 bytes)".
func Bound(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(+" + strconv.Itoa(len(s)-cut) + " bytes)"
}

// Document parses data, the content of file, as one YAML document (JSON
// is YAML too) and returns its root node, or a List naming the file when
// the syntax is wrong, the document is empty, or a second document follows
// the first (a "---" line): a file holds one document, and anything after
// it would otherwise be silently ignored.
func Document(file string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, List{{File: file, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, List{{File: file, Msg: "empty file"}}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
		return doc.Content[0], nil
	case err != nil:
		return nil, List{{File: file, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if len(next.Content) == 0 {
		return doc.Content[0], nil // a lone trailing "---"
	}
	line := next.Content[0].Line
	return nil, List{{File: file, Line: line, Msg: "a second YAML document begins here; a file holds exactly one (remove the \"---\" line and what follows, or merge it into the first)"}}
}
