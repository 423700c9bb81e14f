package snapshot

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// page is a model as snapshot.js would return it for a small shop page.
const pageJSON = `{
  "lines": [
    {"k": "p", "t": [0, " ", 1]},
    {"k": "h1", "t": ["Lamps"]},
    {"k": "p", "t": ["Oil lamps burn ", 2, " for hours."]},
    {"k": "li", "d": 1, "t": ["Wicks"]},
    {"k": "li", "d": 2, "n": 3, "t": ["Cotton"]},
    {"k": "tr", "c": [["Model"], ["Price"]]},
    {"k": "tr", "c": [[3], ["12 €"]]},
    {"k": "pre", "t": ["lamp.light()\n  .dim()"]},
    {"k": "p", "t": [4, " ", 5, " ", 6]}
  ],
  "controls": [
    {"r": 1, "role": "link", "name": "Home", "href": "/"},
    {"r": 2, "role": "link", "name": "Cart", "href": "/cart"},
    {"r": 3, "role": "link", "name": "kerosene", "href": "https://fuel.example/k"},
    {"r": 4, "role": "link", "name": "Argand", "href": "#argand"},
    {"r": 5, "role": "textbox", "name": "Quantity", "type": "number", "v": "2"},
    {"r": 6, "role": "select", "name": "Colour", "v": "Brass", "opts": ["Brass", "Copper", "Tin"]},
    {"r": 7, "role": "button", "name": "Add to cart", "st": ["disabled"]}
  ],
  "issued": 7,
  "mutations": 42
}`

