package snapshot

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Caps on what one control may contribute. A script-made clickable card
// can carry a whole article as its name; the text mode keeps most of it
// (it is content), the one-line-per-control modes only enough to recognise it.
const (
	textNameRunes  = 500
	shortNameRunes = 80
	valueRunes     = 120
	maxOptions     = 25
)

// style selects how controls are written.
type style struct {
	nameRunes int
	hrefs     bool // links show their target (find results)
	options   bool // selects list their options (interactive mode)
}

var (
	textStyle        = style{nameRunes: textNameRunes}
	interactiveStyle = style{nameRunes: shortNameRunes, options: true}
	findStyle        = style{nameRunes: textNameRunes, hrefs: true}
)

// Text renders the page's readable content in reading order, one block per
// line; see the package documentation for the notation.
func (p *Page) Text() string {
	return joinLines(p.render(textStyle))
}

// Interactive renders only the controls, one per line, with their options
// (for selects) and states.
func (p *Page) Interactive() string {
	var b strings.Builder
	for i := range p.Controls {
		b.WriteString(p.Controls[i].format(interactiveStyle))
		b.WriteByte('\n')
	}
	return b.String()
}

// TextLines returns the text rendering split into lines, for diffing two
// states of one page.
func (p *Page) TextLines() []string {
	out := p.render(textStyle)
	lines := make([]string, len(out))
	for i, l := range out {
		lines[i] = l.text
	}
	return lines
}

// Control returns the control with ref r, if this snapshot rendered it.
func (p *Page) Control(r int) (*Control, bool) {
	for i := range p.Controls {
		if p.Controls[i].Ref == r {
			return &p.Controls[i], true
		}
	}
	return nil, false
}

// Short renders c as in interactive mode: the form tool replies use to name
// the element they acted on.
func (c *Control) Short() string {
	return c.format(interactiveStyle)
}

func joinLines(out []outLine) string {
	var b strings.Builder
	for _, l := range out {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// outLine is one output line, with what find matches against it (the text
// without markup) and where its controls sit in it.
type outLine struct {
	text     string
	plain    string
	controls []placed
	line     int // index of the model line it renders
}

// placed is a control's byte range within an outLine's text.
type placed struct {
	start, end int
	control    int
}

// lineWriter assembles outLines. A text span may hold newlines (from
// preformatted text); they start a new output line, except where the line
// kind must stay on one line (headings, items, rows), where they are spaces.
type lineWriter struct {
	page     *Page
	style    style
	line     int
	out      []outLine
	text     strings.Builder
	plain    strings.Builder
	controls []placed
}

func (w *lineWriter) end() {
	w.out = append(w.out, outLine{text: w.text.String(), plain: w.plain.String(), controls: w.controls, line: w.line})
	w.text.Reset()
	w.plain.Reset()
	w.controls = nil
}

func (w *lineWriter) raw(s string) {
	w.text.WriteString(s)
}

func (w *lineWriter) spans(spans []Span, multiline bool) {
	for _, s := range spans {
		if !s.IsControl {
			w.words(s.Text, multiline)
			continue
		}
		c := &w.page.Controls[s.Control]
		start := w.text.Len()
		w.text.WriteString(c.format(w.style))
		w.controls = append(w.controls, placed{start: start, end: w.text.Len(), control: s.Control})
		w.plain.WriteString(c.Name)
		for _, extra := range []string{c.Value, c.Placeholder, c.Shown} {
			if extra != "" {
				w.plain.WriteByte(' ')
				w.plain.WriteString(extra)
			}
		}
	}
}

func (w *lineWriter) words(s string, multiline bool) {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			w.text.WriteString(s)
			w.plain.WriteString(s)
			return
		}
		w.text.WriteString(s[:i])
		w.plain.WriteString(s[:i])
		if multiline {
			w.end()
		} else {
			w.text.WriteByte(' ')
			w.plain.WriteByte(' ')
		}
		s = s[i+1:]
	}
}

func (p *Page) render(st style) []outLine {
	w := &lineWriter{page: p, style: st}
	for i, l := range p.Lines {
		w.line = i
		switch {
		case l.Kind == kindRow:
			w.raw("|")
			for _, cell := range l.Cells {
				w.raw(" ")
				w.spans(cell, false)
				w.raw(" |")
				w.plain.WriteByte(' ')
			}
		case l.Kind == kindItem:
			w.raw(strings.Repeat("  ", max(l.Depth-1, 0)))
			if l.Ordinal > 0 {
				w.raw(strconv.Itoa(l.Ordinal) + ". ")
			} else {
				w.raw("- ")
			}
			w.spans(l.Spans, false)
		case isHeading(l.Kind):
			w.raw(strings.Repeat("#", int(l.Kind[1]-'0')) + " ")
			w.spans(l.Spans, false)
		default: // paragraphs, preformatted text and kinds this version does not know
			w.spans(l.Spans, true)
		}
		w.end()
	}
	return w.out
}

func isHeading(kind string) bool {
	return len(kind) == 2 && kind[0] == 'h' && kind[1] >= '1' && kind[1] <= '6'
}

// format writes c as [name](ref role attributes states).
func (c *Control) format(st style) string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(clip(c.Name, st.nameRunes))
	b.WriteString("](e")
	b.WriteString(strconv.Itoa(c.Ref))
	if c.Role != "link" {
		b.WriteByte(' ')
		b.WriteString(c.Role)
	} else if st.hrefs && c.Href != "" {
		b.WriteByte(' ')
		b.WriteString(c.Href)
	}
	if c.Type != "" {
		b.WriteString(" type=")
		b.WriteString(c.Type)
	}
	if c.Value != "" {
		b.WriteString(" value=")
		b.WriteString(strconv.Quote(clip(c.Value, valueRunes)))
	}
	if c.Placeholder != "" {
		b.WriteString(" placeholder=")
		b.WriteString(strconv.Quote(clip(c.Placeholder, valueRunes)))
	}
	if c.Shown != "" {
		b.WriteString(" shows=")
		b.WriteString(strconv.Quote(clip(c.Shown, st.nameRunes)))
	}
	for _, s := range c.States {
		b.WriteByte(' ')
		b.WriteString(s)
	}
	if st.options && len(c.Options) > 0 {
		opts := c.Options
		more := ""
		if len(opts) > maxOptions {
			more = "|…+" + strconv.Itoa(len(opts)-maxOptions)
			opts = opts[:maxOptions]
		}
		b.WriteString(" options=")
		b.WriteString(strconv.Quote(strings.Join(opts, "|") + more))
	}
	b.WriteByte(')')
	return b.String()
}

// clip shortens s to n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n - 1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}
