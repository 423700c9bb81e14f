package toolserver

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
)

func TestCut(t *testing.T) {
	t.Parallel()
	text := "line one\nline two\nline three\n"
	for _, c := range []struct {
		name        string
		text        string
		offset, max int
		want        string
		end         int
		wantErr     string
	}{
		{"all fits", text, 0, 100, text, len(text), ""},
		{"breaks after a newline", text, 0, 14, "line one\n", 9, ""},
		{"continues from the offset", text, 9, 100, "line two\nline three\n", len(text), ""},
		{"no newline in the second half", "abcdefghij", 0, 4, "abcd", 4, ""},
		{"never splits a rune", "ééé", 0, 3, "é", 2, ""},
		{"offset inside a rune moves on", "éa", 1, 10, "a", 3, ""},
		{"budget below one rune still advances", "€x", 0, 1, "€", 3, ""},
		{"negative offset", text, -1, 10, "", 0, "offset must be 0 or more"},
		{"offset at the end", text, len(text), 10, "", 0, "past the end"},
		{"offset past the end", text, 999, 10, "", 0, "offset 999 is past the end of the page text (29 bytes)"},
	} {
		got, err := cut(c.text, c.offset, c.max)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error = %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil || got.text != c.want || got.end != c.end || got.total != len(c.text) {
			t.Errorf("%s: cut = %+v, %v; want text %q ending at %d", c.name, got, err, c.want, c.end)
		}
	}
}

// FuzzCut checks cut's promises on any text: pieces are valid UTF-8 when
// the text is, within budget unless one rune is bigger, and paging from 0
// reassembles the text exactly.
func FuzzCut(f *testing.F) {
	f.Add("hello\nworld\n", 4)
	f.Add("ééé€€\n☀", 2)
	f.Add("", 1)
	f.Fuzz(func(t *testing.T, text string, max int) {
		if max < 1 || max > 1<<16 || !utf8.ValidString(text) {
			return
		}
		var b strings.Builder
		for offset := 0; offset < len(text); {
			p, err := cut(text, offset, max)
			if err != nil {
				t.Fatalf("cut(%q, %d, %d): %v", text, offset, max, err)
			}
			if !utf8.ValidString(p.text) {
				t.Fatalf("piece %q is not valid UTF-8", p.text)
			}
			if len(p.text) > max && utf8.RuneCountInString(p.text) > 1 {
				t.Fatalf("piece of %d bytes over budget %d", len(p.text), max)
			}
			if p.end <= offset {
				t.Fatalf("no progress at offset %d", offset)
			}
			b.WriteString(p.text)
			offset = p.end
		}
		if b.String() != text {
			t.Fatalf("pieces give %q, want %q", b.String(), text)
		}
	})
}

