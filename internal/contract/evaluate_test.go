package contract

import (
	"math/bits"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// fakeClasses gives each class one example hash.
type fakeClasses map[string]uint64

func (f fakeClasses) Distance(classID string, hash uint64) (int, bool) {
	ex, ok := f[classID]
	if !ok {
		return 0, false
	}
	return bits.OnesCount64(ex ^ hash), true
}

// leafObservation is the page most leaf cases below are judged against.
func leafObservation() Observation {
	return Observation{
		URL:   "https://en.wikipedia.org/wiki/Eiffel_Tower",
		Title: "Eiffel Tower - Wikipedia",
		Elements: map[string]Elements{
			"body": {Count: 1, Texts: []string{"Eiffel Tower\n\nThe tower is 330\u00a0m\t(1,083 ft) tall,\n about the same height as an 81-storey building."}},
			"h1":   {Count: 1, Texts: []string{"Eiffel Tower"}},
			"li":   {Count: 3, Texts: []string{"Paris", "France", "Champ de Mars"}},
			"p":    {Count: 2, Texts: []string{"First paragraph.", "Height: 330 metres"}},
			".err": {Count: 0},
		},
		Network: []NetworkEntry{
			{URL: "https://en.wikipedia.org/wiki/Eiffel_Tower", Method: "GET", Status: 200, ResourceType: "Document", StartMS: 10},
			{URL: "https://en.wikipedia.org/w/api.php?action=query", Method: "GET", Status: 404, ResourceType: "XHR", StartMS: 900, AfterLastToolCall: true},
			{URL: "https://en.wikipedia.org/w/api.php?action=edit", Method: "POST", Status: 200, ResourceType: "Fetch", StartMS: 950, AfterLastToolCall: true},
			{URL: "https://upload.wikimedia.org/x.png", Method: "GET", Error: "net::ERR_NAME_NOT_RESOLVED", StartMS: 30},
		},
		Screenshot: Screenshot{PHash: "f0f0f0f0f0f0f0f0"},
	}
}

func TestEvaluateLeaves(t *testing.T) {
	t.Parallel()
	classes := fakeClasses{"article": 0xf0f0f0f0f0f0f0f3, "home": 0x0f0f0f0f0f0f0f0f}
	tests := []struct {
		name     string
		clause   Clause
		edit     func(*Observation) // changes leafObservation for this case
		classes  Classes
		want     bool
		wantSeen string // substring of Evidence.Seen
	}{
		{"url matches", &URL{Pattern: `^https://en\.wikipedia\.org/wiki/Eiffel_Tower$`}, nil, nil,
			true, "https://en.wikipedia.org/wiki/Eiffel_Tower"},
		{"url does not match", &URL{Pattern: `^https://example\.com/$`}, nil, nil,
			false, "https://en.wikipedia.org/wiki/Eiffel_Tower"},
		{"url pattern is unanchored", &URL{Pattern: `Eiffel`}, nil, nil, true, ""},
		{"url empty", &URL{Pattern: `^$`}, func(o *Observation) { o.URL = "" }, nil, true, "(no URL)"},

		{"dom_text found", &DOMText{Selector: "h1", Contains: "Eiffel Tower"}, nil, nil,
			true, `h1: 1 match; match 1: "Eiffel Tower"`},
		{"dom_text in any match", &DOMText{Selector: "p", Contains: "330 metres"}, nil, nil,
			true, "match 2"},
		{"dom_text default selector is body", &DOMText{Contains: "81-storey"}, nil, nil, true, "body: 1 match"},
		{"dom_text no-break space in page matches space", &DOMText{Contains: "330 m (1,083 ft) tall, about"}, nil, nil,
			true, ""},
		{"dom_text no-break space in contract matches space", &DOMText{Selector: "p", Contains: "Height:\u00a0330\u00a0metres"}, nil, nil,
			true, ""},
		{"dom_text runs of space fold to one", &DOMText{Contains: "  Eiffel \n Tower   The tower "}, nil, nil,
			true, ""},
		{"dom_text is case-sensitive", &DOMText{Selector: "h1", Contains: "eiffel tower"}, nil, nil,
			false, `h1: 1 match; longest part found is "e", in match 1: "Eiffel Tower"`},
		{"dom_text with nothing in common shows the start", &DOMText{Selector: "li", Contains: "Zurich"}, nil, nil,
			false, `li: 3 matches; match 1 begins: "Paris"`},
		{"dom_text shows the longest part found", &DOMText{Contains: "330 m (1,083 feet)"}, nil, nil,
			false, `longest part found is "330 m (1,083 f", in match 1: "Eiffel Tower The tower is 330 m`},
		{"dom_text selector absent", &DOMText{Selector: "h2", Contains: "x"}, nil, nil,
			false, "selector h2 missing from the observation"},
		{"dom_text selector matched nothing", &DOMText{Selector: ".err", Contains: "x"}, nil, nil,
			false, "no visible element matches .err"},
		{"dom_text count without texts", &DOMText{Selector: "h1", Contains: "x"},
			func(o *Observation) { o.Elements["h1"] = Elements{Count: 2} }, nil,
			false, "h1: 2 matches, no visible text"},

		{"dom_count eq", &DOMCount{Selector: "li", Op: OpEq, Value: 3}, nil, nil, true, "count 3"},
		{"dom_count eq off by one", &DOMCount{Selector: "li", Op: OpEq, Value: 2}, nil, nil, false, "count 3"},
		{"dom_count gte boundary", &DOMCount{Selector: "li", Op: OpGTE, Value: 3}, nil, nil, true, ""},
		{"dom_count gte above", &DOMCount{Selector: "li", Op: OpGTE, Value: 4}, nil, nil, false, ""},
		{"dom_count lte boundary", &DOMCount{Selector: "li", Op: OpLTE, Value: 3}, nil, nil, true, ""},
		{"dom_count lte below", &DOMCount{Selector: "li", Op: OpLTE, Value: 2}, nil, nil, false, ""},
		{"dom_count zero matches", &DOMCount{Selector: ".err", Op: OpEq, Value: 0}, nil, nil, true, "count 0"},
		{"dom_count selector not captured", &DOMCount{Selector: ".gone", Op: OpEq, Value: 0}, nil, nil,
			false, "selector .gone missing from the observation"},

		{"network match", &Network{URLPattern: `/api\.php\?action=edit`, StatusIn: []int{200}}, nil, nil,
			true, "POST https://en.wikipedia.org/w/api.php?action=edit (200)"},
		{"network method is case-insensitive", &Network{URLPattern: `action=edit`, StatusIn: []int{200}, Method: "post"}, nil, nil,
			true, ""},
		{"network method differs", &Network{URLPattern: `action=edit`, StatusIn: []int{200}, Method: "GET"}, nil, nil,
			false, "URL pattern matched by 1 request after the agent's first tool call, none with a wanted status and method: POST"},
		{"network status differs", &Network{URLPattern: `api\.php`, StatusIn: []int{201, 204}}, nil, nil,
			false, "URL pattern matched by 2 requests after the agent's first tool call, none with a wanted status and method: GET https://en.wikipedia.org/w/api.php?action=query (404); POST"},
		{"network nothing matches the URL", &Network{URLPattern: `^https://example\.com/`, StatusIn: []int{200}}, nil, nil,
			false, "none of 4 requests after the agent's first tool call matches the URL pattern"},
		{"network since last tool call excludes earlier requests", &Network{URLPattern: `/wiki/Eiffel`, StatusIn: []int{200}, Since: SinceLastToolCall}, nil, nil,
			false, "none of 2 requests after the last tool call matches the URL pattern; 1 request before the last tool call did"},
		{"network since last tool call", &Network{URLPattern: `action=edit`, StatusIn: []int{200}, Since: SinceLastToolCall}, nil, nil,
			true, ""},
		{"network failed request never matches", &Network{URLPattern: `upload`, StatusIn: []int{200}}, nil, nil,
			false, "(failed: net::ERR_NAME_NOT_RESOLVED)"},

		{"screenshot within distance", &ScreenshotClass{ClassID: "article", DistanceMax: 2}, nil, classes,
			true, "distance 2 (phash f0f0f0f0f0f0f0f0)"},
		{"screenshot beyond distance", &ScreenshotClass{ClassID: "article", DistanceMax: 1}, nil, classes,
			false, "distance 2"},
		{"screenshot far class", &ScreenshotClass{ClassID: "home", DistanceMax: 10}, nil, classes,
			false, "distance 64"},
		{"screenshot no classes", &ScreenshotClass{ClassID: "article", DistanceMax: 2}, nil, nil,
			false, "no screenshot classes loaded"},
		{"screenshot unknown class", &ScreenshotClass{ClassID: "nope", DistanceMax: 2}, nil, classes,
			false, `screenshot class "nope" not loaded`},
		{"screenshot missing", &ScreenshotClass{ClassID: "article", DistanceMax: 2},
			func(o *Observation) { o.Screenshot = Screenshot{} }, classes,
			false, "no screenshot in the observation"},
		{"screenshot without phash", &ScreenshotClass{ClassID: "article", DistanceMax: 2},
			func(o *Observation) { o.Screenshot = Screenshot{PNG: []byte{0x89}} }, classes,
			false, "screenshot has no phash"},
		{"screenshot bad phash", &ScreenshotClass{ClassID: "article", DistanceMax: 2},
			func(o *Observation) { o.Screenshot.PHash = "f0f0" }, classes,
			false, `invalid phash "f0f0"`},

		{"no dialog", &NoDialog{}, nil, nil, true, "no dialog"},
		{"a dialog opened", &NoDialog{},
			func(o *Observation) {
				o.Dialogs = []Dialog{{Type: "alert", Message: "Saved"}, {Type: "confirm", Message: "Leave?", Open: true}}
			}, nil,
			false, `2 dialogs: alert "Saved"; confirm "Leave?" (still open)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			obs := leafObservation()
			if tt.edit != nil {
				tt.edit(&obs)
			}
			v := Evaluate(Postconditions{tt.clause}, obs, tt.classes)
			if len(v.Evidence) != 1 {
				t.Fatalf("got %d evidence entries, want 1: %+v", len(v.Evidence), v.Evidence)
			}
			ev := v.Evidence[0]
			if v.Passed != tt.want || ev.Passed != tt.want {
				t.Errorf("passed = %v (evidence %v), want %v\nexpected: %s\nseen:     %s", v.Passed, ev.Passed, tt.want, ev.Expected, ev.Seen)
			}
			if !strings.Contains(ev.Seen, tt.wantSeen) {
				t.Errorf("seen = %q\nwant it to contain %q", ev.Seen, tt.wantSeen)
			}
			if ev.Path != "postconditions[0]" || ev.Kind != tt.clause.Kind() || ev.Expected == "" {
				t.Errorf("evidence = %+v, want path postconditions[0], kind %s and an expectation", ev, tt.clause.Kind())
			}
			if !tt.want && v.FailedClause() != "postconditions[0] ("+string(tt.clause.Kind())+")" {
				t.Errorf("FailedClause = %q", v.FailedClause())
			}
		})
	}
}

// TestErrorPageInAHeadlessShell: where a page could not be loaded, the full
// browser draws its error page and a headless shell an empty document, so
// a screenshot_class clause there is undecided on the shell, and fails
// whatever it says and wherever it sits (under a not, or in the reading
// taken when the agent stopped); on the full browser, and on any other
// page of the shell, the pixels decide.
func TestErrorPageInAHeadlessShell(t *testing.T) {
	t.Parallel()
	classes := fakeClasses{"error-page": 0xf0f0f0f0f0f0f0f0, "blank-page": 0x0f0f0f0f0f0f0f0f}
	const (
		shell   = "HeadlessChrome/156.0.8078.108"
		full    = "Chrome/156.0.8078.108"
		errPage = "chrome-error://chromewebdata/"
	)
	is := &ScreenshotClass{ClassID: "error-page", DistanceMax: 4}
	isNot := &Not{Child: &ScreenshotClass{ClassID: "blank-page", DistanceMax: 4}}
	for _, tt := range []struct {
		name           string
		browser, url   string
		firstURL       string // the reading when the agent stopped, if any
		clause         Clause
		passed, unsure bool
	}{
		{"full browser, error page", full, errPage, "", is, true, false},
		{"shell, error page", shell, errPage, "", is, false, true},
		{"shell, error page, under not", shell, errPage, "", isNot, false, true},
		{"shell, error page when the agent stopped", shell, "https://example.com/", errPage, isNot, false, true},
		{"shell, a loaded page", shell, "https://example.com/", "", is, true, false},
		{"report from before the field, error page", "", errPage, "", is, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			obs := leafObservation()
			obs.Browser, obs.URL = tt.browser, tt.url
			if tt.firstURL != "" {
				obs.Settling = &Settling{AdvancedMS: 100, First: &PageState{URL: tt.firstURL, PHash: obs.Screenshot.PHash}}
			}
			v := Evaluate(Postconditions{tt.clause}, obs, classes)
			if v.Passed != tt.passed || v.Undecided != tt.unsure {
				t.Fatalf("passed %v, undecided %v; want %v, %v (evidence %+v)", v.Passed, v.Undecided, tt.passed, tt.unsure, v.Evidence)
			}
			if tt.unsure && tt.firstURL == "" && !strings.Contains(v.Evidence[len(v.Evidence)-1].Seen, "headless shell draws nothing") {
				t.Errorf("evidence %+v: want it to say the shell drew nothing", v.Evidence)
			}
		})
	}
}

func TestEvaluateCombinators(t *testing.T) {
	t.Parallel()
	var (
		pass  = &URL{Pattern: `wikipedia`}
		pass2 = &DOMText{Selector: "h1", Contains: "Eiffel"}
		fail  = &URL{Pattern: `^https://example\.com/$`}
		fail2 = &DOMText{Selector: "h1", Contains: "Louvre"}
	)
	type ev struct {
		path   string
		passed bool
	}
	tests := []struct {
		name         string
		p            Postconditions
		wantPassed   bool
		wantFailed   string // FailedClause()
		wantEvidence []ev
	}{
		{
			name:       "top level evaluates every clause and reports the first failure",
			p:          Postconditions{pass, fail, fail2, &NoDialog{}},
			wantFailed: "postconditions[1] (url)",
			wantEvidence: []ev{
				{"postconditions[0]", true}, {"postconditions[1]", false},
				{"postconditions[2]", false}, {"postconditions[3]", true},
			},
		},
		{
			name:       "and stops at its first failing child and reports that leaf",
			p:          Postconditions{&And{Children: []Clause{pass, fail2, fail}}},
			wantFailed: "postconditions[0].children[1] (dom_text)",
			wantEvidence: []ev{
				{"postconditions[0].children[0]", true}, {"postconditions[0].children[1]", false},
			},
		},
		{
			name:       "nested and reports the deepest failing leaf",
			p:          Postconditions{pass, &And{Children: []Clause{pass2, &And{Children: []Clause{fail}}}}},
			wantFailed: "postconditions[1].children[1].children[0] (url)",
			wantEvidence: []ev{
				{"postconditions[0]", true}, {"postconditions[1].children[0]", true},
				{"postconditions[1].children[1].children[0]", false},
			},
		},
		{
			name:       "or with every child failing reports the or and keeps all evidence",
			p:          Postconditions{&Or{Children: []Clause{fail, fail2}}},
			wantFailed: "postconditions[0] (or)",
			wantEvidence: []ev{
				{"postconditions[0].children[0]", false}, {"postconditions[0].children[1]", false},
			},
		},
		{
			name:       "or passes on any child and still evaluates the rest",
			p:          Postconditions{&Or{Children: []Clause{fail, pass, fail2}}},
			wantPassed: true,
			wantEvidence: []ev{
				{"postconditions[0].children[0]", false}, {"postconditions[0].children[1]", true},
				{"postconditions[0].children[2]", false},
			},
		},
		{
			name:       "and reports a failing or as itself",
			p:          Postconditions{&And{Children: []Clause{pass, &Or{Children: []Clause{fail, fail2}}}}},
			wantFailed: "postconditions[0].children[1] (or)",
			wantEvidence: []ev{
				{"postconditions[0].children[0]", true},
				{"postconditions[0].children[1].children[0]", false}, {"postconditions[0].children[1].children[1]", false},
			},
		},
		{
			name:         "not fails when its child holds, and the child's evidence says it held",
			p:            Postconditions{&Not{Child: &NoDialog{}}},
			wantFailed:   "postconditions[0] (not)",
			wantEvidence: []ev{{"postconditions[0].child", true}},
		},
		{
			name:         "not holds when its child fails",
			p:            Postconditions{&Not{Child: fail}},
			wantPassed:   true,
			wantEvidence: []ev{{"postconditions[0].child", false}},
		},
		{
			name:         "double negation",
			p:            Postconditions{&Not{Child: &Not{Child: fail}}},
			wantFailed:   "postconditions[0] (not)",
			wantEvidence: []ev{{"postconditions[0].child.child", false}},
		},
		{
			name:         "an empty contract fails",
			p:            Postconditions{},
			wantFailed:   "postconditions",
			wantEvidence: []ev{},
		},
		{
			name:         "a hand-built empty and fails",
			p:            Postconditions{&And{}},
			wantFailed:   "postconditions[0] (and)",
			wantEvidence: []ev{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := Evaluate(tt.p, leafObservation(), nil)
			if v.Passed != tt.wantPassed || v.FailedClause() != tt.wantFailed {
				t.Errorf("passed %v, failed clause %q; want %v, %q", v.Passed, v.FailedClause(), tt.wantPassed, tt.wantFailed)
			}
			got := make([]ev, len(v.Evidence))
			for i, e := range v.Evidence {
				got[i] = ev{e.Path, e.Passed}
			}
			if !reflect.DeepEqual(got, tt.wantEvidence) {
				t.Errorf("evidence (path, passed)\n got %v\nwant %v", got, tt.wantEvidence)
			}
		})
	}
}

func TestVerdictFailedClause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    Verdict
		want string
	}{
		{"passed", Verdict{Passed: true}, ""},
		{"leaf", Verdict{FailedPath: "postconditions[0]", FailedKind: KindURL}, "postconditions[0] (url)"},
		{"nested", Verdict{FailedPath: "postconditions[2].children[1]", FailedKind: KindOr}, "postconditions[2].children[1] (or)"},
		{"no kind", Verdict{FailedPath: "postconditions"}, "postconditions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.v.FailedClause(); got != tt.want {
				t.Errorf("FailedClause() = %q, want %q", got, tt.want)
			}
		})
	}
}

