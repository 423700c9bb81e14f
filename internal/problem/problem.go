// Package problem describes defects of input files (task specs, contracts,
// servers files, fixture archives), located as precisely as a decoder can:
// the file, the line, and the path inside the document. Decoders collect
// every problem instead of stopping at the first, so one run shows
// everything to fix.
//
// It is also the one YAML decoding kit (Collector): every decoder of this
// module walks its document's node tree with it, so all of them read YAML
// with one strictness and report problems in one wording.
//
// It imports only the standard library and the YAML library, so every
// decoder, the judge side included, can use it.
package problem

import (
	"fmt"
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
