package toolserver

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxBudget caps max_bytes: more than this in one reply is never cheaper
// than paging.
const maxBudget = 100_000

// piece is one budget-sized piece of a text.
type piece struct {
	text string
	// start and end are the piece's byte range in the whole text; total is
	// the whole text's length.
	start, end, total int
}

// cut returns the piece of text that starts at offset and holds at most
// max bytes. It never splits a UTF-8 sequence, and it ends after a newline
// when one falls in the second half of the budget, so pages break between
// lines. An offset inside a rune moves forward to the rune's end. It
// always makes progress: a piece holds at least one rune.
func cut(text string, offset, max int) (piece, error) {
	if offset < 0 {
		return piece{}, fmt.Errorf("offset must be 0 or more, not %d", offset)
	}
	if offset > len(text) || (offset == len(text) && offset > 0) {
		return piece{}, fmt.Errorf("offset %d is past the end of the page text (%d bytes); call read_page without offset to start over", offset, len(text))
	}
	for offset < len(text) && !utf8.RuneStart(text[offset]) {
		offset++
	}
	end := offset + max
	if end >= len(text) {
		return piece{text: text[offset:], start: offset, end: len(text), total: len(text)}, nil
	}
	if nl := strings.LastIndexByte(text[offset:end], '\n'); nl >= max/2 {
		end = offset + nl + 1
	} else {
		for end > offset && !utf8.RuneStart(text[end]) {
			end--
		}
		if end == offset { // a budget smaller than one rune
			_, size := utf8.DecodeRuneInString(text[offset:])
			end = offset + size
		}
	}
	return piece{text: text[offset:end], start: offset, end: end, total: len(text)}, nil
}
