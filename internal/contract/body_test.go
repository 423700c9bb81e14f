package contract

import (
	"strings"
	"testing"
)

// bodyObservation holds the write requests of a small shop: two submitted
// forms and a JSON fetch.
func bodyObservation() Observation {
	return Observation{
		URL: "https://shop.sandbox.test/orders/SH-1001",
		Network: []NetworkEntry{
			{URL: "https://shop.sandbox.test/cart/add", Method: "POST", Status: 303, ResourceType: "Document", StartMS: 10,
				Body: "sku=KT-0412&qty=2"},
			{URL: "https://shop.sandbox.test/checkout", Method: "POST", Status: 303, ResourceType: "Document", StartMS: 20,
				Body: "name=Ada+Lovelace&note=leave+at+the+door%2C+please&line=KT-0412x2", AfterLastToolCall: true},
			{URL: "https://shop.sandbox.test/api/wishlist", Method: "POST", Status: 201, ResourceType: "Fetch", StartMS: 30,
				Body: `{"sku":"KT-0412"}`},
			{URL: "https://shop.sandbox.test/cart/add", Method: "POST", Status: 303, ResourceType: "Document", StartMS: 40,
				Body: "sku=KT-0001&sku=KT-0412&qty=1"},
		},
	}
}

func TestEvaluateNetworkBody(t *testing.T) {
	t.Parallel()
	checkout := func(n *Network) *Network {
		n.URLPattern, n.Method, n.StatusIn = `^https://shop\.sandbox\.test/checkout$`, "POST", []int{303}
		return n
	}
	tests := []struct {
		name     string
		clause   *Network
		edit     func(*Observation)
		want     bool
		wantSeen string // substring of the evidence's Seen
		wantExp  string // substring of the evidence's Expected
	}{
		{"form field decoded", checkout(&Network{Form: map[string]string{"note": "leave at the door, please"}}), nil,
			true, "POST https://shop.sandbox.test/checkout (303)", `form {"note": "leave at the door, please"}`},
		{"every form field must hold", checkout(&Network{Form: map[string]string{"name": "Ada Lovelace", "line": "KT-0412x2"}}), nil,
			true, "", `form {"line": "KT-0412x2", "name": "Ada Lovelace"}`},
		{"form value differs", checkout(&Network{Form: map[string]string{"line": "KT-0412x3"}}), nil,
			false, `form field "line" is "KT-0412x2", want "KT-0412x3"`, ""},
		{"form field absent", checkout(&Network{Form: map[string]string{"coupon": "SPRING"}}), nil,
			false, `form has no field "coupon"`, ""},
		{"form values are exact, not substrings", checkout(&Network{Form: map[string]string{"name": "Ada"}}), nil,
			false, `form field "name" is "Ada Lovelace", want "Ada"`, ""},
		{"a field sent twice never matches", &Network{URLPattern: `/cart/add$`, StatusIn: []int{303}, Form: map[string]string{"sku": "KT-0412"}},
			func(o *Observation) { o.Network = o.Network[3:] },
			false, `form field "sku" sent 2 times ("KT-0001", "KT-0412")`, ""},
		{"any request may match", &Network{URLPattern: `/cart/add$`, StatusIn: []int{303}, Form: map[string]string{"sku": "KT-0412", "qty": "2"}}, nil,
			true, "POST https://shop.sandbox.test/cart/add (303)", ""},
		{"body_pattern over the raw body", &Network{URLPattern: `/api/wishlist$`, StatusIn: []int{201}, BodyPattern: `"sku":"KT-0412"`}, nil,
			true, "", `body matching "sku":"KT-0412"`},
		{"body_pattern sees the encoded form", checkout(&Network{BodyPattern: `note=leave\+at`}), nil, true, "", ""},
		{"body_pattern fails", checkout(&Network{BodyPattern: `qty=3`}), nil,
			false, `none with a wanted status, method and body: POST https://shop.sandbox.test/checkout (303), body "name=Ada`, ""},
		{"no body", checkout(&Network{Form: map[string]string{"name": "Ada Lovelace"}}),
			func(o *Observation) { o.Network[1].Body = "" },
			false, "no request body", ""},
		{"a cut body never matches", checkout(&Network{BodyPattern: `name=`}),
			func(o *Observation) { o.Network[1].BodyTruncated = true },
			false, "body longer than the 65536 bytes the judge keeps", ""},
		{"not a form", &Network{URLPattern: `/api/wishlist$`, StatusIn: []int{201}, Form: map[string]string{"sku": "KT-0412"}},
			func(o *Observation) { o.Network[2].Body = "%zz" },
			false, `body "%zz" is not form-encoded`, ""},
		{"status still checked first", checkout(&Network{Form: map[string]string{"name": "Ada Lovelace"}}),
			func(o *Observation) { o.Network[1].Status = 422 },
			false, "none with a wanted status, method and body: POST https://shop.sandbox.test/checkout (422)", ""},
		{"since applies to bodies too", &Network{URLPattern: `/cart/add$`, StatusIn: []int{303}, Since: SinceLastToolCall, Form: map[string]string{"qty": "2"}}, nil,
			false, "none of 1 request after the last tool call matches the URL pattern", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obs := bodyObservation()
			if tc.edit != nil {
				tc.edit(&obs)
			}
			v := Evaluate(Postconditions{tc.clause}, obs, nil)
			if v.Passed != tc.want {
				t.Fatalf("passed = %v, want %v; evidence: %+v", v.Passed, tc.want, v.Evidence)
			}
			wantEvidence(t, v.Evidence[0], tc.wantSeen, tc.wantExp)
		})
	}
}

