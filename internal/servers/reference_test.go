package servers

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/llm"
	"contractbench/internal/suite"
)

// replyFunc answers one tool call in an offline play.
type replyFunc func(n int, call llm.ToolCall) llm.ToolResult

// playOffline runs provider as the agent loop would, answering its calls
// with reply, until it answers or fails.
func playOffline(t *testing.T, provider llm.Provider, reply replyFunc) (calls []llm.ToolCall, answer string, err error) {
	t.Helper()
	msgs := []llm.Message{{Role: llm.RoleUser, Text: "do the task"}}
	for turn := 0; turn < 40; turn++ {
		resp, err := provider.Next(context.Background(), llm.Request{Messages: msgs})
		if err != nil {
			return calls, "", err
		}
		if len(resp.ToolCalls) == 0 {
			return calls, resp.Text, nil
		}
		if len(resp.ToolCalls) != 1 {
			t.Fatalf("turn %d: %d calls, want one per turn", turn, len(resp.ToolCalls))
		}
		c := resp.ToolCalls[0]
		for _, prev := range calls {
			if prev.ID == c.ID {
				t.Fatalf("call id %q used twice", c.ID)
			}
		}
		calls = append(calls, c)
		res := reply(len(calls), c)
		res.CallID, res.Name = c.ID, c.Name
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: resp.ToolCalls},
			llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{res}})
	}
	t.Fatal("no answer after 40 turns")
	return nil, "", nil
}

