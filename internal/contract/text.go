package contract

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSeen bounds Evidence.Seen and Evidence.Expected. Evidence goes into
// reports that people read in review, so a page body must not land there
// whole.
const maxSeen = 300

// FoldSpace replaces every run of white space with one ASCII space and
// trims both ends. White space is what unicode.IsSpace says, which covers
// the no-break space U+00A0 that pages put between a number and its unit
// ("330&nbsp;m") and the line breaks between blocks of page text.
func FoldSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	pending := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			pending = b.Len() > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// excerptContext is how many bytes of text excerpt shows on each side of
// the part it is about.
const excerptContext = 60

// excerpt returns the part of text around text[at:at+n], with up to
// excerptContext bytes either side and "…" where it cuts.
func excerpt(text string, at, n int) string {
	start := max(at-excerptContext, 0)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	end := min(at+n+excerptContext, len(text))
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	s := text[start:end]
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}

// longestPrefix returns the length in bytes of the longest prefix of want
// that occurs in text, cut on a rune boundary, and where it occurs. It is
// how a failing dom_text shows the closest thing the page did say.
// Occurrence is monotone in the prefix length, so a binary search over
// want's rune boundaries needs only a few scans of text.
func longestPrefix(text, want string) (n, at int) {
	bounds := make([]int, 0, len(want))
	for i := range want {
		if i > 0 {
			bounds = append(bounds, i)
		}
	}
	bounds = append(bounds, len(want))
	// k is the number of boundaries whose prefix occurs in text.
	k := sort.Search(len(bounds), func(i int) bool {
		return !strings.Contains(text, want[:bounds[i]])
	})
	if k == 0 {
		return 0, -1
	}
	n = bounds[k-1]
	return n, strings.Index(text, want[:n])
}