func TestDecodeNetworkBody(t *testing.T) {
	t.Parallel()
	pc, err := Parse([]byte(`postconditions:
- kind: network
  url_pattern: '/checkout$'
  method: POST
  status_in: [303]
  body_pattern: 'line=KT-0412x2'
  form: {name: "Ada Lovelace", "line[]": ""}
`))
	if err != nil {
		t.Fatal(err)
	}
	nw := pc[0].(*Network)
	if nw.BodyPattern != "line=KT-0412x2" || len(nw.Form) != 2 || nw.Form["name"] != "Ada Lovelace" || nw.Form["line[]"] != "" {
		t.Errorf("decoded %+v", nw)
	}

	for _, tc := range []struct {
		name, src, path, msg string
	}{
		{"bad body_pattern", `- {kind: network, url_pattern: x, status_in: [200], body_pattern: '('}`,
			"postconditions[0].body_pattern", `invalid regexp "("`},
		{"empty body_pattern", `- {kind: network, url_pattern: x, status_in: [200], body_pattern: ''}`,
			"postconditions[0].body_pattern", "empty"},
		{"form not a mapping", `- {kind: network, url_pattern: x, status_in: [200], form: [a]}`,
			"postconditions[0].form", "expected a mapping, got a list"},
		{"empty form", `- {kind: network, url_pattern: x, status_in: [200], form: {}}`,
			"postconditions[0].form", "empty: name at least one form field"},
		{"form value not a string", `- {kind: network, url_pattern: x, status_in: [200], form: {qty: 2}}`,
			"postconditions[0].form.qty", "expected a string, got the integer 2 (quote it"},
		{"duplicate form field", "- kind: network\n  url_pattern: x\n  status_in: [200]\n  form: {qty: '1', qty: '2'}",
			"postconditions[0].form.qty", "appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantParseError(t, tc.src, tc.path, tc.msg) })
	}
}

// TestEvaluateNetworkCount covers count: a write the task asks for once,
// made twice, is two; and a body the judge cut, or a response it never
// saw, leaves a count undecided whenever it could change the outcome, so
// that neither a count nor a not around a network clause passes on what
// the judge did not see.
func TestEvaluateNetworkCount(t *testing.T) {
	t.Parallel()
	cartAdd := func(op Op, value int, form map[string]string) *Network {
		return &Network{URLPattern: `/cart/add$`, Method: "POST", StatusIn: []int{303}, Form: form, Count: &Count{Op: op, Value: value}}
	}
	cut := func(o *Observation) { o.Network[3].BodyTruncated = true }
	unseen := func(o *Observation) { o.Network[3].Status = 0 }
	failed := func(o *Observation) { o.Network[3].Status, o.Network[3].Error = 0, "net::ERR_CONNECTION_RESET" }
	tests := []struct {
		name          string
		clause        Clause
		edit          func(*Observation)
		want          bool
		wantUndecided bool
		wantSeen      string
		wantExp       string
	}{
		{"exactly as many as made", cartAdd(OpEq, 2, nil), nil, true, false,
			"2 requests match after the agent's first tool call: POST https://shop.sandbox.test/cart/add (303); POST https://shop.sandbox.test/cart/add (303)",
			"exactly 2 requests POST to /cart/add$ with status in [303], after the agent's first tool call"},
		{"a write made twice is not made once", cartAdd(OpEq, 1, nil), nil, false, false,
			"2 requests match", "exactly 1 request POST"},
		{"at most", cartAdd(OpLTE, 1, nil), nil, false, false, "2 requests match", "at most 1 request POST"},
		{"at least", cartAdd(OpGTE, 2, nil), nil, true, false, "2 requests match", "at least 2 requests POST"},
		{"form narrows what counts", cartAdd(OpEq, 1, map[string]string{"qty": "2"}), nil, true, false, "1 request matches", ""},
		{"none, when none is wanted", cartAdd(OpEq, 0, map[string]string{"qty": "5"}), nil, true, false,
			`none with a wanted status, method and body`, "exactly 0 requests"},
		{"a cut body could make two", cartAdd(OpEq, 1, map[string]string{"qty": "2"}), cut, false, true,
			"undecided: 1 request with a body longer than the 65536 bytes the judge keeps could match", ""},
		{"a cut body cannot undo at least one", &Network{URLPattern: `/cart/add$`, StatusIn: []int{303}, Form: map[string]string{"qty": "2"}}, cut, true, false,
			"POST https://shop.sandbox.test/cart/add (303)", ""},
		{"a cut body cannot reach an unreachable count", cartAdd(OpEq, 3, map[string]string{"qty": "2"}), cut, false, false, "1 request matches", ""},
		{"not over a cut body is undecided, never a pass", &Not{Child: &Network{URLPattern: `/cart/add$`, StatusIn: []int{303}, Form: map[string]string{"sku": "KT-0412", "qty": "1"}}},
			func(o *Observation) { o.Network[3].Body, o.Network[3].BodyTruncated = "sku=KT-04", true }, false, true, "undecided", ""},
		{"a write whose response was never seen could make two", cartAdd(OpEq, 1, nil), unseen, false, true,
			"undecided: 1 request whose response the judge never saw could match", ""},
		{"a write that failed is no match", cartAdd(OpEq, 1, nil), failed, true, false, "1 request matches", ""},
		{"not over a write whose response was never seen is undecided", &Not{Child: &Network{URLPattern: `/cart/add$`, StatusIn: []int{303}, Form: map[string]string{"qty": "1"}}},
			unseen, false, true, "undecided", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obs := bodyObservation()
			if tc.edit != nil {
				tc.edit(&obs)
			}
			v := Evaluate(Postconditions{tc.clause}, obs, nil)
			if v.Passed != tc.want || v.Undecided != tc.wantUndecided {
				t.Fatalf("passed = %v, undecided = %v; want %v, %v; evidence: %+v", v.Passed, v.Undecided, tc.want, tc.wantUndecided, v.Evidence)
			}
			wantEvidence(t, v.Evidence[len(v.Evidence)-1], tc.wantSeen, tc.wantExp)
		})
	}
}

