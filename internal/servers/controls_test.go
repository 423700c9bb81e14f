package servers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/txtar"
)

// builtinReply is the built-in server's read_page text reply for one of
// its golden pages, as its own golden test pins it.
func builtinReply(t *testing.T, page string) string {
	t.Helper()
	file := filepath.Join("..", "toolserver", "testdata", "golden", page+".txtar")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range txtar.Parse(data).Files {
		if f.Name == "text" {
			return string(f.Data)
		}
	}
	t.Fatalf("%s has no text reply", file)
	return ""
}

// TestControlsBuiltin reads controls from the built-in server's real
// read_page replies: refs, roles (none written for a link), names with
// quotes in the attributes after them, and the disabled state.
func TestControlsBuiltin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		page    string
		pageURL string
		want    []Control
	}{
		{"form", "http://site.test/form.html", []Control{
			{Ref: "e1", Role: "textbox", Name: "Your name"},
			{Ref: "e2", Role: "textbox", Name: "Email"},
			{Ref: "e3", Role: "textbox", Name: "PIN"},
			{Ref: "e4", Role: "checkbox", Name: "Send me the newsletter"},
			{Ref: "e5", Role: "radio", Name: "Day"},
			{Ref: "e6", Role: "radio", Name: "Night"},
			{Ref: "e7", Role: "select", Name: "Month"},
			{Ref: "e8", Role: "textbox", Name: "Anything we should know?"},
			{Ref: "e9", Role: "checkbox", Name: "Ferry ticket"},
			{Ref: "e10", Role: "button", Name: "Book"},
			{Ref: "e11", Role: "button", Name: "Clear", Disabled: true},
		}},
		{"actions", "http://site.test/actions.html", []Control{
			{Ref: "e1", Role: "button", Name: "Show more"},
			{Ref: "e2", Role: "button", Name: "Alert me"},
			{Ref: "e3", Role: "button", Name: "Confirm me"},
			{Ref: "e4", Role: "link", Name: "Open in a new tab"},
			{Ref: "e5", Role: "button", Name: "Later"},
			{Ref: "e6", Role: "button", Name: "Raise the shield"},
			{Ref: "e7", Role: "button", Name: "Under the shield"},
			{Ref: "e8", Role: "textbox", Name: "Search"},
			{Ref: "e9", Role: "link", Name: "Jump to the bottom"},
			{Ref: "e10", Role: "button", Name: "Keep busy"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.page, func(t *testing.T) {
			t.Parallel()
			pageURL, got, err := Builtin().Controls(builtinReply(t, tc.page))
			if err != nil {
				t.Fatal(err)
			}
			if pageURL != tc.pageURL {
				t.Errorf("page URL %q, want %q", pageURL, tc.pageURL)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("controls\n  %+v\nwant\n  %+v", got, tc.want)
			}
		})
	}
}

// TestControlsBuiltinEdges covers what the golden pages do not: a link
// whose first word is a state, a value holding a closing parenthesis and
// a name holding brackets, and page text with no control in it.
func TestControlsBuiltinEdges(t *testing.T) {
	t.Parallel()
	reply := "url: https://a.test/\ntitle: A\n" +
		"- [Menu](e1 expanded) [Go (now)](e2 button) text [not a control] (e9)\n" +
		`[Field](e3 textbox value="a) b \" c" readonly) [x [y] z](e4)` + "\n"
	_, got, err := Builtin().Controls(reply)
	if err != nil {
		t.Fatal(err)
	}
	want := []Control{
		{Ref: "e1", Role: "link", Name: "Menu"},
		{Ref: "e2", Role: "button", Name: "Go (now)"},
		{Ref: "e3", Role: "textbox", Name: "Field"},
		{Ref: "e4", Role: "link", Name: "y] z"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("controls\n  %+v\nwant\n  %+v", got, want)
	}
}

// TestControlsPeers reads the peers' real snapshots of names.html: every
// element with a ref or uid, in document order, with its role.
func TestControlsPeers(t *testing.T) {
	t.Parallel()
	set := loadServersFile(t)
	for _, tc := range []struct {
		server string
		// some controls the snapshot must hold, by ref.
		want []Control
	}{
		{"playwright", []Control{
			{Ref: "e15", Role: "button", Name: "Press me"},
			{Ref: "e18", Role: "searchbox", Name: "Find things"},
			{Ref: "e24", Role: "link", Name: "Twice", URL: "twice-again.html"},
		}},
		{"chrome-devtools", []Control{
			{Ref: "1_30", Role: "button", Name: "Press me"},
			{Ref: "1_33", Role: "searchbox", Name: "Find things"},
		}},
	} {
		t.Run(tc.server, func(t *testing.T) {
			t.Parallel()
			p, err := set.Get(tc.server)
			if err != nil {
				t.Fatal(err)
			}
			pageURL, got, err := p.Controls(namesReply(t, tc.server))
			if err != nil {
				t.Fatal(err)
			}
			if want := "https://" + namesHost + "/names.html"; pageURL != want {
				t.Errorf("page URL %q, want %q", pageURL, want)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("no control %+v among %+v", w, got)
				}
			}
		})
	}
}

// TestControlsDisabledPeers reads the disabled mark in both peers'
// notations.
func TestControlsDisabledPeers(t *testing.T) {
	t.Parallel()
	set := loadServersFile(t)
	for _, tc := range []struct{ server, reply string }{
		{"playwright", "```yaml\n- button \"Send\" [disabled] [ref=e2]\n- button \"Keep\" [ref=e3]\n```\n"},
		{"chrome-devtools", "## Latest page snapshot\nuid=1_0 RootWebArea \"A\" url=\"https://a.test/\"\n  uid=1_2 button \"Send\" disableable disabled\n  uid=1_3 button \"Keep\" focusable\n"},
	} {
		p, err := set.Get(tc.server)
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := p.Controls(tc.reply)
		if err != nil {
			t.Fatalf("%s: %v", tc.server, err)
		}
		var disabled []string
		for _, c := range got {
			if c.Disabled {
				disabled = append(disabled, c.Name)
			}
		}
		if !slices.Equal(disabled, []string{"Send"}) {
			t.Errorf("%s: disabled controls %q, want [Send]", tc.server, disabled)
		}
	}
}

// TestCall fills an action's placeholders on each server's mapping; a
// value the mapping does not use (chrome-devtools' fill has no submit) is
// left out.
func TestCall(t *testing.T) {
	t.Parallel()
	set := loadServersFile(t)
	values := map[string]any{"{ref}": "e7", "{text}": "apple river", "{submit}": true}
	for _, tc := range []struct{ server, tool, args string }{
		{"builtin", "type", `{"ref":"e7","submit":true,"text":"apple river"}`},
		{"playwright", "browser_type", `{"submit":true,"target":"e7","text":"apple river"}`},
		{"chrome-devtools", "fill", `{"uid":"e7","value":"apple river"}`},
	} {
		p, err := set.Get(tc.server)
		if err != nil {
			t.Fatal(err)
		}
		call, err := p.Call(ActType, values)
		if err != nil {
			t.Fatalf("%s: %v", tc.server, err)
		}
		var got, want any
		if err := json.Unmarshal(call.Args, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tc.args), &want); err != nil {
			t.Fatal(err)
		}
		if call.Name != tc.tool || !jsonEqual(got, want) {
			t.Errorf("%s: Call(type) = %s %s, want %s %s", tc.server, call.Name, call.Args, tc.tool, tc.args)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// loadServersFile loads the repository's servers.yaml.
func loadServersFile(t *testing.T) *Set {
	t.Helper()
	set, err := Load("../../benchmarks/servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return set
}
