package servers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/llm"
	"contractbench/internal/suite"
)

// widgetsTask plays, on the built-in server's widgets.html, a reference with every
// step the widgets need: a drag onto a drop zone (region), a file upload
// from the uploads folder, an autocomplete option, a button inside an
// open shadow root, and a switch to the tab a target=_blank link opened.
// Its contract holds only if each step did what it says.
const widgetsTask = `id: widgets
instruction: Use every widget of the board page.
start_url: https://peers.contractbench.test/widgets.html
timeout: 60s
postconditions:
  - {kind: dom_text, selector: '#moves', contains: "Moved to Done"}
  - {kind: dom_text, selector: '#chosen', contains: "Chosen: notes.txt (110 bytes)"}
  - {kind: dom_text, selector: '#picked', contains: "Picked Ann Ode <ann@example.test>"}
  - {kind: dom_text, selector: 'assignee-picker', contains: "Assigned to Cleo"}
reference:
  - tool: drag
    target: {role: link, name: Fix the lamp}
    to: {role: region, name: Done}
  - tool: upload_file
    target: {role: button, name: Attachment}
    args: {files: [notes.txt]}
  - tool: click
    target: {role: option, name: Ann Ode <ann@example.test>}
  - tool: click
    target: {role: button, name: Cleo}
rationale: A test of the reference driver.
`

// tabSteps open the names page in a new tab and switch to it.
const tabSteps = `id: tabs
instruction: Open the names page in its tab.
start_url: https://peers.contractbench.test/widgets.html
timeout: 60s
postconditions:
  - {kind: url, pattern: 'names\.html$'}
reference:
  - tool: click
    target: {role: link, name: Open the names page}
  - tool: tabs
    args: {action: select, index: 2}
  - tool: read_page
rationale: A test of the reference driver.
`

// frameTask types into and clicks in a frame of another origin of the
// same site: a payment form in a checkout page.
const frameTask = `id: frame
instruction: Pay as Ada Byron.
start_url: https://peers.contractbench.test/checkout.html
timeout: 60s
postconditions:
  - {kind: url, pattern: 'checkout\.html$'}
reference:
  - tool: type
    target: {role: field, name: Card holder}
    args: {text: Ada Byron}
  - tool: click
    target: {role: button, name: Pay now}
  - tool: read_page
rationale: A test of the reference driver.
`

// TestWidgetSteps plays widgetsTask's reference on every server (the
// built-in one from a freshly built contractbench, the peers from
// node_modules) and requires its whole contract to pass; then plays
// frameTask and requires the frame's answer in the last snapshot, and
// tabSteps and requires the last snapshot to be of the new tab.
func TestWidgetSteps(t *testing.T) {
	set := loadServers(t)
	task, err := suite.ParseTask("widgets.yaml", []byte(widgetsTask))
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := suite.ParseTask("tabs.yaml", []byte(tabSteps))
	if err != nil {
		t.Fatal(err)
	}
	uploads, err := filepath.Abs("testdata/uploads")
	if err != nil {
		t.Fatal(err)
	}
	self := ""
	for _, name := range set.Names() {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			if p.Package() != nil {
				requireInstalled(t, p)
			} else if self == "" {
				self = buildSelf(t)
			}
			b := sharedBrowser(t)
			t.Run("widgets", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), task.Timeout)
				defer cancel()
				j, _ := startTask(t, ctx, b.URL(), task.StartURL)
				sess := startServerUploads(t, ctx, p, b.URL(), self, uploads)
				drive(t, ctx, p, sess, j, p.Reference(task.Reference), task.Instruction)
				v, obs, err := j.Grade(ctx, task.Postconditions, nil)
				if err != nil {
					t.Fatalf("judge: %v", err)
				}
				if !v.Passed {
					t.Errorf("the reference on %s failed %s: final URL %s, evidence %+v", p.Name(), v.FailedClause(), obs.URL, v.Evidence)
				}
			})
			t.Run("frame", func(t *testing.T) {
				frame, err := suite.ParseTask("frame.yaml", []byte(frameTask))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), frame.Timeout)
				defer cancel()
				j, _ := startTask(t, ctx, b.URL(), frame.StartURL)
				sess := startServerUploads(t, ctx, p, b.URL(), self, uploads)
				got := drive(t, ctx, p, sess, j, p.Reference(frame.Reference), frame.Instruction)
				if last := got.replies[len(got.calls)]; !strings.Contains(last, "Paid by Ada Byron.") {
					t.Errorf("the last read on %s does not show the frame's answer:\n%s", p.Name(), last)
				}
			})
			t.Run("tabs", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), tabs.Timeout)
				defer cancel()
				j, _ := startTask(t, ctx, b.URL(), tabs.StartURL)
				sess := startServerUploads(t, ctx, p, b.URL(), self, uploads)
				got := drive(t, ctx, p, sess, j, p.Reference(tabs.Reference), tabs.Instruction)
				last := got.replies[len(got.calls)]
				if !strings.Contains(last, "https://"+namesHost+"/names.html") || strings.Contains(last, "Fix the lamp") {
					t.Errorf("the last read on %s is not of the new tab:\n%s", p.Name(), last)
				}
			})
		})
	}
}

