package contract

import (
	"strings"
	"testing"
)

// A selector whose syntax no browser accepts is a load error naming its
// path, not a contract that fails at judging time.
func TestSelectorSyntax(t *testing.T) {
	t.Parallel()
	tests := []struct {
		selector string
		wantErr  string // "" for a valid selector
	}{
		{"h1", ""},
		{`a[href^="https://x"]`, ""},
		{"ul > li:nth-child(2n+1)", ""},
		{`[title="a]b"]`, ""},
		{`.a\[b`, ""},
		{"h1[", `'[' is not closed`},
		{"a:not(.x", `'(' is not closed`},
		{`[title="x]`, "the quote '\"' is not closed"},
		{"h1]", `']' at byte 2 closes nothing`},
		{"ul >", `it ends with ">"`},
		{"h1,", `it ends with ","`},
	}
	for _, tc := range tests {
		doc := "postconditions:\n  - kind: dom_count\n    selector: '" + strings.ReplaceAll(tc.selector, "'", "''") + "'\n    op: gte\n    value: 1\n"
		_, err := Parse([]byte(doc))
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("selector %q: %v, want it accepted", tc.selector, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) ||
			!strings.Contains(err.Error(), "postconditions[0].selector")):
			t.Errorf("selector %q: error %v, want one at postconditions[0].selector saying %q", tc.selector, err, tc.wantErr)
		}
	}
}
