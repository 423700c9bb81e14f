package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Page is one document as snapshot.js sees it: its readable lines in
// reading order and the controls those lines mention.
type Page struct {
	Lines    []Line    `json:"lines"`
	Controls []Control `json:"controls"`
	// Issued is the highest ref the document has handed out so far, counting
	// controls that have since been hidden or removed.
	Issued int `json:"issued"`
	// Mutations is how many DOM changes the document had seen when the
	// snapshot was taken: an equal count later means the same DOM.
	Mutations int `json:"mutations"`
}

// Line kinds. Headings are "h1" to "h6".
const (
	kindParagraph = "p"
	kindItem      = "li"
	kindRow       = "tr"
	kindPre       = "pre"
)

// Line is one block of the page.
type Line struct {
	Kind string `json:"k"`
	// Depth is the list nesting of an item, 1 for a top-level item.
	Depth int `json:"d,omitempty"`
	// Ordinal is the number of an ordered-list item, 0 for a bullet.
	Ordinal int `json:"n,omitempty"`
	// Spans is the content of every kind but a row.
	Spans []Span `json:"t,omitempty"`
	// Cells is the content of a row, one span list per cell.
	Cells [][]Span `json:"c,omitempty"`
	// Frame, for a line of kind KindFrame, indexes the iframes of other
	// origins the snapshot met, in reading order.
	Frame int `json:"f,omitempty"`
}

// KindFrame marks where the content of an iframe of another origin goes.
// The tool server reads that frame in a world of its own and replaces the
// line with the frame's lines (Splice), or drops it (Drop).
const KindFrame = "frame"

// Splice replaces line i, a KindFrame line, with the lines of sub, whose
// controls are appended to p's.
func (p *Page) Splice(i int, sub *Page) {
	offset := len(p.Controls)
	p.Controls = append(p.Controls, sub.Controls...)
	shift := func(spans []Span) []Span {
		out := make([]Span, len(spans))
		for j, s := range spans {
			if s.IsControl {
				s.Control += offset
			}
			out[j] = s
		}
		return out
	}
	lines := make([]Line, 0, len(sub.Lines))
	for _, l := range sub.Lines {
		l.Spans = shift(l.Spans)
		for j, c := range l.Cells {
			l.Cells[j] = shift(c)
		}
		lines = append(lines, l)
	}
	p.Lines = append(p.Lines[:i], append(lines, p.Lines[i+1:]...)...)
}

// Drop removes the KindFrame lines left, frames that could not be read.
func (p *Page) Drop() {
	p.Lines = slices.DeleteFunc(p.Lines, func(l Line) bool { return l.Kind == KindFrame })
}

// Span is a run of text or a reference to a control; exactly one of Text
// and Control is meaningful, as IsControl says.
type Span struct {
	Text string
	// Control is an index into Page.Controls.
	Control   int
	IsControl bool
}

// UnmarshalJSON reads a span as snapshot.js writes it: a JSON string for
// text, a number for a control.
func (s *Span) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*s = Span{}
		return json.Unmarshal(b, &s.Text)
	}
	var i int
	if err := json.Unmarshal(b, &i); err != nil {
		return fmt.Errorf("span is neither text nor a control index: %s", b)
	}
	*s = Span{Control: i, IsControl: true}
	return nil
}

// MarshalJSON writes a span in the form UnmarshalJSON reads.
func (s Span) MarshalJSON() ([]byte, error) {
	if s.IsControl {
		return json.Marshal(s.Control)
	}
	return json.Marshal(s.Text)
}

// Control is something the agent can act on, with what a screen reader
// would announce about it.
type Control struct {
	Ref int `json:"r"`
	// Role is "link", "button", "textbox", "checkbox", "radio", "select",
	// "file", "slider", "clickable" (made clickable by script), "region" (a
	// labelled landmark such as a drop zone, whose content follows it) or
	// an ARIA widget role such as "tab" or "menuitem".
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	// Type is the input type of a textbox when it is not plain text.
	Type        string `json:"type,omitempty"`
	Value       string `json:"v,omitempty"`
	Placeholder string `json:"ph,omitempty"`
	// Shown is the control's own text when its name, given by aria-label
	// or aria-labelledby, leaves out some of the words it shows.
	Shown string `json:"tx,omitempty"`
	// States are words such as "checked", "disabled", "expanded".
	States []string `json:"st,omitempty"`
	// Options are the labels of a select's options, in order.
	Options []string `json:"opts,omitempty"`
	// Href is a link's target, relative to the page when it shares its
	// origin.
	Href string `json:"href,omitempty"`
}

// Decode reads the JSON that snapshot.js returns and checks that every
// control index is in range, so rendering never has to.
func Decode(data []byte) (*Page, error) {
	var p Page
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("decoding page snapshot: %w", err)
	}
	check := func(line int, spans []Span) error {
		for _, s := range spans {
			if s.IsControl && (s.Control < 0 || s.Control >= len(p.Controls)) {
				return fmt.Errorf("decoding page snapshot: line %d: control index %d out of range (%d controls)", line, s.Control, len(p.Controls))
			}
		}
		return nil
	}
	for i, l := range p.Lines {
		if err := check(i, l.Spans); err != nil {
			return nil, err
		}
		for _, c := range l.Cells {
			if err := check(i, c); err != nil {
				return nil, err
			}
		}
	}
	return &p, nil
}