// widgetReplies are hand-written snapshots of a board page, in each
// format, with a card, a drop zone, a file input and an option.
var widgetReplies = map[string]string{
	"playwright": "### Page\n- Page URL: https://board.test/\n### Snapshot\n```yaml\n" +
		"- region \"Done\" [ref=e7]:\n  - heading \"Done\" [level=2] [ref=e8]\n" +
		"- link \"Fix the lamp\" [ref=e6] [cursor=pointer]:\n  - /url: /cards/7\n" +
		"- button \"Attachment\" [ref=e11]\n- listbox [ref=e15]:\n  - option \"Ann Ode\" [ref=e16]\n```\n",
	"chrome-devtools": "## Latest page snapshot\nuid=1_0 RootWebArea \"Board\" url=\"https://board.test/\"\n" +
		"  uid=1_4 link \"Fix the lamp\" url=\"https://board.test/cards/7\"\n  uid=1_6 region \"Done\"\n" +
		"  uid=1_11 button \"Attachment\" value=\"No file chosen\"\n  uid=1_16 option \"Ann Ode\" selectable\n",
}

// builtinFind answers the built-in find by its query.
var builtinFind = map[string]string{
	"role:link Fix the lamp": "url: https://board.test/\ntitle: Board\n1 match for \"role:link Fix the lamp\":\n[Fix the lamp](e2 /cards/7)\n",
	"role:region Done":       "url: https://board.test/\ntitle: Board\n1 match for \"role:region Done\":\n[Done](e3 region)\n",
	"role:file Attachment":   "url: https://board.test/\ntitle: Board\n1 match for \"role:file Attachment\":\n[Attachment](e4 file)\n",
	"role:option Ann Ode":    "url: https://board.test/\ntitle: Board\n1 match for \"role:option Ann Ode\":\n[Ann Ode](e6 option)\n",
}