func decoded(t *testing.T) *Page {
	t.Helper()
	p, err := Decode([]byte(pageJSON))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestText(t *testing.T) {
	t.Parallel()
	want := `[Home](e1) [Cart](e2)
# Lamps
Oil lamps burn [kerosene](e3) for hours.
- Wicks
  3. Cotton
| Model | Price |
| [Argand](e4) | 12 € |
lamp.light()
  .dim()
[Quantity](e5 textbox type=number value="2") [Colour](e6 select value="Brass") [Add to cart](e7 button disabled)
`
	if got := decoded(t).Text(); got != want {
		t.Errorf("Text():\n%s\nwant:\n%s", got, want)
	}
}

func TestInteractive(t *testing.T) {
	t.Parallel()
	want := `[Home](e1)
[Cart](e2)
[kerosene](e3)
[Argand](e4)
[Quantity](e5 textbox type=number value="2")
[Colour](e6 select value="Brass" options="Brass|Copper|Tin")
[Add to cart](e7 button disabled)
`
	if got := decoded(t).Interactive(); got != want {
		t.Errorf("Interactive():\n%s\nwant:\n%s", got, want)
	}
}

func TestControlFormat(t *testing.T) {
	t.Parallel()
	many := make([]string, 30)
	for i := range many {
		many[i] = string(rune('a' + i%26))
	}
	for _, c := range []struct {
		name string
		ctl  Control
		want string
	}{
		{"link", Control{Ref: 9, Role: "link", Name: "Docs", Href: "/docs"}, "[Docs](e9)"},
		{"states", Control{Ref: 2, Role: "checkbox", Name: "Agree", States: []string{"checked", "disabled"}}, "[Agree](e2 checkbox checked disabled)"},
		{"quoted value", Control{Ref: 3, Role: "textbox", Name: "Q", Value: `say "hi"`}, `[Q](e3 textbox value="say \"hi\"")`},
		{"placeholder", Control{Ref: 4, Role: "textbox", Name: "Search", Placeholder: "Type here"}, `[Search](e4 textbox placeholder="Type here")`},
		{"long name", Control{Ref: 5, Role: "button", Name: strings.Repeat("x", 100)}, "[" + strings.Repeat("x", 79) + "…](e5 button)"},
		{"many options", Control{Ref: 6, Role: "select", Name: "S", Options: many}, `[S](e6 select options="` + strings.Join(many[:25], "|") + `|…+5")`},
		{"unnamed", Control{Ref: 7, Role: "button"}, "[](e7 button)"},
		{"shown text", Control{Ref: 8, Role: "button", Name: "Toggle Navigation", Shown: "menu", States: []string{"collapsed"}}, `[Toggle Navigation](e8 button shows="menu" collapsed)`},
	} {
		if got := c.ctl.Short(); got != c.want {
			t.Errorf("%s: Short() = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	p := decoded(t)
	for _, c := range []struct {
		query string
		want  []string
		total int
	}{
		{"KEROSENE", []string{"Oil lamps burn [kerosene](e3 https://fuel.example/k) for hours."}, 1},
		{"cotton", []string{"  3. Cotton"}, 1},
		{"12 €", []string{"| [Argand](e4 #argand) | 12 € |"}, 1},
		{"brass", []string{`[Quantity](e5 textbox type=number value="2") [Colour](e6 select value="Brass") [Add to cart](e7 button disabled)`}, 1},
		{"role:link", []string{"[Home](e1 /) [Cart](e2 /cart)", "Oil lamps burn [kerosene](e3 https://fuel.example/k) for hours.", "| [Argand](e4 #argand) | 12 € |"}, 4},
		{"role:link car", []string{"[Home](e1 /) [Cart](e2 /cart)"}, 1},
		{"role:heading", []string{"# Lamps"}, 1},
		{"role:textbox", []string{`[Quantity](e5 textbox type=number value="2") [Colour](e6 select value="Brass") [Add to cart](e7 button disabled)`}, 1},
		{"nothing like it", nil, 0},
	} {
		q, err := ParseQuery(c.query)
		if err != nil {
			t.Errorf("ParseQuery(%q): %v", c.query, err)
			continue
		}
		got, total := p.Find(q, 10)
		if !slices.Equal(got, c.want) || total != c.total {
			t.Errorf("Find(%q) = %q (%d total), want %q (%d total)", c.query, got, total, c.want, c.total)
		}
	}
}

// TestFindShownText: find matches the words a control shows when its name
// leaves them out.
func TestFindShownText(t *testing.T) {
	t.Parallel()
	p, err := Decode([]byte(`{"lines": [{"k": "p", "t": [0]}],
		"controls": [{"r": 1, "role": "button", "name": "Toggle Navigation", "tx": "menu"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, total := p.Find(Query{Text: "MENU"}, 10)
	if want := []string{`[Toggle Navigation](e1 button shows="menu")`}; !slices.Equal(got, want) || total != 1 {
		t.Errorf("Find(MENU) = %q (%d total), want %q (1 total)", got, total, want)
	}
}

func TestFindLimitAndWindow(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("lorem ipsum ", 60) + "needle " + strings.Repeat("dolor sit ", 60)
	p := &Page{
		Lines:    []Line{{Kind: kindParagraph, Spans: []Span{{Text: long}, {Control: 0, IsControl: true}}}},
		Controls: []Control{{Ref: 1, Role: "link", Name: "needle link"}},
	}
	got, total := p.Find(Query{Text: "needle"}, 10)
	if total != 2 {
		t.Errorf("total = %d, want 2 (the word and the link's name)", total)
	}
	if len(got) != 2 {
		t.Fatalf("got %d windows, want 2: %q", len(got), got)
	}
	if !strings.HasPrefix(got[0], "…") || !strings.HasSuffix(got[0], "…") || !strings.Contains(got[0], "needle") || len(got[0]) > windowBytes+10 {
		t.Errorf("first window = %q, want a cut of about %d bytes around the hit", got[0], windowBytes)
	}
	if !strings.HasSuffix(got[1], "[needle link](e1)") {
		t.Errorf("second window = %q, want it to end with the whole link", got[1])
	}
	if got, total := p.Find(Query{Text: "o"}, 3); len(got) != 3 || total <= 3 {
		t.Errorf("limit 3 gave %d matches of %d", len(got), total)
	}
}

func TestParseQuery(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in      string
		want    Query
		wantErr string
	}{
		{"  Save  ", Query{Text: "Save"}, ""},
		{"role:button", Query{Role: "button"}, ""},
		{"role:Link  Sign in ", Query{Role: "link", Text: "Sign in"}, ""},
		{"role:gizmo x", Query{}, `unknown role "gizmo"`},
		{"", Query{}, "query is empty"},
	} {
		got, err := ParseQuery(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ParseQuery(%q) error = %v, want %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseQuery(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestIndexFold(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s, sub string
		i, j   int
		ok     bool
	}{
		{"Hello World", "world", 6, 11, true},
		{"Straße", "STRASSE", 0, 0, false}, // simple folding only, like strings.EqualFold
		{"Île Vierge", "île", 0, 4, true},
		{"abc", "", 0, 0, true},
		{"ab", "abc", 0, 0, false},
	} {
		i, j, ok := indexFold(c.s, c.sub)
		if i != c.i || j != c.j || ok != c.ok {
			t.Errorf("indexFold(%q, %q) = %d, %d, %v; want %d, %d, %v", c.s, c.sub, i, j, ok, c.i, c.j, c.ok)
		}
	}
}

func TestAdded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name          string
		before, after []string
		added         []string
		removed       int
	}{
		{"same", []string{"a", "b"}, []string{"a", "b"}, nil, 0},
		{"reordered", []string{"a", "b"}, []string{"b", "a"}, nil, 0},
		{"appended", []string{"a"}, []string{"a", "b", "c"}, []string{"b", "c"}, 0},
		{"duplicate line added", []string{"x"}, []string{"x", "x"}, []string{"x"}, 0},
		{"replaced", []string{"a", "b"}, []string{"a", "c"}, []string{"c"}, 1},
	} {
		added, removed := Added(c.before, c.after)
		if !slices.Equal(added, c.added) || removed != c.removed {
			t.Errorf("%s: Added = %q, %d; want %q, %d", c.name, added, removed, c.added, c.removed)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, json, want string
	}{
		{"not json", `{`, "decoding page snapshot"},
		{"bad span", `{"lines":[{"k":"p","t":[true]}],"controls":[]}`, "neither text nor a control index"},
		{"control out of range", `{"lines":[{"k":"p","t":[3]}],"controls":[]}`, "line 0: control index 3 out of range"},
		{"cell control out of range", `{"lines":[{"k":"tr","c":[[-1]]}],"controls":[]}`, "control index -1 out of range"},
	} {
		if _, err := Decode([]byte(c.json)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Decode error = %v, want %q", c.name, err, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"ééééé", 3, "éé…"},
		{"anything", 0, "anything"},
	} {
		if got := clip(c.s, c.n); got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// FuzzDecode feeds arbitrary page models through every rendering: a page
// can put anything in its DOM, and no snapshot may crash the server or
// produce invalid UTF-8 out of valid input.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(pageJSON))
	f.Add([]byte(`{"lines":[{"k":"h9","t":["x\n",0]}],"controls":[{"r":1,"role":"link","name":"\u00e9\u00e9"}]}`))
	f.Add([]byte(`{"lines":[{"k":"tr","c":[[],["a\nb"]]}],"controls":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			return
		}
		text, inter := p.Text(), p.Interactive()
		if utf8.Valid(data) && (!utf8.ValidString(text) || !utf8.ValidString(inter)) {
			t.Errorf("valid input rendered to invalid UTF-8")
		}
		for _, q := range []Query{{Text: "a"}, {Role: "link"}, {Role: "heading"}} {
			p.Find(q, 5)
		}
		Added(p.TextLines(), p.TextLines())
	})
}
