package contract

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// sequenceNode parses src, a YAML list, and returns its node the way a task
// loader would hand it to DecodePostconditions.
func sequenceNode(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("test input is not YAML: %v\n%s", err, src)
	}
	return doc.Content[0]
}

func TestDecodePostconditionsErrors(t *testing.T) {
	t.Parallel()
	type want struct {
		path string
		line int
		msg  string // substring of FieldError.Msg
	}
	tests := []struct {
		name string
		src  string
		want []want
	}{
		{"unknown kind", `- {kind: regex, pattern: x}`,
			[]want{{"postconditions[0].kind", 1, `unknown kind "regex"`}}},
		{"missing kind", `- {pattern: x}`,
			[]want{{"postconditions[0].kind", 1, "missing"}}},
		{"kind not a string", `- {kind: [url]}`,
			[]want{{"postconditions[0].kind", 1, "expected a string, got a list"}}},
		{"unknown field", "- kind: url\n  pattern: '^a$'\n  patern: x",
			[]want{{"postconditions[0].patern", 3, `unknown field "patern" (known: kind, pattern)`}}},
		{"missing required field", "- kind: url",
			[]want{{"postconditions[0].pattern", 1, "missing"}}},
		{"bad regexp in a nested clause", "- kind: and\n  children:\n    - {kind: url, pattern: '('}",
			[]want{{"postconditions[0].children[0].pattern", 3, `invalid regexp "(": missing closing )`}}},
		{"bad url_pattern", `- {kind: network, url_pattern: 'a[', status_in: [200]}`,
			[]want{{"postconditions[0].url_pattern", 1, `invalid regexp "a[": missing closing ]`}}},
		{"method with a space", `- {kind: network, url_pattern: x, status_in: [200], method: "GET "}`,
			[]want{{"postconditions[0].method", 1, `"GET " is not an HTTP method`}}},
		{"page not absolute", `- {kind: dom_text, contains: a, page: /cart}`,
			[]want{{"postconditions[0].page", 1, `"/cart" is not an absolute http or https URL`}}},
		{"page of another scheme", `- {kind: dom_count, selector: li, op: eq, value: 0, page: 'file:///etc/passwd'}`,
			[]want{{"postconditions[0].page", 1, `"file:///etc/passwd" is not an absolute http or https URL`}}},
		{"page not a URL", `- {kind: dom_text, contains: a, page: 'http://a b/%zz'}`,
			[]want{{"postconditions[0].page", 1, `is not a URL`}}},
		{"page on another clause", `- {kind: url, pattern: x, page: 'https://a.test/'}`,
			[]want{{"postconditions[0].page", 1, `unknown field "page"`}}},
		{"integer where a string belongs", `- {kind: dom_text, contains: 1969}`,
			[]want{{"postconditions[0].contains", 1, "expected a string, got the integer 1969 (quote it"}}},
		{"boolean where a string belongs", `- {kind: network, url_pattern: x, status_in: [200], method: true}`,
			[]want{{"postconditions[0].method", 1, "expected a string, got the boolean true"}}},
		{"null where a string belongs", `- {kind: dom_text, selector: null, contains: a}`,
			[]want{{"postconditions[0].selector", 1, "expected a string, got null"}}},
		{"string where an integer belongs", `- {kind: dom_count, selector: li, op: eq, value: "3"}`,
			[]want{{"postconditions[0].value", 1, `expected an integer, got the string "3"`}}},
		{"float where an integer belongs", `- {kind: dom_count, selector: li, op: eq, value: 1.5}`,
			[]want{{"postconditions[0].value", 1, "expected an integer, got the number 1.5"}}},
		{"integer out of range", `- {kind: dom_count, selector: li, op: eq, value: 18446744073709551615}`,
			[]want{{"postconditions[0].value", 1, "out of range"}}},
		{"negative value", `- {kind: dom_count, selector: li, op: gte, value: -1}`,
			[]want{{"postconditions[0].value", 1, "-1 is negative"}}},
		{"unknown op", `- {kind: dom_count, selector: li, op: gt, value: 1}`,
			[]want{{"postconditions[0].op", 1, `"gt" is not one of eq, gte, lte`}}},
		{"empty selector", `- {kind: dom_count, selector: " ", op: eq, value: 1}`,
			[]want{{"postconditions[0].selector", 1, "empty"}}},
		{"unknown since", `- {kind: network, url_pattern: x, status_in: [200], since: start}`,
			[]want{{"postconditions[0].since", 1, `"start" is not one of task_start, last_tool_call`}}},
		{"empty status_in", `- {kind: network, url_pattern: x, status_in: []}`,
			[]want{{"postconditions[0].status_in", 1, "empty"}}},
		{"status_in not a list", `- {kind: network, url_pattern: x, status_in: 200}`,
			[]want{{"postconditions[0].status_in", 1, "expected a list, got the integer 200"}}},
		{"status codes out of range", `- {kind: network, url_pattern: x, status_in: [200, 99, 600]}`,
			[]want{
				{"postconditions[0].status_in[1]", 1, "status 99 outside 100..599"},
				{"postconditions[0].status_in[2]", 1, "status 600 outside 100..599"},
			}},
		{"distance_max above 64", `- {kind: screenshot_class, class_id: home, distance_max: 65}`,
			[]want{{"postconditions[0].distance_max", 1, "65 outside 0..64"}}},
		{"distance_max below 0", `- {kind: screenshot_class, class_id: home, distance_max: -1}`,
			[]want{{"postconditions[0].distance_max", 1, "-1 outside 0..64"}}},
		{"empty class_id", `- {kind: screenshot_class, class_id: "", distance_max: 4}`,
			[]want{{"postconditions[0].class_id", 1, "empty"}}},
		{"empty contains", `- {kind: dom_text, contains: ""}`,
			[]want{{"postconditions[0].contains", 1, "empty"}}},
		{"contains only white space", "- {kind: dom_text, contains: \"\u00a0\\t \"}",
			[]want{{"postconditions[0].contains", 1, "empty"}}},
		{"control character", `- {kind: dom_text, contains: "a\x01b"}`,
			[]want{{"postconditions[0].contains", 1, "control character U+0001"}}},
		{"field on no_dialog", `- {kind: no_dialog, message: hi}`,
			[]want{{"postconditions[0].message", 1, `unknown field "message" (known: kind)`}}},
		{"empty and", `- {kind: and, children: []}`,
			[]want{{"postconditions[0].children", 1, "empty: and needs at least one clause"}}},
		{"empty or", "- kind: or\n  children: []",
			[]want{{"postconditions[0].children", 2, "empty: or needs at least one clause"}}},
		{"or without children", `- {kind: or}`,
			[]want{{"postconditions[0].children", 1, "missing"}}},
		{"not with children instead of child", "- kind: not\n  children:\n    - {kind: no_dialog}",
			[]want{
				{"postconditions[0].child", 1, "missing"},
				{"postconditions[0].children", 2, `unknown field "children" (known: kind, child)`},
			}},
		{"not with a list as child", `- {kind: not, child: [{kind: no_dialog}]}`,
			[]want{{"postconditions[0].child", 1, "expected exactly one clause"}}},
		{"clause is a scalar", `- url`,
			[]want{{"postconditions[0]", 1, `expected a mapping, got the string "url"`}}},
		{"duplicate field", "- kind: url\n  pattern: a\n  pattern: b",
			[]want{{"postconditions[0].pattern", 3, `field "pattern" appears twice (first on line 2)`}}},
		{"field name not a string", `- {kind: no_dialog, 7: x}`,
			[]want{{"postconditions[0]", 1, "field names must be strings, got the integer 7"}}},
		{"odd field name is quoted in the path", `- {kind: no_dialog, "a.b": x}`,
			[]want{{`postconditions[0]["a.b"]`, 1, "unknown field"}}},
		{"alias", "- &n {kind: no_dialog}\n- *n",
			[]want{{"postconditions[1]", 2, "aliases are not allowed"}}},
		{"empty list", `[]`,
			[]want{{"postconditions", 1, "empty: a contract must check at least one thing"}}},
		{"not a list", `{kind: url, pattern: x}`,
			[]want{{"postconditions", 1, "expected a list, got a mapping"}}},
		{"nesting too deep",
			"- " + strings.Repeat("{kind: not, child: ", maxDepth) + "{kind: no_dialog}" + strings.Repeat("}", maxDepth),
			[]want{{"postconditions[0]" + strings.Repeat(".child", maxDepth), 1, "nested deeper than 32 levels"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, errs := DecodePostconditions(sequenceNode(t, tt.src), "postconditions")
			if p != nil {
				t.Errorf("Postconditions = %v, want nil alongside errors", p)
			}
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(tt.want), errs)
			}
			for i, w := range tt.want {
				got := errs[i]
				if got.Path != w.path || got.Line != w.line || !strings.Contains(got.Msg, w.msg) {
					t.Errorf("error %d = {path %q, line %d, msg %q}\nwant {path %q, line %d, msg containing %q}",
						i, got.Path, got.Line, got.Msg, w.path, w.line, w.msg)
				}
			}
		})
	}
}