// Evidence goes into reports, so nothing the page holds may make it grow
// without bound.
func TestEvaluateBoundsEvidence(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 5000)
	obs := Observation{
		URL:      "https://example.com/" + long,
		Elements: map[string]Elements{"body": {Count: 1, Texts: []string{long + " needle " + long}}},
		Dialogs:  []Dialog{{Type: "alert", Message: long}},
	}
	for i := range 40 {
		obs.Network = append(obs.Network, NetworkEntry{URL: "https://example.com/api/" + long[:i*10], Method: "GET", Status: 500})
	}
	p := Postconditions{
		&URL{Pattern: "^nope$"},
		&DOMText{Contains: "needle"},
		&DOMText{Contains: "needles and pins " + long},
		&Network{URLPattern: "/api/", StatusIn: []int{200}},
		&NoDialog{},
	}
	v := Evaluate(p, obs, nil)
	if len(v.Evidence) != len(p) {
		t.Fatalf("got %d evidence entries, want %d", len(v.Evidence), len(p))
	}
	const limit = maxSeen + len("…(+12345 bytes)")
	for _, e := range v.Evidence {
		if len(e.Seen) > limit || len(e.Expected) > limit {
			t.Errorf("%s: seen %d bytes, expected %d bytes; want at most %d", e.Path, len(e.Seen), len(e.Expected), limit)
		}
	}
	if seen := v.Evidence[0].Seen; !strings.HasSuffix(seen, "…(+"+strconv.Itoa(len(obs.URL)-maxSeen)+" bytes)") {
		t.Errorf("url seen ends %q, want the count of bytes left out", seen[len(seen)-20:])
	}
	if seen := v.Evidence[1].Seen; !strings.Contains(seen, "x needle x") || len(seen) > limit {
		t.Errorf("dom_text seen = %q, want an excerpt around the match", seen)
	}
}

// Several dom_text clauses on one selector share its folded text; the cache
// must not leak one clause's result into another.
func TestEvaluateSharesFoldedText(t *testing.T) {
	t.Parallel()
	p := Postconditions{
		&DOMText{Contains: "330 m"},
		&DOMText{Contains: "330 km"},
		&DOMText{Contains: "81-storey"},
	}
	v := Evaluate(p, leafObservation(), nil)
	got := []bool{v.Evidence[0].Passed, v.Evidence[1].Passed, v.Evidence[2].Passed}
	if want := []bool{true, false, true}; !reflect.DeepEqual(got, want) {
		t.Errorf("passed = %v, want %v", got, want)
	}
	if again := Evaluate(p, leafObservation(), nil); !reflect.DeepEqual(again, v) {
		t.Errorf("a second evaluation differs:\n%+v\n%+v", v, again)
	}
}
