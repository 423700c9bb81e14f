package contract

import (
	"strings"
	"testing"
	"unicode/utf8"

	"contractbench/internal/problem"
)

func TestFoldSpace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"only space", " \t\n\u00a0 ", ""},
		{"trims", "  a b  ", "a b"},
		{"newlines and tabs", "a\n\n\tb", "a b"},
		{"no-break space", "330\u00a0m", "330 m"},
		{"mixed run", "a \u00a0\u2003\r\n b", "a b"},
		{"next line and ideographic space", "a\u0085b\u3000c", "a b c"},
		{"zero-width space is not white space", "a\u200bb", "a\u200bb"},
		{"case kept", "Example  Domain", "Example Domain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := FoldSpace(tt.in); got != tt.want {
				t.Errorf("FoldSpace(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"short", "abc", 5, "abc"},
		{"exact", "abcde", 5, "abcde"},
		{"cut", "abcdefgh", 5, "abcde…(+3 bytes)"},
		{"cut on a rune boundary", "ab€cd", 3, "ab…(+5 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := problem.Bound(tt.in, tt.max)
			if got != tt.want {
				t.Errorf("problem.Bound(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("problem.Bound(%q, %d) = %q is not valid UTF-8", tt.in, tt.max, got)
			}
		})
	}
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 100)
	tests := []struct {
		name  string
		text  string
		at, n int
		want  string
	}{
		{"whole short text", "hello world", 6, 5, "hello world"},
		{"cut both sides", long + "XY" + long, 100, 2, "…" + long[:60] + "XY" + long[:60] + "…"},
		{"start of text", long, 0, 0, long[:60] + "…"},
		{"never splits a rune", strings.Repeat("é", 50) + "X" + strings.Repeat("é", 50), 100, 1,
			"…" + strings.Repeat("é", 30) + "X" + strings.Repeat("é", 30) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := excerpt(tt.text, tt.at, tt.n); got != tt.want {
				t.Errorf("excerpt = %q\nwant      %q", got, tt.want)
			}
		})
	}
}

func TestLongestPrefix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, want string
		wantN, wantAt    int
	}{
		{"whole", "the Example Domain", "Example", 7, 4},
		{"part", "the Example Domain", "Example Dominion", 11, 4},
		{"none", "the Example Domain", "qqq", 0, -1},
		{"multi-byte", "prix 10 €", "10 €uros", len("10 €"), 5},
		{"empty text", "", "a", 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n, at := longestPrefix(tt.text, tt.want)
			if n != tt.wantN || at != tt.wantAt {
				t.Errorf("longestPrefix(%q, %q) = %d, %d; want %d, %d", tt.text, tt.want, n, at, tt.wantN, tt.wantAt)
			}
		})
	}
}