func TestDecodePostconditionsNilNode(t *testing.T) {
	t.Parallel()
	_, errs := DecodePostconditions(nil, "tasks[3].postconditions")
	if len(errs) != 1 || errs[0].Path != "tasks[3].postconditions" || errs[0].Msg != "missing" {
		t.Errorf("errors = %#v, want one \"missing\" at tasks[3].postconditions", errs)
	}
}

// An author fixing a contract should see every problem at once.
func TestParseReportsAllErrorsInOnePass(t *testing.T) {
	t.Parallel()
	const doc = `postconditions:
  - kind: regex
    pattern: x
  - kind: url
    pattern: '^https://example\.com/$'
    flags: i
  - kind: and
    children:
      - kind: url
        pattern: '('
  - kind: or
    children: []
`
	_, err := Parse([]byte(doc))
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("Parse error = %v (%T), want Errors", err, err)
	}
	want := []FieldError{
		{Path: "postconditions[0].kind", Line: 2},
		{Path: "postconditions[1].flags", Line: 6},
		{Path: "postconditions[2].children[0].pattern", Line: 10},
		{Path: "postconditions[3].children", Line: 12},
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(want), errs)
	}
	for i, w := range want {
		if errs[i].Path != w.Path || errs[i].Line != w.Line {
			t.Errorf("error %d at %s line %d, want %s line %d", i, errs[i].Path, errs[i].Line, w.Path, w.Line)
		}
	}
	wantText := `postconditions[0].kind: unknown kind "regex" (want one of url, dom_text, dom_count, network, screenshot_class, no_dialog, and, or, not)
postconditions[1].flags: unknown field "flags" (known: kind, pattern)
postconditions[2].children[0].pattern: invalid regexp "(": missing closing )
postconditions[3].children: empty: or needs at least one clause`
	if got := errs.Error(); got != wantText {
		t.Errorf("Errors.Error() =\n%s\nwant\n%s", got, wantText)
	}
}

func TestParseDocumentErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		doc      string
		wantPath string // of the single FieldError; "-" for a syntax error, which has no path but a line
		wantMsg  string
	}{
		{"unknown top-level key", "postconditions: [{kind: no_dialog}]\ntimeout: 3", "timeout",
			`unknown field "timeout" (known: postconditions)`},
		{"no postconditions", "{}", "postconditions", "missing"},
		{"not a mapping", "- {kind: no_dialog}", "", "expected a mapping, got a list"},
		{"empty input", "", "", "empty document"},
		{"only a comment", "# nothing here\n", "", "empty document"},
		{"two documents", "postconditions: [{kind: no_dialog}]\n---\npostconditions: [{kind: no_dialog}]", "",
			"a second YAML document"},
		{"YAML syntax error", "postconditions:\n  - kind: url\n   pattern: x", "-", "not valid YAML: "},
		{"JSON syntax error", `{"postconditions": [{"kind": "no_dialog"}`, "-", "not valid YAML: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse([]byte(tt.doc))
			if err == nil {
				t.Fatalf("Parse = %v, nil; want an error", p)
			}
			var errs Errors
			if !errors.As(err, &errs) || len(errs) != 1 {
				t.Fatalf("error = %v (%T), want exactly one FieldError", err, err)
			}
			if tt.wantPath == "-" {
				if errs[0].Path != "" || errs[0].Line == 0 || !strings.Contains(errs[0].Msg, tt.wantMsg) {
					t.Errorf("error = {path %q, line %d, msg %q}, want no path, a line and a msg containing %q",
						errs[0].Path, errs[0].Line, errs[0].Msg, tt.wantMsg)
				}
				return
			}
			if errs[0].Path != tt.wantPath || !strings.Contains(errs[0].Msg, tt.wantMsg) {
				t.Errorf("error = {path %q, msg %q}, want {path %q, msg containing %q}",
					errs[0].Path, errs[0].Msg, tt.wantPath, tt.wantMsg)
			}
		})
	}
}

