package servers

import (
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/suite"
)

// namesReply is a peer's real snapshot of testdata/names.html, as
// TestPeers captured it.
func namesReply(t *testing.T, server string) string {
	t.Helper()
	c, err := readCapture(filepath.Join("testdata", server, "names.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for n := range c.calls {
		if reply, ok := c.replies[n+1]; ok {
			return reply
		}
	}
	t.Fatalf("%s/names.txtar has no snapshot reply", server)
	return ""
}

// TestFindOnNames finds the awkwardly named controls of names.html in both
// peers' real snapshots of it.
func TestFindOnNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		target suite.Target
		// want is the ref each peer gives the element; "" means the
		// target must not be found.
		playwright, devtools string
	}{
		{"double quotes", suite.Target{Role: "link", Name: `Say "hi" now`}, "e3", "1_2"},
		{"backslash, colon, ref-like brackets, hash", suite.Target{Role: "link", Name: `back\slash: colon [ref=e9] # hash`}, "e4", "1_5"},
		{"white space folded", suite.Target{Role: "link", Name: " spaced\n out  text"}, "e5", "1_8"},
		{"aria-label wins over content", suite.Target{Role: "link", Name: "Labelled link"}, "e6", "1_10"},
		{"content hidden by aria-label", suite.Target{Role: "link", Name: "ignored text"}, "", ""},
		{"non-ASCII", suite.Target{Role: "link", Name: "Ünïcode – dash ‘quotes’"}, "e7", "1_13"},
		{"single quotes", suite.Target{Role: "link", Name: "'single' quoted"}, "e8", "1_16"},
		{"leading dash and colon", suite.Target{Role: "link", Name: "- dash: start"}, "e9", "1_19"},
		{"name from an image's alt text", suite.Target{Role: "link", Name: "Logo image"}, "e11", "1_25"},
		{"role=link without href", suite.Target{Role: "link", Name: "Div link"}, "e13", "1_27"},
		{"href, relative in the snapshot", suite.Target{Role: "link", Name: `Say "hi" now`, Href: "/docs/a?x=1&y=2"}, "e3", "1_2"},
		{"href matched against the resolved URL", suite.Target{Role: "link", Name: "Elsewhere", Href: "https://example.com/"}, "e10", "1_22"},
		{"href resolved from a relative one", suite.Target{Role: "link", Name: "spaced out text", Href: "peers.contractbench.test/c.html"}, "e5", "1_8"},
		{"href picks the second of two names", suite.Target{Role: "link", Name: "Twice", Href: "twice-again"}, "e24", "1_41"},
		{"two names to two URLs are ambiguous", suite.Target{Role: "link", Name: "Twice"}, "", ""},
		{"href that no link has", suite.Target{Role: "link", Name: "Twice", Href: "thrice"}, "", ""},
		{"button", suite.Target{Role: "button", Name: "Press me"}, "e15", "1_30"},
		{"submit input is a button", suite.Target{Role: "button", Name: "Send"}, "e22", "1_37"},
		{"text field by its label", suite.Target{Role: "field", Name: "Query"}, "e17", "1_32"},
		{"search field", suite.Target{Role: "field", Name: "Find things"}, "e18", "1_33"},
		{"text area", suite.Target{Role: "field", Name: "Notes"}, "e19", "1_34"},
		{"email field", suite.Target{Role: "field", Name: "Email"}, "e20", "1_35"},
		{"number field", suite.Target{Role: "field", Name: "Count"}, "e21", "1_36"},
		{"role must fit", suite.Target{Role: "button", Name: "Elsewhere"}, "", ""},
		{"names compare exactly, not as substrings", suite.Target{Role: "link", Name: "Say"}, "", ""},
	}
	for _, server := range []struct {
		name   string
		format Format
	}{{"playwright", FormatPlaywright}, {"chrome-devtools", FormatChromeDevtools}} {
		snap, err := parseSnapshot(server.format, namesReply(t, server.name))
		if err != nil {
			t.Fatalf("%s: %v", server.name, err)
		}
		if want := "https://" + namesHost + "/names.html"; snap.pageURL != want {
			t.Errorf("%s: page URL %q, want %q", server.name, snap.pageURL, want)
		}
		for _, tc := range tests {
			want := tc.playwright
			if server.format == FormatChromeDevtools {
				want = tc.devtools
			}
			fits := snap.find(tc.target)
			found := len(fits) > 0 && snap.same(fits)
			var e element
			if found {
				e = fits[0]
			}
			switch {
			case want == "" && found:
				t.Errorf("%s: %s: found %+v for %+v, want nothing", server.name, tc.name, e, tc.target)
			case want != "" && !found:
				t.Errorf("%s: %s: %+v not found; %s", server.name, tc.name, tc.target, snap.candidates(tc.target))
			case e.ref != want:
				t.Errorf("%s: %s: ref %q, want %q", server.name, tc.name, e.ref, want)
			}
		}
	}
}

