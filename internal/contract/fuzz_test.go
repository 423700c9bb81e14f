package contract

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzParse feeds arbitrary documents to Parse. It pins three properties:
// Parse never panics; a rejected document yields a non-empty Errors or a
// syntax error, never a half-built contract; and an accepted one survives
// the canonical JSON round trip byte for byte and can be evaluated.
func FuzzParse(f *testing.F) {
	seeds := []string{
		everyKind,
		`{"postconditions": [{"kind": "url", "pattern": "^https://example\\.com/$"}]}`,
		`{"postconditions": [{"kind": "dom_text", "contains": "330\u00a0m"}]}`,
		"postconditions:\n  - {kind: not, child: {kind: or, children: [{kind: no_dialog}, {kind: dom_text, selector: h1, contains: x}]}}\n",
		"postconditions:\n  - {kind: network, url_pattern: 'a', status_in: [200, 404], method: get, since: last_tool_call}\n",
		"postconditions:\n  - {kind: screenshot_class, class_id: home, distance_max: 64}\n",
		"postconditions:\n  - {kind: regex}\n  - {kind: url, pattern: '('}\n  - {kind: or, children: []}\n",
		"postconditions:\n  - &a {kind: no_dialog}\n  - *a\n",
		"postconditions: []\n",
		"postconditions:\n  - {kind: dom_text, contains: \"a\\x7fb\"}\n",
		"---\n---\n",
		"{",
		"",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	obs := leafObservation()
	classes := fakeClasses{"home": 0xf0f0f0f0f0f0f0f0}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			if p != nil {
				t.Fatalf("Parse returned a contract alongside error %v", err)
			}
			var errs Errors
			if errors.As(err, &errs) {
				if len(errs) == 0 {
					t.Fatal("Parse returned an empty Errors")
				}
				for _, fe := range errs {
					if fe.Msg == "" {
						t.Fatalf("error without a message at %q", fe.Path)
					}
				}
			}
			return
		}
		first, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		again, err := Parse([]byte(`{"postconditions":` + string(first) + `}`))
		if err != nil {
			t.Fatalf("canonical JSON does not parse: %v\n%s", err, first)
		}
		second, err := json.Marshal(again)
		if err != nil {
			t.Fatalf("Marshal after round trip: %v", err)
		}
		if string(first) != string(second) {
			t.Fatalf("canonical JSON changed in a round trip:\n%s\n%s", first, second)
		}
		v := Evaluate(p, obs, classes)
		if v.Passed == (v.FailedPath != "") {
			t.Fatalf("verdict passed=%v with failed path %q", v.Passed, v.FailedPath)
		}
		for _, q := range Queries(p) {
			if q.Selector == "" {
				t.Fatal("Queries returned an empty selector")
			}
		}
	})
}