func TestDecodeNetworkCount(t *testing.T) {
	t.Parallel()
	pc, err := Parse([]byte("postconditions:\n- {kind: network, url_pattern: x, status_in: [303], count: {op: eq, value: 1}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c := pc[0].(*Network).Count; c == nil || *c != (Count{Op: OpEq, Value: 1}) {
		t.Errorf("decoded count %+v", c)
	}
	for _, tc := range []struct{ name, src, path, msg string }{
		{"not a mapping", `- {kind: network, url_pattern: x, status_in: [200], count: 1}`,
			"postconditions[0].count", "expected a mapping, got the integer 1"},
		{"op missing", `- {kind: network, url_pattern: x, status_in: [200], count: {value: 1}}`,
			"postconditions[0].count.op", "missing"},
		{"op unknown", `- {kind: network, url_pattern: x, status_in: [200], count: {op: ne, value: 1}}`,
			"postconditions[0].count.op", `"ne" is not one of eq, gte, lte`},
		{"negative", `- {kind: network, url_pattern: x, status_in: [200], count: {op: eq, value: -1}}`,
			"postconditions[0].count.value", "negative"},
		{"unknown field", `- {kind: network, url_pattern: x, status_in: [200], count: {op: eq, value: 1, times: 2}}`,
			"postconditions[0].count.times", "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantParseError(t, tc.src, tc.path, tc.msg) })
	}
}

// wantEvidence checks that a clause's evidence says what a case expects:
// seen and expected each contain the given text.
func wantEvidence(t *testing.T, ev Evidence, seen, expected string) {
	t.Helper()
	if !strings.Contains(ev.Seen, seen) {
		t.Errorf("seen %q\nwant it to contain %q", ev.Seen, seen)
	}
	if !strings.Contains(ev.Expected, expected) {
		t.Errorf("expected %q\nwant it to contain %q", ev.Expected, expected)
	}
}

// wantParseError checks that postconditions src fail to load with msg at
// path.
func wantParseError(t *testing.T, src, path, msg string) {
	t.Helper()
	_, err := Parse([]byte("postconditions:\n" + src))
	if err == nil {
		t.Fatal("want an error")
	}
	if !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), msg) {
		t.Errorf("error %q\nwant %s: ...%s...", err, path, msg)
	}
}