func TestParsePlaywright(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply string
		want  []element
	}{
		{
			name: "entries, properties and text",
			reply: "### Page\n- Page URL: https://a.test/x/\n### Snapshot\n```yaml\n" +
				"- generic [active] [ref=e1]:\n" +
				"  - link \"Home\" [ref=e2] [cursor=pointer]:\n" +
				"    - /url: /\n" +
				"  - paragraph [ref=e3]: Some text\n" +
				"  - combobox \"Field\" [ref=e4]:\n" +
				"    - option \"All\" [selected]\n" +
				"  - textbox \"Search\" [ref=e5]:\n" +
				"    - /placeholder: Search...\n" +
				"```\n",
			want: []element{
				{ref: "e1", role: "generic", name: "Home Some text Field Search"},
				{ref: "e2", role: "link", name: "Home", url: "/"},
				{ref: "e3", role: "paragraph", name: "Some text"},
				{ref: "e4", role: "combobox", name: "Field"},
				{ref: "e5", role: "textbox", name: "Search"},
			},
		},
		{
			name:  "a quoted entry with escapes",
			reply: "```yaml\n- 'link \"a \\\"b\\\" c: d\" [ref=e7]':\n  - /url: \"#x\"\n```",
			want:  []element{{ref: "e7", role: "link", name: `a "b" c: d`, url: "#x"}},
		},
		{
			name:  "an empty page",
			reply: "### Page\n- Page URL: about:blank\n### Snapshot\n```yaml\n\n```\n",
			want:  nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			snap, err := parsePlaywright(tc.reply)
			if err != nil {
				t.Fatal(err)
			}
			checkElements(t, snap.elements, tc.want)
		})
	}
}

func TestParsePlaywrightErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, reply, want string }{
		{"no snapshot block", "### Result\nNo open tabs.", "no ```yaml snapshot block"},
		{"not YAML", "```yaml\n- a: [\n```", "snapshot block is not YAML"},
		{"not a list", "```yaml\nkey: value\n```", "want a list"},
	}
	for _, tc := range tests {
		if _, err := parsePlaywright(tc.reply); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestParseDevtools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply string
		want  []element
	}{
		{
			name: "roles, text nodes and attributes",
			reply: "## Latest page snapshot\n" +
				"uid=1_0 RootWebArea \"T\" url=\"https://a.test/\"\n" +
				"  uid=1_1 link \"Go \" description=\"d\" url=\"https://a.test/go\"\n" +
				"  uid=1_2 \"plain text\"\n" +
				"  uid=1_3 textbox \"Q\" focusable focused\n" +
				"  uid=1_4 main\n",
			want: []element{
				{ref: "1_0", role: "RootWebArea", name: "T", url: "https://a.test/"},
				{ref: "1_1", role: "link", name: "Go ", url: "https://a.test/go"},
				{ref: "1_2", name: "plain text"},
				{ref: "1_3", role: "textbox", name: "Q"},
				{ref: "1_4", role: "main"},
			},
		},
		{
			name: "quotes in a name, which the server does not escape",
			reply: "## Latest page snapshot\n" +
				"uid=2_5 link \"He said \"no\" url=\"x\" twice\" url=\"https://a.test/q\"\n" +
				"uid=2_6 button \"\"quoted\"\" [selected in the DevTools Elements panel]\n",
			want: []element{
				{ref: "2_5", role: "link", name: `He said "no" url="x" twice`, url: "https://a.test/q"},
				{ref: "2_6", role: "button", name: `"quoted"`},
			},
		},
		{
			name:  "a name over two lines, and the next section",
			reply: "## Latest page snapshot\nuid=3_1 textbox \"first\nsecond\" multiline\n## Network\nuid=9_9 link \"not a node\"\n",
			want:  []element{{ref: "3_1", role: "textbox", name: "first\nsecond"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkElements(t, parseDevtools(tc.reply).elements, tc.want)
		})
	}
}

