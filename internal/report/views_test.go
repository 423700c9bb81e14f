package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestViewsGolden pins every view of the two fixture runs byte for byte.
// Run `go test ./internal/report -update` after an intended change and
// review the diff of testdata.
func TestViewsGolden(t *testing.T) {
	t.Parallel()
	views := []struct {
		ext    string
		render func(io.Writer, *Run) error
	}{
		{"json", WriteJSON},
		{"md", WriteMarkdown},
		{"xml", writeJUnit},
		{"html", WriteHTML},
	}
	runs := []struct {
		name string
		run  func(testing.TB) *Run
	}{
		{"run", testRun},
		{"repeat", testRepeatRun},
	}
	for _, rc := range runs {
		for _, v := range views {
			t.Run(rc.name+"."+v.ext, func(t *testing.T) {
				t.Parallel()
				var got bytes.Buffer
				if err := v.render(&got, rc.run(t)); err != nil {
					t.Fatalf("render: %v", err)
				}
				checkGolden(t, rc.name+".golden."+v.ext, got.Bytes())
			})
		}
	}
}

// checkGolden compares got with the golden file testdata/name, or with
// -update writes got there.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what was rendered (run with -update and review the diff):\n%s", golden, firstDiff(string(want), string(got)))
	}
}

// firstDiff describes the first line where want and got differ.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return "(no line differs)"
}

func TestJSONSchemaVersionFirst(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteJSON(&b, testRun(t)); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"schema_version\": 2,"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("JSON starts %q, want %q", b.String()[:40], want)
	}
	if strings.Contains(b.String(), "iVBOR") {
		t.Errorf("JSON holds base64 PNG data; screenshots must be files beside the report")
	}
	if !strings.Contains(b.String(), `"started": "2025-11-21T11:19:00Z"`) {
		t.Errorf("JSON lacks the RFC 3339 start time")
	}
}

func TestReadJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, run := range []func(testing.TB) *Run{testRun, testRepeatRun} {
		want := run(t)
		var b bytes.Buffer
		if err := WriteJSON(&b, want); err != nil {
			t.Fatal(err)
		}
		got, err := ReadJSON(&b)
		if err != nil {
			t.Fatalf("ReadJSON: %v", err)
		}
		// Image bytes never travel in JSON.
		for i := range want.Results {
			if o := want.Results[i].Observation; o != nil {
				o.Screenshot.PNG = nil
			}
			for _, c := range want.Results[i].Calls {
				if c.Thumbnail != nil {
					c.Thumbnail.JPEG = nil
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			t.Errorf("round trip changed the run:\n got %s\nwant %s", gj, wj)
		}
	}
}

func TestReadJSONRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"unknown field", `{"schema_version":2,"surprise":true}`, `unknown field "surprise"`},
		{"unknown field of version 1", `{"schema_version":1,"surprise":true}`, `unknown field "surprise"`},
		{"a field version 2 no longer has", `{"schema_version":2,"results":[{"task":"t","outcome":"failed","failed_postcondition":"postconditions[0] (url)"}]}`,
			`results[0]: failed_postcondition, failed_path, failed_kind and drift are fields of schema_version 1`},
		{"newer schema", `{"schema_version":3}`, "schema_version: 3 is not the supported 2"},
		{"newer schema with fields of its own", `{"schema_version":3,"results":[{"task":"t","verdict":{}}]}`, "schema_version: 3 is not the supported 2"},
		{"missing schema", `{"git_sha":"abc"}`, "schema_version: 0"},
		{"unknown outcome", `{"schema_version":2,"results":[{"task":"t","outcome":"passed"},{"task":"u","outcome":"maybe"}]}`, `results[1].outcome: unknown outcome "maybe"`},
		{"unknown outcome of version 1", `{"schema_version":1,"results":[{"task":"u","outcome":"maybe"}]}`, `results[0].outcome: unknown outcome "maybe"`},
		{"trailing data", `{"schema_version":2} {}`, "unexpected data after the report"},
		{"not json", `schema_version: 1`, "invalid character"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadJSON(strings.NewReader(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadJSON(%s) error = %v, want one containing %q", tc.doc, err, tc.want)
			}
		})
	}
}

