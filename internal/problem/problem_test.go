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
	want := "f.yaml:3: top.b: field \"b\" appears twice\n" +
		"f.yaml:4: top.z: unknown field \"z\" (known: a, c, b)\n" +
		"f.yaml:1: top.c: missing"
	if c.List.Error() != want {
		t.Errorf("problems:\n%s\nwant:\n%s", c.List.Error(), want)
	}
	var seq yaml.Node
	yaml.Unmarshal([]byte("[1]"), &seq)
	c2 := &Collector{File: "g.yaml"}
	c2.Fields(seq.Content[0], "x", nil, nil)
	if got := c2.List.Error(); got != "g.yaml:1: x: must be a mapping, not a list" {
		t.Errorf("non-mapping: %q", got)
	}
	if Join("", "id") != "id" || Join("budget", "max_usd") != "budget.max_usd" {
		t.Error("Join")
	}
}