func checkElements(t *testing.T, got, want []element) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d elements %+v, want %d %+v", len(got), got, len(want), want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("element %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestParseBuiltin reads controls out of lines written in the built-in
// server's notation (internal/toolserver/snapshot): links with and without
// URLs, roles, quoted values holding parentheses, brackets around and in
// names, URLs with balanced parentheses.
func TestParseBuiltin(t *testing.T) {
	t.Parallel()
	reply := "url: https://en.wikipedia.org/wiki/Paris\ntitle: Paris - Wikipedia\n" +
		"4 matches for \"Paris\":\n" +
		"[[edit](e3 #edit)] [Paris (disambiguation)](e4 /wiki/Paris_(disambiguation)) and [Plain](e5)\n" +
		"[Search Wikipedia](e6 textbox value=\"a) b\" placeholder=\"Search (all)\") [Go](e7 button)\n" +
		"[Sort by](e8 select options=\"Relevance|Date\") [Elsewhere](e9 https://example.com/x)\n" +
		"… 3 more not shown; narrow the query"
	s := parseBuiltin(reply)
	if s.pageURL != "https://en.wikipedia.org/wiki/Paris" || !s.partial {
		t.Errorf("page URL %q, partial %v", s.pageURL, s.partial)
	}
	want := []element{
		{ref: "e3", role: "link", name: "edit", url: "#edit"},
		{ref: "e4", role: "link", name: "Paris (disambiguation)", url: "/wiki/Paris_(disambiguation)"},
		{ref: "e5", role: "link", name: "Plain"},
		{ref: "e6", role: "textbox", name: "Search Wikipedia"},
		{ref: "e7", role: "button", name: "Go"},
		{ref: "e8", role: "select", name: "Sort by"},
		{ref: "e9", role: "link", name: "Elsewhere", url: "https://example.com/x"},
	}
	if len(s.elements) != len(want) {
		t.Fatalf("%d elements %+v, want %d", len(s.elements), s.elements, len(want))
	}
	for i, w := range want {
		if s.elements[i] != w {
			t.Errorf("element %d: %+v, want %+v", i, s.elements[i], w)
		}
	}
	for _, tc := range []struct {
		target suite.Target
		ref    string
	}{
		{suite.Target{Role: "field", Name: "Search Wikipedia"}, "e6"},
		{suite.Target{Role: "select", Name: "Sort by"}, "e8"},
		{suite.Target{Role: "link", Name: "Paris (disambiguation)", Href: "en.wikipedia.org/wiki/Paris_(disambiguation)"}, "e4"},
	} {
		if fits := s.find(tc.target); len(fits) != 1 || fits[0].ref != tc.ref {
			t.Errorf("find %+v = %+v, want %s", tc.target, fits, tc.ref)
		}
	}
}
