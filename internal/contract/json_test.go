package contract

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	return string(b)
}

// everyKind uses each clause kind once, so the canonical-form tests cover
// all of them.
const everyKind = `postconditions:
  - {pattern: '^https://example\.com/\?a=1&b=<2>$', kind: url}
  - {contains: "Example Domain", kind: dom_text}
  - {value: 3, op: gte, selector: "li > a", kind: dom_count}
  - kind: network
    since: last_tool_call
    method: POST
    status_in: [200, 201]
    url_pattern: '^https://api\.example\.com/'
  - {distance_max: 6, class_id: home, kind: screenshot_class}
  - kind: and
    children:
      - {kind: no_dialog}
      - kind: or
        children:
          - {kind: not, child: {kind: dom_count, selector: ".error", op: eq, value: 0}}
          - {kind: network, url_pattern: x, status_in: [404]}
`

const everyKindCanonical = `[` +
	`{"kind":"url","pattern":"^https://example\\.com/\\?a=1\u0026b=\u003c2\u003e$"},` +
	`{"kind":"dom_text","selector":"body","contains":"Example Domain"},` +
	`{"kind":"dom_count","selector":"li \u003e a","op":"gte","value":3},` +
	`{"kind":"network","url_pattern":"^https://api\\.example\\.com/","status_in":[200,201],"method":"POST","since":"last_tool_call"},` +
	`{"kind":"screenshot_class","class_id":"home","distance_max":6},` +
	`{"kind":"and","children":[{"kind":"no_dialog"},{"kind":"or","children":[` +
	`{"kind":"not","child":{"kind":"dom_count","selector":".error","op":"eq","value":0}},` +
	`{"kind":"network","url_pattern":"x","status_in":[404],"since":"task_start"}]}]}` +
	`]`

func TestMarshalJSONCanonical(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(everyKind))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != everyKindCanonical {
		t.Errorf("canonical JSON\n got %s\nwant %s", got, everyKindCanonical)
	}
}

func TestMarshalJSONRoundTrip(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(everyKind))
	if err != nil {
		t.Fatal(err)
	}
	first := mustJSON(t, p)

	var back Postconditions
	if err := json.Unmarshal([]byte(first), &back); err != nil {
		t.Fatalf("UnmarshalJSON(canonical): %v", err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Errorf("decoded canonical JSON differs:\n got %s\nwant %s", mustJSON(t, back), first)
	}
	if second := mustJSON(t, back); second != first {
		t.Errorf("canonical JSON is not stable:\nfirst  %s\nsecond %s", first, second)
	}

	// Wrapped in a document, the same bytes parse too.
	doc, err := Parse([]byte(`{"postconditions": ` + first + `}`))
	if err != nil || !reflect.DeepEqual(doc, p) {
		t.Errorf("Parse(document around canonical JSON) = %s, %v", mustJSON(t, doc), err)
	}
}

// Clauses built in Go rather than decoded encode with their defaults
// written out, so the canonical form never depends on how a value was made.
func TestMarshalJSONHandBuiltDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   Postconditions
		want string
	}{
		{"nil", nil, `[]`},
		{"dom_text without selector", Postconditions{&DOMText{Contains: "a"}},
			`[{"kind":"dom_text","selector":"body","contains":"a"}]`},
		{"network without since", Postconditions{&Network{URLPattern: "x", StatusIn: []int{200}}},
			`[{"kind":"network","url_pattern":"x","status_in":[200],"since":"task_start"}]`},
		{"zero values stay", Postconditions{&DOMCount{Selector: "li", Op: OpEq}, &ScreenshotClass{ClassID: "c"}},
			`[{"kind":"dom_count","selector":"li","op":"eq","value":0},{"kind":"screenshot_class","class_id":"c","distance_max":0}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := mustJSON(t, tt.in); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestUnmarshalJSONValidates(t *testing.T) {
	t.Parallel()
	var p Postconditions
	err := json.Unmarshal([]byte(`[{"kind":"screenshot_class","class_id":"c","distance_max":99}]`), &p)
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Path != "postconditions[0].distance_max" {
		t.Errorf("UnmarshalJSON error = %v, want one error at postconditions[0].distance_max", err)
	}
	if p != nil {
		t.Errorf("Postconditions = %v after a failed decode, want it untouched", p)
	}
}