// A form value is compared as the site stores it when the clause says
// how: trimmed, in any case; otherwise exactly.
func TestFormComparedAsStored(t *testing.T) {
	t.Parallel()
	pc, err := Parse([]byte(`postconditions:
  - kind: network
    url_pattern: /profile$
    status_in: [303]
    form: {email: dana@example.test, name: Dana}
    form_trim: [email, name]
    form_fold_case: [email]
`))
	if err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]bool{
		"email=dana%40example.test&name=Dana":         true,
		"email=+Dana%40Example.TEST%20&name=Dana+":    true,
		"email=dana%40example.test&name=dana":         false, // the name keeps its case
		"email=dana%40example.test.org&name=Dana":     false,
		"email=dana%40example.test&name=Da+na":        false, // only the ends are trimmed
		"email=dana%40example.test&email=x&name=Dana": false,
	} {
		obs := Observation{Network: []NetworkEntry{{URL: "https://x.test/profile", Method: "POST", Status: 303, Body: body}}}
		if v := Evaluate(pc, obs, nil); v.Passed != want {
			t.Errorf("%s: passed=%v, want %v (%+v)", body, v.Passed, want, v.Evidence)
		}
	}
	_, err = Parse([]byte("postconditions:\n  - {kind: network, url_pattern: x, status_in: [200], form: {a: b}, form_trim: [c]}\n"))
	if err == nil || !strings.Contains(err.Error(), `postconditions[0].form_trim[0]: "c" is not a field of form`) {
		t.Errorf("a trimmed field that form does not name: %v", err)
	}
}