// junitDoc is what a CI system reads from JUnit XML, declared here
// independently of the writer's types.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []struct {
		Name       string `xml:"name,attr"`
		Tests      int    `xml:"tests,attr"`
		Failures   int    `xml:"failures,attr"`
		Errors     int    `xml:"errors,attr"`
		Skipped    int    `xml:"skipped,attr"`
		Timestamp  string `xml:"timestamp,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		SystemErr string `xml:"system-err"`
		Cases     []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, r *Run) junitDoc {
	t.Helper()
	var b bytes.Buffer
	if err := writeJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), xml.Header) {
		t.Errorf("JUnit lacks the XML declaration")
	}
	var doc junitDoc
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse back: %v\n%s", err, b.String())
	}
	return doc
}

func TestJUnitParsesBack(t *testing.T) {
	t.Parallel()
	doc := parseJUnit(t, testRun(t))
	if doc.Tests != 10 || doc.Failures != 2 || doc.Errors != 1 || doc.Skipped != 0 {
		t.Errorf("testsuites counts tests=%d failures=%d errors=%d skipped=%d, want 10, 2, 1, 0",
			doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("got %d testsuites, want one per run", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Name != "webvoyager" || s.Tests != 10 || s.Timestamp != "2025-11-21T11:19:00Z" {
		t.Errorf("testsuite name=%q tests=%d timestamp=%q", s.Name, s.Tests, s.Timestamp)
	}
	props := map[string]string{}
	for _, p := range s.Properties {
		props[p.Name] = p.Value
	}
	if props["git_sha"] != testRun(t).GitSHA || props["incomplete"] != "false" {
		t.Errorf("properties = %v", props)
	}
	byName := map[string]int{}
	for i, c := range s.Cases {
		byName[c.Name] = i
	}
	tests := []struct {
		task        string
		failureType string
		errorType   string
		inMessage   string
		inText      string
	}{
		{task: "task-01-example-com-title"},
		{task: "task-03-wikipedia-eiffel-height", failureType: "failed", inMessage: "failed | failed_postcondition: postconditions[1] (or)",
			inText: `evidence postconditions[1].children[0] (dom_text): expected visible text of .infobox contains "330 m", saw`},
		{task: "task-06-arxiv-2401-13919-abstract", failureType: "replay_drift", inMessage: "replay_drift | call 3: args digest mismatch", inText: "reason: call 3"},
		{task: "task-08-mdn-array-map-return", errorType: "error", inMessage: "error | browser: chromium exited", inText: "reason: browser: chromium exited"},
	}
	for _, tc := range tests {
		i, ok := byName[tc.task]
		if !ok {
			t.Errorf("no testcase %s", tc.task)
			continue
		}
		c := s.Cases[i]
		if c.Classname != "webvoyager" || c.Time == "" {
			t.Errorf("%s: classname=%q time=%q", tc.task, c.Classname, c.Time)
		}
		switch {
		case tc.failureType != "":
			if c.Failure == nil || c.Error != nil {
				t.Errorf("%s: want a failure element only, got failure=%v error=%v", tc.task, c.Failure, c.Error)
				continue
			}
			if c.Failure.Type != tc.failureType || !strings.Contains(c.Failure.Message, tc.inMessage) || !strings.Contains(c.Failure.Text, tc.inText) {
				t.Errorf("%s: failure type=%q message=%q text=%q; want type %q, message containing %q, text containing %q",
					tc.task, c.Failure.Type, c.Failure.Message, c.Failure.Text, tc.failureType, tc.inMessage, tc.inText)
			}
		case tc.errorType != "":
			if c.Error == nil || c.Failure != nil {
				t.Errorf("%s: want an error element only, got failure=%v error=%v", tc.task, c.Failure, c.Error)
				continue
			}
			if c.Error.Type != tc.errorType || !strings.Contains(c.Error.Message, tc.inMessage) || !strings.Contains(c.Error.Text, tc.inText) {
				t.Errorf("%s: error type=%q message=%q text=%q", tc.task, c.Error.Type, c.Error.Message, c.Error.Text)
			}
		default:
			if c.Failure != nil || c.Error != nil || c.Skipped != nil {
				t.Errorf("%s passed but its testcase is not clean", tc.task)
			}
		}
	}
}

func TestJUnitNamesAttempts(t *testing.T) {
	t.Parallel()
	doc := parseJUnit(t, testRepeatRun(t))
	s := doc.Suites[0]
	if s.Tests != 9 || s.Failures != 3 || s.Errors != 1 {
		t.Errorf("tests=%d failures=%d errors=%d, want 9, 3, 1", s.Tests, s.Failures, s.Errors)
	}
	seen := map[string]bool{}
	for _, c := range s.Cases {
		if seen[c.Name] {
			t.Errorf("testcase name %q repeats; CI systems merge such cases", c.Name)
		}
		seen[c.Name] = true
	}
	if !seen["task-02-mdn-fetch-syntax #2"] {
		t.Errorf("no testcase named by task and attempt; names: %v", seen)
	}
}

// TestIncompleteSaysSoEverywhere: a run stopped by Ctrl-C must not pass for
// a full one in any view.
func TestIncompleteSaysSoEverywhere(t *testing.T) {
	t.Parallel()
	r := testRun(t)
	r.Incomplete = true
	r.Results = r.Results[:7]

	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(md.String(), "\n", 4)
	if !strings.Contains(lines[2], incompleteBanner) {
		t.Errorf("Markdown does not open with the banner; first lines:\n%s", strings.Join(lines[:3], "\n"))
	}
	if !strings.Contains(md.String(), "Not run (3): `task-08-mdn-array-map-return`, `task-09-wikipedia-speed-of-light`, `task-10-tc39-ecma262-strict-mode`.") {
		t.Errorf("Markdown does not list the tasks that did not run:\n%s", lines[2])
	}

	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"incomplete": true`) || !strings.Contains(js.String(), `"not_run": 3`) {
		t.Errorf("JSON does not record the run as incomplete with 3 attempts not run")
	}

	doc := parseJUnit(t, r)
	s := doc.Suites[0]
	if !strings.Contains(s.SystemErr, incompleteBanner) || s.Skipped != 3 || s.Tests != 10 {
		t.Errorf("JUnit system-err=%q skipped=%d tests=%d, want the banner, 3 skipped of 10", s.SystemErr, s.Skipped, s.Tests)
	}
}