// TestReferenceWidgetTranslation plays drag, upload, option and tab steps
// offline on every server and checks each server's calls: two finds for a
// built-in drag, one snapshot for a peer's; Playwright's click before its
// upload; tab numbers in each server's base, and chrome-devtools-mcp's
// pages listed until the new one shows; chrome-devtools-mcp's verbose
// snapshot for an option.
func TestReferenceWidgetTranslation(t *testing.T) {
	t.Parallel()
	steps := []suite.Step{
		{Tool: "drag", Args: json.RawMessage(`{}`), Target: &suite.Target{Role: "link", Name: "Fix the lamp"}, To: &suite.Target{Role: "region", Name: "Done"}},
		{Tool: "upload_file", Args: json.RawMessage(`{"files":["notes.txt","plan.pdf"]}`), Target: &suite.Target{Role: "button", Name: "Attachment"}},
		{Tool: "click", Args: json.RawMessage(`{}`), Target: &suite.Target{Role: "option", Name: "Ann Ode"}},
		{Tool: "tabs", Args: json.RawMessage(`{"action":"list"}`)},
		{Tool: "tabs", Args: json.RawMessage(`{"action":"switch","index":2}`)},
	}
	tests := []struct {
		server string
		want   []string
	}{
		{"builtin", []string{
			`find {"query":"role:link Fix the lamp"}`,
			`find {"query":"role:region Done"}`,
			`drag {"ref":"e2","to":"e3"}`,
			`find {"query":"role:file Attachment"}`,
			`upload_file {"files":["notes.txt","plan.pdf"],"ref":"e4"}`,
			`find {"query":"role:option Ann Ode"}`,
			`click {"ref":"e6"}`,
			`tabs {"action":"list"}`,
			`tabs {"action":"switch","index":2}`,
		}},
		{"playwright", []string{
			`browser_snapshot {}`,
			`browser_drag {"endTarget":"e7","startTarget":"e6"}`,
			`browser_snapshot {}`,
			`browser_click {"target":"e11"}`,
			`browser_file_upload {"paths":["uploads/notes.txt","uploads/plan.pdf"]}`,
			`browser_snapshot {}`,
			`browser_click {"target":"e16"}`,
			`browser_tabs {"action":"select","index":1}`,
		}},
		{"chrome-devtools", []string{
			`take_snapshot {}`,
			`drag {"from_uid":"1_4","to_uid":"1_6"}`,
			`take_snapshot {}`,
			`upload_file {"filePaths":["uploads/notes.txt","uploads/plan.pdf"],"uid":"1_11"}`,
			`take_snapshot {"verbose":true}`,
			`click {"uid":"1_16"}`,
			`list_pages {}`,
			`list_pages {}`,
			`select_page {"bringToFront":true,"pageId":2}`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.server, func(t *testing.T) {
			t.Parallel()
			p := profile(t, tc.server)
			lists := 0
			calls, _, err := playOffline(t, p.Reference(steps), func(_ int, c llm.ToolCall) llm.ToolResult {
				if c.Name == "find" {
					var q struct{ Query string }
					if err := json.Unmarshal(c.Args, &q); err != nil {
						t.Fatal(err)
					}
					return llm.ToolResult{Content: builtinFind[q.Query]}
				}
				if p.PageTool(c.Name) {
					return llm.ToolResult{Content: widgetReplies[tc.server]}
				}
				if c.Name == "list_pages" {
					// The new tab shows in the second list.
					lists++
					if lists == 1 {
						return llm.ToolResult{Content: "## Pages\n1: Board (https://board.test/) [selected]"}
					}
					return llm.ToolResult{Content: "## Pages\n1: Board (https://board.test/) [selected]\n2: Card (https://board.test/cards/7)"}
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

// TestReferenceWidgetErrors checks the plan's refusals of widget steps.
func TestReferenceWidgetErrors(t *testing.T) {
	t.Parallel()
	p := profile(t, "playwright")
	for _, c := range []struct {
		step suite.Step
		want string
	}{
		{suite.Step{Tool: "drag", Args: json.RawMessage(`{}`), Target: &suite.Target{Role: "link", Name: "A"}},
			"reference[0] (drag): no to: the element is found by its target"},
		{suite.Step{Tool: "drag", Args: json.RawMessage(`{}`), Target: &suite.Target{Role: "link", Name: "A"}, To: &suite.Target{Role: "zone", Name: "B"}},
			`reference[0] (drag): to role "zone" is not one of`},
		{suite.Step{Tool: "upload_file", Args: json.RawMessage(`{"files":[]}`), Target: &suite.Target{Role: "button", Name: "A"}},
			"reference[0] (upload_file): no files in args"},
		{suite.Step{Tool: "upload_file", Args: json.RawMessage(`{"files":["../secret.txt"]}`), Target: &suite.Target{Role: "button", Name: "A"}},
			`file "../secret.txt" is not the name of a file in the suite's uploads folder`},
		{suite.Step{Tool: "tabs", Args: json.RawMessage(`{"action":"switch"}`)},
			"reference[0] (tabs): index must be a tab number from 1, not 0"},
		{suite.Step{Tool: "tabs", Args: json.RawMessage(`{"action":"close","index":2}`)},
			`has no translation of the built-in tool "tabs"`},
	} {
		err := p.CheckReference([]suite.Step{c.step})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: error %v, want %q", c.step.Tool, c.step.Args, err, c.want)
		}
	}
	// The built-in server's drop target is found by a find of its own; a
	// peer's must be in the one snapshot.
	steps := []suite.Step{{Tool: "drag", Args: json.RawMessage(`{}`), Target: &suite.Target{Role: "link", Name: "Fix the lamp"}, To: &suite.Target{Role: "region", Name: "Elsewhere"}}}
	_, _, err := playOffline(t, p.Reference(steps), func(int, llm.ToolCall) llm.ToolResult {
		return llm.ToolResult{Content: widgetReplies["playwright"]}
	})
	if err == nil || !strings.Contains(err.Error(), `the drop target: no region "Elsewhere" in the browser_snapshot reply`) {
		t.Errorf("drag onto a missing zone: %v", err)
	}
}