func loadTask(t *testing.T, id string) *suite.Task {
	t.Helper()
	task, err := suite.LoadTask(filepath.Join(repoRoot, "benchmarks/webvoyager/tasks", id+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func profile(t *testing.T, name string) *Profile {
	t.Helper()
	p, err := loadServers(t).Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReferenceReplaysCaptures plays each captured task reference offline,
// answering each snapshot call with the peer's real reply from the
// capture, and wants exactly the captured calls: the driver's reading of
// real snapshots, without a browser or a peer installed.
func TestReferenceReplaysCaptures(t *testing.T) {
	t.Parallel()
	for _, server := range peers {
		p := profile(t, server)
		for _, id := range peerTasks {
			t.Run(server+"/"+id, func(t *testing.T) {
				t.Parallel()
				want, err := readCapture(filepath.Join("testdata", server, id+".txtar"))
				if err != nil {
					t.Fatal(err)
				}
				calls, answer, err := playOffline(t, p.Reference(loadTask(t, id).Reference), func(n int, c llm.ToolCall) llm.ToolResult {
					if reply, ok := want.replies[n]; ok {
						return llm.ToolResult{Content: reply}
					}
					return llm.ToolResult{Content: "done"}
				})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, c := range calls {
					got = append(got, c.Name+" "+string(compactJSON(t, c.Args)))
				}
				if g, w := strings.Join(got, "\n"), strings.Join(want.calls, "\n"); g != w {
					t.Errorf("calls\ngot:\n%s\nwant:\n%s", g, w)
				}
				if !strings.Contains(answer, "reference on "+server) {
					t.Errorf("answer %q, want it to name the driver and server", answer)
				}
			})
		}
	}
}

// TestReferenceBuiltin plays a task's reference on the built-in server:
// steps on no element as written, and a find for each target, whose reply
// gives the ref the action uses. The find replies are written here in the
// built-in notation; recording the suite plays the same on real pages.
func TestReferenceBuiltin(t *testing.T) {
	t.Parallel()
	task := loadTask(t, "task-02-mdn-fetch-syntax")
	prov := profile(t, "builtin").Reference(task.Reference)
	if prov.Name() != referenceName || prov.Model() != "" {
		t.Errorf("Name, Model = %q, %q; want %q, empty", prov.Name(), prov.Model(), referenceName)
	}
	replies := map[int]string{
		1: "url: https://developer.mozilla.org/en-US/\ntitle: MDN\n1 match for \"Search MDN\":\n[Search MDN](e4 textbox placeholder=\"Search MDN\") [Search](e5 button)",
		3: "url: https://developer.mozilla.org/en-US/search?q=fetch\ntitle: Search\n2 matches:\n- [Window: fetch() method](e8 /en-US/docs/Web/API/Window/fetch)\n- [Window: fetch() method](e9 /en-US/docs/Web/API/Window/fetch)",
	}
	calls, _, err := playOffline(t, prov, func(n int, _ llm.ToolCall) llm.ToolResult { return llm.ToolResult{Content: replies[n]} })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.Name+" "+string(c.Args))
	}
	want := []string{
		`find {"query":"Search MDN"}`,
		`type {"ref":"e4","submit":true,"text":"fetch"}`,
		`find {"query":"role:link Window: fetch() method"}`,
		`click {"ref":"e8"}`,
		`read_page {"mode":"text"}`,
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("calls\ngot:\n%s\nwant:\n%s", g, w)
	}
	// Two links of one name to two places: the driver refuses to guess.
	amb := profile(t, "builtin").Reference([]suite.Step{{Tool: "click", Target: &suite.Target{Role: "link", Name: "Map"}}})
	_, _, err = playOffline(t, amb, func(int, llm.ToolCall) llm.ToolResult {
		return llm.ToolResult{Content: "url: https://a.test/\ntitle: A\n[Map](e1 /map) [Map](e2 /other-map)"}
	})
	if err == nil || !strings.Contains(err.Error(), `link "Map" is ambiguous in the find reply (page https://a.test/): 2 elements fit: "Map" (link e1 /map), "Map" (link e2 /other-map)`) {
		t.Errorf("err = %v, want the ambiguity with its candidates", err)
	}
}

// TestReferenceTranslation plays hand-made references on names.html and
// checks each peer's calls: the action mapping, the Enter a
// chrome-devtools-mcp type needs to submit, and the steps that make no
// call.
func TestReferenceTranslation(t *testing.T) {
	t.Parallel()
	steps := []suite.Step{
		{Tool: "navigate", Args: json.RawMessage(`{"url":"https://peers.contractbench.test/names.html"}`)},
		{Tool: "find", Args: json.RawMessage(`{"query":"Query"}`)},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e9","text":"lamps","submit":true}`), Target: &suite.Target{Role: "field", Name: "Query"}},
		{Tool: "type", Args: json.RawMessage(`{"ref":"e10","text":"wicks"}`), Target: &suite.Target{Role: "field", Name: "Find things"}},
		{Tool: "click", Args: json.RawMessage(`{"ref":"e2"}`), Target: &suite.Target{Role: "link", Name: "Twice", Href: "twice-again"}},
		{Tool: "press_key", Args: json.RawMessage(`{"key":"Escape"}`)},
		{Tool: "go_back", Args: json.RawMessage(`{}`)},
		{Tool: "read_page", Args: json.RawMessage(`{"mode":"text"}`)},
	}
	tests := []struct {
		server string
		want   []string
	}{
		{"playwright", []string{
			`browser_navigate {"url":"https://peers.contractbench.test/names.html"}`,
			`browser_snapshot {}`,
			`browser_type {"submit":true,"target":"e17","text":"lamps"}`,
			`browser_snapshot {}`,
			`browser_type {"submit":false,"target":"e18","text":"wicks"}`,
			`browser_snapshot {}`,
			`browser_click {"target":"e24"}`,
			`browser_press_key {"key":"Escape"}`,
			`browser_navigate_back {}`,
			`browser_snapshot {}`,
		}},
		{"chrome-devtools", []string{
			`navigate_page {"type":"url","url":"https://peers.contractbench.test/names.html"}`,
			`take_snapshot {}`,
			`fill {"uid":"1_32","value":"lamps"}`,
			`press_key {"key":"Enter"}`,
			`take_snapshot {}`,
			`fill {"uid":"1_33","value":"wicks"}`,
			`take_snapshot {}`,
			`click {"uid":"1_41"}`,
			`press_key {"key":"Escape"}`,
			`navigate_page {"type":"back"}`,
			`take_snapshot {}`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.server, func(t *testing.T) {
			t.Parallel()
			p := profile(t, tc.server)
			names := namesReply(t, tc.server)
			calls, _, err := playOffline(t, p.Reference(steps), func(_ int, c llm.ToolCall) llm.ToolResult {
				if p.PageTool(c.Name) {
					return llm.ToolResult{Content: names}
				}
				return llm.ToolResult{Content: "done"}
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range calls {
				got = append(got, c.Name+" "+string(c.Args))
			}
			if g, w := strings.Join(got, "\n"), strings.Join(tc.want, "\n"); g != w {
				t.Errorf("calls\ngot:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}

func TestReferenceErrors(t *testing.T) {
	t.Parallel()
	names := namesReply(t, "playwright")
	typeQuery := suite.Step{Tool: "type", Args: json.RawMessage(`{"ref":"e1","text":"x"}`), Target: &suite.Target{Role: "field", Name: "Query"}}
	tests := []struct {
		name  string
		steps []suite.Step
		reply func(n int) llm.ToolResult
		// calls is how many calls are made before the error.
		calls int
		want  []string
	}{
		{
			name:  "click without a target",
			steps: []suite.Step{{Tool: "click", Args: json.RawMessage(`{"ref":"e4"}`)}},
			want:  []string{"reference[0] (click): no target", "never by a ref"},
		},
		{
			name:  "a built-in tool without translation",
			steps: []suite.Step{{Tool: "read_page"}, {Tool: "scroll", Args: json.RawMessage(`{"direction":"down"}`)}},
			want:  []string{`reference[1]: the playwright driver has no translation of the built-in tool "scroll"`},
		},
		{
			name:  "navigate without a URL",
			steps: []suite.Step{{Tool: "navigate", Args: json.RawMessage(`{"href":"https://a.test/"}`)}},
			want:  []string{`reference[0] (navigate): no url in args {"href":"https://a.test/"}`},
		},
		{
			name:  "a target role no element can have",
			steps: []suite.Step{{Tool: "click", Target: &suite.Target{Role: "image", Name: "x"}}},
			want:  []string{`target role "image" is not one of link, button, field, select, tab`},
		},
		{
			name:  "target not on the page",
			steps: []suite.Step{{Tool: "read_page"}, {Tool: "click", Target: &suite.Target{Role: "link", Name: "Twice", Href: "thrice"}}},
			reply: func(int) llm.ToolResult { return llm.ToolResult{Content: names} },
			calls: 2,
			want: []string{
				"reference on playwright: reference[1] (click)",
				`no link "Twice" to a URL containing "thrice" in the browser_snapshot reply (page https://peers.contractbench.test/names.html)`,
				`its links: "Twice" (link e23 twice.html), "Twice" (link e24 twice-again.html), "Say \"hi\" now" (link e3 /docs/a?x=1&y=2)`,
				"and 4 more",
			},
		},
		{
			name:  "no field at all",
			steps: []suite.Step{typeQuery},
			reply: func(int) llm.ToolResult {
				return llm.ToolResult{Content: "### Page\n- Page URL: https://a.test/\n```yaml\n- link \"A\" [ref=e1]\n```"}
			},
			calls: 1,
			want:  []string{`no field "Query"`, "no field at all among its 1 elements"},
		},
		{
			name:  "a reply that is no snapshot",
			steps: []suite.Step{typeQuery},
			reply: func(int) llm.ToolResult { return llm.ToolResult{Content: "### Result\nNo open tabs."} },
			calls: 1,
			want:  []string{"reading the browser_snapshot reply: no ```yaml snapshot block", `reply begins "### Result`},
		},
		{
			name:  "a tool error",
			steps: []suite.Step{{Tool: "navigate", Args: json.RawMessage(`{"url":"https://a.test/"}`)}},
			reply: func(int) llm.ToolResult { return llm.ToolResult{Content: "net::ERR_NAME_NOT_RESOLVED", IsError: true} },
			calls: 1,
			want:  []string{"reference[0] (navigate): browser_navigate failed: net::ERR_NAME_NOT_RESOLVED"},
		},
	}
	p := profile(t, "playwright")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.reply == nil {
				if err := p.CheckReference(tc.steps); err == nil {
					t.Error("CheckReference = nil, want the plan's error")
				}
			}
			calls, _, err := playOffline(t, p.Reference(tc.steps), func(n int, _ llm.ToolCall) llm.ToolResult { return tc.reply(n) })
			if err == nil {
				t.Fatal("no error")
			}
			if len(calls) != tc.calls {
				t.Errorf("%d calls before the error, want %d", len(calls), tc.calls)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestReferenceNeedsResult wants an error, not a guess, when the request
// does not carry the result of the call the driver made.
func TestReferenceNeedsResult(t *testing.T) {
	t.Parallel()
	prov := profile(t, "chrome-devtools").Reference([]suite.Step{{Tool: "read_page"}, {Tool: "go_back"}})
	ctx := context.Background()
	first, err := prov.Next(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"}}})
	if err != nil || len(first.ToolCalls) != 1 {
		t.Fatalf("first turn: %+v, %v", first, err)
	}
	_, err = prov.Next(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"}}})
	if err == nil || !strings.Contains(err.Error(), "carries no result for call ref_1 (take_snapshot)") {
		t.Errorf("err = %v, want it to name the call without a result", err)
	}
	// The error sticks: the play is over.
	if _, again := prov.Next(ctx, llm.Request{}); again == nil || again.Error() != err.Error() {
		t.Errorf("next Next = %v, want the same error", again)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := profile(t, "builtin").Reference(nil).Next(cancelled, llm.Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Next on a cancelled context = %v, want context.Canceled", err)
	}
}

// TestEveryTaskPlans checks that every task of the suite can be played on
// every server: each click and type names a target, and every step has a
// translation.
func TestEveryTaskPlans(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot, "benchmarks/webvoyager/tasks")
	files, err := filepath.Glob(filepath.Join(dir, "task-*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tasks in %s: %v", dir, err)
	}
	set := loadServers(t)
	for _, f := range files {
		task := loadTask(t, strings.TrimSuffix(filepath.Base(f), ".yaml"))
		for _, name := range set.Names() {
			p, err := set.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.CheckReference(task.Reference); err != nil {
				t.Errorf("%s on %s: %v", task.ID, name, err)
			}
		}
	}
}