func TestMarkdownFailureSection(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteMarkdown(&b, testRun(t)); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"**contract-eval score: 7 / 10 (70.0%)**",
		"| name | result | duration_ms | tool_calls | response_bytes | failed_postcondition | screenshot |",
		"| task-03-wikipedia-eiffel-height | failed | 2000 | 4 | 6000 | `postconditions[1] (or)` |",
		"### task-03-wikipedia-eiffel-height: failed",
		"  - `postconditions[1].children[0]` (dom_text): expected `visible text of .infobox contains \"330 m\"`, saw ",
		"### task-06-arxiv-2401-13919-abstract: replay_drift",
		"- answer (recorded, not evidence): `The tower is 330 m tall.`",
		"notte (published, WebVoyager30) | 86.2% self-eval, 79.0% LLM-eval | 47 s",
		"browser-use (same source, self-reported) | 77.3% self-eval, 60.2% LLM-eval | 113 s",
		ComparabilityNote + ".",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	// The passing url leaf of the failed task explains nothing.
	if strings.Contains(md, "`postconditions[0]` (url)") {
		t.Errorf("Markdown lists a passing leaf as evidence of a failure")
	}
}

func TestMarkdownQuoting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"code plain", code("a|b"), "`a|b`"},
		{"code with backtick", code("x`y"), "``x`y``"},
		{"code starting with backtick", code("`x"), "`` `x ``"},
		{"code empty", code(""), "`  `"},
		{"cell escapes every pipe", cell("`a|b`"), "`a\\|b`"},
		{"cell keeps an escaped backslash", cell(`a\|b`), `a\\|b`},
		{"escape markup", escape("task_1 *x* [y] #2"), `task\_1 \*x\* \[y\] #2`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestBound(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 400) // 800 bytes
	tests := []struct {
		name, in, want string
	}{
		{"short stays", "saw   two\nlines", "saw two lines"},
		{"long is cut on a rune boundary", long, strings.Repeat("é", 160) + "…(+480 bytes)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := bound(tc.in); got != tc.want {
				t.Errorf("bound = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestJUnitHostileText: page text and error output can hold control
// characters and the CDATA terminator; the XML must still parse and keep
// the readable part.
func TestJUnitHostileText(t *testing.T) {
	t.Parallel()
	r := testRun(t)
	r.Results[7].Reason = "chromium said \x1b[31mboom\x1b[0m\x00 ]]> <b>&amp;</b>"
	r.Results[2].Evidence[1].Seen = "text with ]]> and \x07bell"
	doc := parseJUnit(t, r)
	var errText, failText string
	for _, c := range doc.Suites[0].Cases {
		if c.Error != nil {
			errText = c.Error.Text
		}
		if c.Failure != nil && c.Failure.Type == "failed" {
			failText = c.Failure.Text
		}
	}
	if !strings.Contains(errText, "boom") || !strings.Contains(errText, "]]> <b>&amp;</b>") {
		t.Errorf("error text = %q, want the reason with its markup intact", errText)
	}
	if !strings.Contains(failText, "text with ]]> and \uFFFDbell") {
		t.Errorf("failure text = %q, want the control character replaced", failText)
	}
}

// TestMarkdownEveryFailedClause: a result whose contract failed in several
// clauses lists the evidence of each, not only the clause the verdict
// named, and every result with a screenshot file links it, passed or not.
func TestMarkdownEveryFailedClause(t *testing.T) {
	t.Parallel()
	r := testRun(t)
	res := &r.Results[2]
	for i := range 5 {
		res.Evidence = append(res.Evidence, contract.Evidence{
			Path: "postconditions[" + strconv.Itoa(2+i) + "]", Kind: contract.KindNoDialog, Passed: false,
			Expected: "no dialog", Seen: "alert " + strconv.Itoa(i),
		})
	}
	r.Results[0].Observation.Screenshot.File = "sha-task-01-example-com-title.png"
	res.Observation.Screenshot.File = "sha-task-03-wikipedia-eiffel-height.png"
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"`postconditions[1].children[0]` (dom_text)",
		"`postconditions[1].children[1]` (dom_text)",
		"`postconditions[2]` (no_dialog): expected `no dialog`, saw `alert 0`",
		"`postconditions[6]` (no_dialog): expected `no dialog`, saw `alert 4`",
		"| task-01-example-com-title | passed | 1500 | 2 | 4000 |  | [png](sha-task-01-example-com-title.png) |",
		"- screenshot: [sha-task-03-wikipedia-eiffel-height.png](sha-task-03-wikipedia-eiffel-height.png)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

// The HTML header says which tasks kept thumbnails in words, never with
// the bare setting ("step thumbnails failed" read as an error).
func TestHTMLThumbnailsLabel(t *testing.T) {
	t.Parallel()
	for trace, want := range map[string]string{
		"on":     "<dt>thumbnails</dt><dd>every task</dd>",
		"failed": "<dt>thumbnails</dt><dd>failed tasks only</dd>",
		"off":    "<dt>thumbnails</dt><dd>none</dd>",
		"":       "<dt>thumbnails</dt><dd>none</dd>",
	} {
		r := testRun(t)
		r.Settings.Trace = trace
		var b bytes.Buffer
		if err := WriteHTML(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("trace %q: the header lacks %s", trace, want)
		}
		if strings.Contains(b.String(), "step thumbnails") {
			t.Errorf("trace %q: the header still says \"step thumbnails\"", trace)
		}
	}
}