func TestParseFillsDefaults(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(`postconditions:
  - {kind: dom_text, contains: Example}
  - {kind: network, url_pattern: '^https://a/', status_in: [200, 204], method: post}
  - {kind: not, child: {kind: dom_count, selector: li, op: lte, value: 0}}
  - {kind: or, children: [{kind: screenshot_class, class_id: home, distance_max: 0}, {kind: no_dialog}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Postconditions{
		&DOMText{Selector: "body", Contains: "Example"},
		&Network{URLPattern: "^https://a/", StatusIn: []int{200, 204}, Method: "post", Since: SinceTaskStart},
		&Not{Child: &DOMCount{Selector: "li", Op: OpLTE, Value: 0}},
		&Or{Children: []Clause{&ScreenshotClass{ClassID: "home", DistanceMax: 0}, &NoDialog{}}},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Parse =\n%s\nwant\n%s", mustJSON(t, p), mustJSON(t, want))
	}
}

// JSON is YAML, so a contract written either way decodes to the same value
// and so evaluates the same.
func TestParseJSONEqualsYAML(t *testing.T) {
	t.Parallel()
	const yamlDoc = `postconditions:
  - kind: url
    pattern: '^https://example\.com/$'
  - kind: or
    children:
      - {kind: dom_text, selector: h1, contains: "Example Domain"}
      - {kind: dom_count, selector: "h1", op: gte, value: 1}
  - kind: not
    child: {kind: no_dialog}
`
	const jsonDoc = `{"postconditions": [
  {"kind": "url", "pattern": "^https://example\\.com/$"},
  {"kind": "or", "children": [
    {"kind": "dom_text", "selector": "h1", "contains": "Example Domain"},
    {"kind": "dom_count", "selector": "h1", "op": "gte", "value": 1}]},
  {"kind": "not", "child": {"kind": "no_dialog"}}
]}`
	fromYAML, err := Parse([]byte(yamlDoc))
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	fromJSON, err := Parse([]byte(jsonDoc))
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if !reflect.DeepEqual(fromYAML, fromJSON) {
		t.Fatalf("YAML and JSON differ:\n%s\n%s", mustJSON(t, fromYAML), mustJSON(t, fromJSON))
	}
	obs := Observation{
		URL:      "https://example.com/",
		Elements: map[string]Elements{"h1": {Count: 1, Texts: []string{"Example Domain"}}},
		Dialogs:  []Dialog{{Type: "alert", Message: "hi"}},
	}
	vy, vj := Evaluate(fromYAML, obs, nil), Evaluate(fromJSON, obs, nil)
	if !reflect.DeepEqual(vy, vj) {
		t.Errorf("verdicts differ:\nYAML %+v\nJSON %+v", vy, vj)
	}
	if !vy.Passed {
		t.Errorf("verdict failed at %s, want pass; evidence %+v", vy.FailedClause(), vy.Evidence)
	}

	// The same errors, on the same paths, whichever format carries them.
	_, errY := Parse([]byte("postconditions:\n  - {kind: url, pattern: '('}"))
	_, errJ := Parse([]byte(`{"postconditions": [{"kind": "url", "pattern": "("}]}`))
	if errY == nil || errJ == nil || errY.Error() != errJ.Error() {
		t.Errorf("errors differ: YAML %v, JSON %v", errY, errJ)
	}
}

func TestSelectorsAndClassIDs(t *testing.T) {
	t.Parallel()
	p := Postconditions{
		&DOMText{Contains: "a"}, // default selector
		&And{Children: []Clause{
			&DOMCount{Selector: "li.result", Op: OpGTE, Value: 3},
			&Not{Child: &DOMText{Selector: "h1", Contains: "Error"}},
			&ScreenshotClass{ClassID: "results", DistanceMax: 8},
		}},
		&Or{Children: []Clause{
			&DOMText{Selector: "h1", Contains: "b"},
			&ScreenshotClass{ClassID: "empty-state", DistanceMax: 8},
			&ScreenshotClass{ClassID: "results", DistanceMax: 4},
		}},
		&URL{Pattern: "x"},
		&DOMText{Selector: "h1", Contains: "Saved", Page: "https://shop.test/cart"},
		&Not{Child: &DOMCount{Selector: "li.item", Op: OpGTE, Value: 3, Page: "https://shop.test/cart"}},
		&DOMCount{Selector: "h1", Op: OpEq, Value: 1, Page: "https://shop.test/a"},
	}
	wantActive := []Query{{Selector: "body", Contains: []string{"a"}}, {Selector: "h1", Contains: []string{"Error", "b"}}, {Selector: "li.result"}}
	if got := Queries(p); !reflect.DeepEqual(got, wantActive) {
		t.Errorf("Queries = %+v, want %+v", got, wantActive)
	}
	wantPages := []PageRead{
		{URL: "https://shop.test/a", Queries: []Query{{Selector: "h1"}}},
		{URL: "https://shop.test/cart", Queries: []Query{{Selector: "h1", Contains: []string{"Saved"}}, {Selector: "li.item"}}},
	}
	if got := PageReads(p); !reflect.DeepEqual(got, wantPages) {
		t.Errorf("PageReads = %+v, want %+v", got, wantPages)
	}
	if got, want := ClassIDs(p), []string{"empty-state", "results"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ClassIDs = %q, want %q", got, want)
	}
	if got := ClassIDs(Postconditions{&NoDialog{}}); len(got) != 0 {
		t.Errorf("ClassIDs without screenshot clauses = %q, want none", got)
	}
}
