package snapshot

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// targetRoles lists the roles a find query may name after "role:": every control
// role snapshot.js reports, and "heading" for headings.
var targetRoles = []string{
	"button", "checkbox", "clickable", "combobox", "file", "heading", "link",
	"menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio",
	"region", "searchbox", "select", "slider", "spinbutton", "switch", "tab", "textbox",
	"treeitem",
}

// windowBytes is about how much of a long line a match shows: enough for a
// sentence around it.
const windowBytes = 240

// Query is a parsed find query.
type Query struct {
	// Role, when set, limits matches to controls (or headings) with this
	// role, and Text then filters their names.
	Role string
	Text string
}

// ParseQuery reads "role:<role> [name]" or plain text.
func ParseQuery(q string) (Query, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return Query{}, fmt.Errorf("query is empty: give text to look for, or role:<role> [name] (roles: %s)", strings.Join(targetRoles, ", "))
	}
	rest, ok := strings.CutPrefix(q, "role:")
	if !ok {
		return Query{Text: q}, nil
	}
	role, name, _ := strings.Cut(strings.TrimSpace(rest), " ")
	role = strings.ToLower(role)
	if !slices.Contains(targetRoles, role) {
		return Query{}, fmt.Errorf("unknown role %q: use one of %s", role, strings.Join(targetRoles, ", "))
	}
	return Query{Role: role, Text: strings.TrimSpace(name)}, nil
}

// Find returns up to limit matches of q, each a line of the page (cut to a
// window around the match when long) in which links also show their
// targets; total counts all matches. Text queries match case-insensitively
// against visible text and control names, values, placeholders and shown
// texts; role queries match controls (or headings) of that role whose name
// contains the text. Hits that fall in the window of the previous hit on
// the same line are counted but not shown again.
func (p *Page) Find(q Query, limit int) (matches []string, total int) {
	for _, l := range p.render(findStyle) {
		shown := span{-1, -1}
		for _, r := range p.hits(q, l) {
			total++
			if len(matches) >= limit || (r.start >= shown.start && r.end <= shown.end) {
				continue
			}
			var text string
			text, shown = window(l, r)
			matches = append(matches, text)
		}
	}
	return matches, total
}

// span is a byte range in an outLine's text.
type span struct{ start, end int }

// hits returns where q matches line l.
func (p *Page) hits(q Query, l outLine) []span {
	switch q.Role {
	case "":
		return textHits(q.Text, l)
	case "heading":
		if !isHeading(p.Lines[l.line].Kind) {
			return nil
		}
		if _, _, ok := indexFold(l.plain, q.Text); !ok {
			return nil
		}
		return []span{{0, len(l.text)}}
	}
	var out []span
	for _, c := range l.controls {
		ctl := &p.Controls[c.control]
		if ctl.Role != q.Role {
			continue
		}
		if _, _, ok := indexFold(ctl.Name, q.Text); ok {
			out = append(out, span{c.start, c.end})
		}
	}
	return out
}

func textHits(text string, l outLine) []span {
	if _, _, ok := indexFold(l.plain, text); !ok {
		return nil
	}
	var out []span
	for from := 0; from < len(l.text); {
		i, j, ok := indexFold(l.text[from:], text)
		if !ok {
			break
		}
		out = append(out, span{from + i, from + j})
		from += max(j, i+1)
	}
	if len(out) == 0 {
		// The hit is in a value the rendering clipped: show the line's start.
		out = append(out, span{0, 0})
	}
	return out
}

// window cuts line l to about windowBytes around r, widening the cut so it
// never splits a control's markup or a rune, and marks cuts with "…". It
// returns the text and the range of l it covers.
func window(l outLine, r span) (string, span) {
	text := l.text
	if len(text) <= windowBytes {
		return text, span{0, len(text)}
	}
	start := max(r.start-windowBytes/3, 0)
	end := min(max(start+windowBytes, r.end), len(text))
	for _, c := range l.controls {
		if c.start < start && start < c.end {
			start = c.start
		}
		if c.start < end && end < c.end {
			end = c.end
		}
	}
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	out := text[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out, span{start, end}
}

// indexFold is a case-insensitive strings.Index under Unicode simple
// folding: the byte range [i, j) of s where sub first matches. An empty sub
// matches at 0.
func indexFold(s, sub string) (i, j int, ok bool) {
	if sub == "" {
		return 0, 0, true
	}
	n := utf8.RuneCountInString(sub)
	for i = 0; i < len(s); {
		j = i
		for k := 0; k < n && j < len(s); k++ {
			_, size := utf8.DecodeRuneInString(s[j:])
			j += size
		}
		if strings.EqualFold(s[i:j], sub) {
			return i, j, true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return 0, 0, false
}
