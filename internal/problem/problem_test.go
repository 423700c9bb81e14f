package problem

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestString(t *testing.T) {
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{"everything", Problem{File: "t.yaml", Line: 12, Path: "postconditions[0].pattern", Msg: "bad"}, "t.yaml:12: postconditions[0].pattern: bad"},
		{"no line", Problem{File: "t.yaml", Path: "id", Msg: "missing"}, "t.yaml: id: missing"},
		{"whole file", Problem{File: "web/", Msg: "not an archive"}, "web/: not an archive"},
	}
	for _, tc := range tests {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%s: String() = %q, want %q", tc.name, got, tc.want)
		}
	}
	l := List{tests[0].p, tests[1].p}
	if got, want := l.Error(), tests[0].want+"\n"+tests[1].want; got != want {
		t.Errorf("List.Error() = %q, want %q", got, want)
	}
}

func TestDescribe(t *testing.T) {
	doc := `{m: {a: 1}, l: [1], s: "x", i: 3, f: 1.5, b: true, n: null, long: "` + strings.Repeat("é", 30) + `"}`
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"m": "a mapping", "l": "a list", "s": `the string "x"`, "i": "the integer 3",
		"f": "the number 1.5", "b": "the boolean true", "n": "null",
		"long": `the string "` + strings.Repeat("é", 20) + `…(+20 bytes)"`,
	}
	m := root.Content[0]
	for i := 0; i < len(m.Content); i += 2 {
		key, val := m.Content[i].Value, m.Content[i+1]
		if got := Describe(val); got != want[key] {
			t.Errorf("Describe(%s) = %q, want %q", key, got, want[key])
		}
	}
}

func TestCollectorFields(t *testing.T) {
	var root yaml.Node
	src := "a: 1\nb: 2\nb: 3\nz: 4\n"
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	c := &Collector{File: "f.yaml"}
	got := c.Fields(root.Content[0], "top", []string{"a", "c"}, []string{"b"})
	if got["a"] == nil || got["a"].Value != "1" || got["b"].Value != "2" {
		t.Errorf("Fields returned %v", got)
	}
	want := "f.yaml:1: top.c: missing\n" +
		"f.yaml:3: top.b: field \"b\" appears twice (first on line 2)\n" +
		"f.yaml:4: top.z: unknown field \"z\" (known: a, c, b)"
	if c.Result().Error() != want {
		t.Errorf("problems:\n%s\nwant:\n%s", c.List.Error(), want)
	}
	var seq yaml.Node
	yaml.Unmarshal([]byte("[1]"), &seq)
	c2 := &Collector{File: "g.yaml"}
	c2.Fields(seq.Content[0], "x", nil, nil)
	if got := c2.List.Error(); got != "g.yaml:1: x: expected a mapping, got a list" {
		t.Errorf("non-mapping: %q", got)
	}
}

// TestKitStrictness pins the one strictness and the one wording every
// decoder gets from the kit.
func TestKitStrictness(t *testing.T) {
	t.Parallel()
	doc := "s: x\nblank: ' '\nnum: 1969\nnul: null\nlist: [a, '', 2]\nctl: \"a\\x01b\"\n" +
		"i: 42\nbig: 99999999999999999999\nf: 1.5\nref: &r y\nalias: *r\n"
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	c := &Collector{File: "k.yaml"}
	m, ok := c.Mapping(root.Content[0], "")
	if !ok {
		t.Fatal(c.List)
	}
	if v, ok := c.Str(m.Get("s"), "s"); !ok || v != "x" {
		t.Errorf("Str(s) = %q, %v", v, ok)
	}
	if v := c.Text(m.Get("blank"), "blank"); v != "" {
		t.Errorf("Text(blank) = %q", v)
	}
	c.Str(m.Get("num"), "num")
	c.Str(m.Get("nul"), "nul")
	if got := c.Strings(m.Get("list"), "list"); len(got) != 3 || got[0] != "a" {
		t.Errorf("Strings(list) = %q", got)
	}
	c.Str(m.Get("ctl"), "ctl")
	if v, ok := c.Int(m.Get("i"), "i"); !ok || v != 42 {
		t.Errorf("Int(i) = %d, %v", v, ok)
	}
	c.Int(m.Get("big"), "big")
	if v, ok := c.Number(m.Get("f"), "f"); !ok || v != 1.5 {
		t.Errorf("Number(f) = %v, %v", v, ok)
	}
	m.Get("ref")
	c.Str(m.Get("alias"), "alias")
	if _, ok := c.Str(m.Get("absent"), "absent"); ok {
		t.Error("Str of an absent field is ok")
	}
	m.Done()
	want := []string{
		"k.yaml:2: blank: empty",
		`k.yaml:3: num: expected a string, got the integer 1969 (quote it to make it a string)`,
		"k.yaml:4: nul: expected a string, got null (quote it to make it a string)",
		"k.yaml:5: list[1]: empty",
		"k.yaml:5: list[2]: expected a string, got the integer 2 (quote it to make it a string)",
		"k.yaml:6: ctl: contains the control character U+0001",
		"k.yaml:8: big: expected an integer, got the number 99999999999999999999",
		"k.yaml:11: alias: YAML aliases are not allowed",
	}
	if got := c.Result().Error(); got != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestDocument(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, data, want string }{
		{"empty", "", "d.yaml: empty document"},
		{"comment only", "# nothing\n", "d.yaml: empty document"},
		{"null", "~\n", "d.yaml: empty document"},
		{"second document", "a: 1\n---\nb: 2\n", "d.yaml:2: a second YAML document: a file holds one document"},
		{"syntax", "a: [1\n", "d.yaml:1: not valid YAML: did not find expected ',' or ']'"},
	}
	for _, tc := range tests {
		c := &Collector{File: "d.yaml"}
		if n := c.Document([]byte(tc.data)); n != nil || c.List.Error() != tc.want {
			t.Errorf("%s: Document = %v, problems %q, want nil and %q", tc.name, n, c.List.Error(), tc.want)
		}
	}
	c := &Collector{File: "d.yaml"}
	if n := c.Document([]byte("{a: 1}")); n == nil || n.Kind != yaml.MappingNode || c.List != nil {
		t.Errorf("Document of a mapping = %v, problems %v", n, c.List)
	}
}

func TestJoin(t *testing.T) {
	t.Parallel()
	for _, tc := range [][3]string{
		{"", "id", "id"},
		{"budget", "max_usd", "budget.max_usd"},
		{"headers", "content-type", "headers.content-type"},
		{"p[0]", "a.b", `p[0]["a.b"]`},
		{"p", "", `p[""]`},
	} {
		if got := Join(tc[0], tc[1]); got != tc[2] {
			t.Errorf("Join(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
	if got := Index("reference", 2); got != "reference[2]" {
		t.Errorf("Index = %q", got)
	}
}