func TestKeyEvents(t *testing.T) {
	t.Parallel()
	type ev struct {
		typ  input.DispatchKeyEventType
		key  string
		mods int64
		text string
	}
	for _, c := range []struct {
		name    string
		in      string
		want    []ev
		wantErr string
	}{
		{"named key", "Enter", []ev{{"keyDown", "Enter", 0, ""}, {"char", "Enter", 0, "\r"}, {"keyUp", "Enter", 0, ""}}, ""},
		{"names ignore case", "arrowdown", []ev{{"keyDown", "ArrowDown", 0, ""}, {"keyUp", "ArrowDown", 0, ""}}, ""},
		{"alias", "Esc", []ev{{"keyDown", "Escape", 0, ""}, {"keyUp", "Escape", 0, ""}}, ""},
		{"character", "a", []ev{{"keyDown", "a", 0, ""}, {"char", "a", 0, "a"}, {"keyUp", "a", 0, ""}}, ""},
		{"shortcut types nothing", "Control+a", []ev{{"keyDown", "a", 2, ""}, {"keyUp", "a", 2, ""}}, ""},
		{"shift keeps the char", "Shift+Tab", []ev{{"keyDown", "Tab", 8, ""}, {"keyUp", "Tab", 8, ""}}, ""},
		{"the plus key", "Control++", []ev{{"keyDown", "+", 2 | 8, ""}, {"keyUp", "+", 2 | 8, ""}}, ""},
		{"space bar", " ", []ev{{"keyDown", " ", 0, ""}, {"char", " ", 0, " "}, {"keyUp", " ", 0, ""}}, ""},
		{"unknown name", "Hyper", nil, `unknown key "Hyper"`},
		{"unknown modifier", "Fn+a", nil, `unknown modifier "Fn"`},
		{"empty", "", nil, "key is empty"},
	} {
		got, err := keyEvents(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error = %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var evs []ev
		for _, e := range got {
			evs = append(evs, ev{e.Type, e.Key, e.Modifiers, e.Text})
		}
		if len(evs) != len(c.want) {
			t.Errorf("%s: events = %+v, want %+v", c.name, evs, c.want)
			continue
		}
		for i := range evs {
			if evs[i] != c.want[i] {
				t.Errorf("%s: event %d = %+v, want %+v", c.name, i, evs[i], c.want[i])
			}
		}
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"https://example.com/", "https://example.com/", true},
		{" http://127.0.0.1:8080/a?b=c ", "http://127.0.0.1:8080/a?b=c", true},
		{"example.com", "", false},
		{"//example.com/x", "", false},
		{"javascript:alert(1)", "", false},
		{"data:text/html,hi", "", false},
		{"ftp://example.com/", "", false},
		{"https://", "", false},
	} {
		got, err := checkURL(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("checkURL(%q) = %q, %v; want %q ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestParseRef(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"e12", 12, true},
		{" e1 ", 1, true},
		{"12", 0, false},
		{"e0", 0, false},
		{"e-3", 0, false},
		{"e+3", 0, false},
		{"E12", 0, false},
		{"e", 0, false},
		{"e1x", 0, false},
	} {
		got, err := parseRef(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseRef(%q) = %d, %v; want %d ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestVisibleCentre(t *testing.T) {
	t.Parallel()
	square := func(x0, y0, x1, y1 float64) dom.Quad { return dom.Quad{x0, y0, x1, y0, x1, y1, x0, y1} }
	for _, c := range []struct {
		name  string
		quads []dom.Quad
		x, y  float64
		ok    bool
	}{
		{"inside", []dom.Quad{square(10, 20, 30, 40)}, 20, 30, true},
		{"clipped by the viewport", []dom.Quad{square(-100, 700, 100, 900)}, 50, 750, true},
		{"first visible quad wins", []dom.Quad{square(0, 900, 10, 950), square(5, 5, 15, 15)}, 10, 10, true},
		{"outside", []dom.Quad{square(0, 900, 10, 950)}, 0, 0, false},
		{"malformed", []dom.Quad{{1, 2, 3}}, 0, 0, false},
	} {
		x, y, ok := visibleCentre(c.quads, 1280, 800)
		if x != c.x || y != c.y || ok != c.ok {
			t.Errorf("%s: visibleCentre = %v, %v, %v; want %v, %v, %v", c.name, x, y, ok, c.x, c.y, c.ok)
		}
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	if got := diff([]string{"a"}, []string{"a"}); got != nil {
		t.Errorf("no change gave %q", got)
	}
	if got := strings.Join(diff([]string{"a", "b"}, []string{"a"}), "\n"); got != "page changed: 1 lines gone" {
		t.Errorf("removal gave %q", got)
	}
	var after []string
	for i := range 40 {
		after = append(after, strings.Repeat("x", i%5)+"line")
	}
	got := diff(nil, after)
	if got[0] != "page changed: 40 lines added:" || !strings.HasPrefix(got[len(got)-1], "… 25 more added lines") || len(got) != diffLines+2 {
		t.Errorf("big addition gave %q", got)
	}
	long := diff(nil, []string{strings.Repeat("é", 300)})
	if l := long[1]; len(l) > diffLineSize+len("+ …") || !utf8.ValidString(l) {
		t.Errorf("a long line was not clipped cleanly: %d bytes", len(l))
	}
}
