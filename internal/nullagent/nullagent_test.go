package nullagent_test

import (
	"context"
	"contractbench/internal/agent/agenttest"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/agent"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
	"contractbench/internal/nullagent"
	"contractbench/internal/servers"
)

// site is a small web behind a fake built-in tool server: read_page
// answers the current page in the built-in server's text notation, a
// click on a link opens its target, go_back returns, and every call is
// logged with the page it was made on.
type site struct {
	mu      sync.Mutex
	history []string
	log     []siteCall
}

// siteCall is one call the server received.
type siteCall struct {
	page string
	tool string
	args map[string]any
}

// sitePages are the pages: their read_page text, and where each link goes.
var sitePages = map[string]struct {
	text  string
	links map[string]string
}{
	"home": {
		text: "url: https://site.test/\ntitle: Home\n# Home\n" +
			"[Search](e1 searchbox placeholder=\"Search (all)\") [Go](e2 button)\n" +
			"- [Docs](e3)\n- [Blog](e4)\n[Old form](e5 button disabled) [Notes](e6 textbox readonly)\n",
		links: map[string]string{"e3": "docs", "e4": "blog"},
	},
	"docs": {
		text:  "url: https://site.test/docs\ntitle: Docs\n# Docs\n[Home](e1) [Next page](e2) [Agree](e3 checkbox)\n",
		links: map[string]string{"e1": "home", "e2": "blog"},
	},
	"blog": {
		text:  "url: https://site.test/blog\ntitle: Blog\n# Blog\nNothing to act on here.\n",
		links: map[string]string{},
	},
}

// controlsOf lists the refs of page's controls a random agent may click or
// type into, as the page text shows them.
var controlsOf = map[string]struct{ clicks, fields []string }{
	"home": {clicks: []string{"e2", "e3", "e4"}, fields: []string{"e1", "e6"}},
	"docs": {clicks: []string{"e1", "e2", "e3"}},
	"blog": {},
}

func (s *site) page() string {
	if len(s.history) == 0 {
		return "home"
	}
	return s.history[len(s.history)-1]
}

// handle answers one call of the built-in server's tools.
func (s *site) handle(tool string, args map[string]any) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	page := s.page()
	s.log = append(s.log, siteCall{page: page, tool: tool, args: args})
	switch tool {
	case "read_page":
		return sitePages[page].text, false
	case "click":
		ref, _ := args["ref"].(string)
		if to, ok := sitePages[page].links[ref]; ok {
			s.history = append(s.history, to)
			return "navigated to " + to, false
		}
		return "clicked " + ref, false
	case "go_back":
		if len(s.history) == 0 {
			return "no previous page", true
		}
		s.history = s.history[:len(s.history)-1]
		return "went back", false
	}
	return tool + " done", false
}

func (s *site) calls() []siteCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// builtinTools are the tools the fake server lists: the built-in server's.
var builtinTools = []string{"navigate", "read_page", "find", "click", "type", "press_key", "select_option", "scroll", "go_back", "wait_for", "screenshot", "tabs"}

// newSite serves tools over an in-memory MCP transport, each answering
// through handle, and connects a session to it with opts.
func newSite(t *testing.T, tools []string, handle func(tool string, args map[string]any) (string, bool), opts mcpclient.Options) *mcpclient.Session {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake-browser", Version: "1"}, nil)
	for _, name := range tools {
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "fake " + name},
			func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
				text, isErr := handle(name, in)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isErr}, nil, nil
			})
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s, err := mcpclient.Connect(context.Background(), clientEnd, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// playRandom runs a random agent with seed on a fresh site with the
// built-in server's tools, offered through allow (nil offers all).
func playRandom(t *testing.T, seed uint64, allow []string) (*agent.Outcome, []siteCall) {
	t.Helper()
	s := &site{}
	session := newSite(t, builtinTools, s.handle, mcpclient.Options{Allow: allow})
	out := agent.Run(context.Background(), nullagent.NewRandom(servers.Builtin(), seed), session, agent.Options{
		Instruction: "Find the opening hours.",
		Budget:      agenttest.NewBudget(t, llm.Caps{}),
	})
	return out, s.calls()
}

func TestNoop(t *testing.T) {
	t.Parallel()
	s := &site{}
	session := newSite(t, builtinTools, s.handle, mcpclient.Options{})
	out := agent.Run(context.Background(), nullagent.Noop{}, session, agent.Options{
		Instruction: "Find the opening hours.",
		Budget:      agenttest.NewBudget(t, llm.Caps{}),
	})
	if out.Stop != agent.StopAnswer || out.Err != nil {
		t.Fatalf("Stop = %q, Err = %v; want %q, nil", out.Stop, out.Err, agent.StopAnswer)
	}
	if len(out.Calls) != 0 || len(s.calls()) != 0 || out.Turns != 1 {
		t.Errorf("noop made %d calls (server saw %d) over %d turns; want none, in one turn", len(out.Calls), len(s.calls()), out.Turns)
	}
	if !strings.Contains(out.Answer, "no model ran") || !out.Usage.IsZero() || out.USD != 0 {
		t.Errorf("answer %q, usage %+v, $%v; want an answer saying no model ran, and nothing spent", out.Answer, out.Usage, out.USD)
	}
}

// TestRandomPlaysThePage checks the random agent's policy on a small site:
// it reads before it acts, acts only on controls the last read showed
// (links and buttons clicked, fields typed into, nothing disabled), never
// navigates to a URL of its own, and stops after RandomSteps calls.
func TestRandomPlaysThePage(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3, 4} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			out, calls := playRandom(t, seed, nil)
			if out.Stop != agent.StopAnswer || out.Err != nil {
				t.Fatalf("Stop = %q, Err = %v; want %q, nil", out.Stop, out.Err, agent.StopAnswer)
			}
			if len(out.Calls) != randomSteps || len(calls) != randomSteps {
				t.Fatalf("%d calls (server saw %d), want %d", len(out.Calls), len(calls), randomSteps)
			}
			if want := fmt.Sprintf("random (seed %d)", seed); !strings.HasPrefix(out.Answer, want) || !strings.Contains(out.Answer, "no model ran") {
				t.Errorf("answer %q, want one starting %q and saying no model ran", out.Answer, want)
			}
			read, kinds := false, map[string]int{}
			for i, c := range calls {
				kinds[c.tool]++
				where := fmt.Sprintf("call %d (%s %v on %s)", i+1, c.tool, c.args, c.page)
				switch c.tool {
				case "read_page":
					read = true
					continue
				case "click", "type":
					if !read {
						t.Errorf("%s: acted on a page it had not read since it changed", where)
					}
					ref, _ := c.args["ref"].(string)
					allowed := controlsOf[c.page].clicks
					if c.tool == "type" {
						allowed = controlsOf[c.page].fields
						if text, _ := c.args["text"].(string); text == "" {
							t.Errorf("%s: typed nothing", where)
						}
					}
					if !slices.Contains(allowed, ref) {
						t.Errorf("%s: ref %q is not one of the page's %ss %q", where, ref, c.tool, allowed)
					}
				case "press_key", "go_back":
				default:
					t.Errorf("%s: a random agent plays only read, click, type, press_key and go_back", where)
				}
				read = false
			}
			if calls[0].tool != "read_page" {
				t.Errorf("first call %s, want read_page", calls[0].tool)
			}
			if kinds["click"] == 0 {
				t.Errorf("no click in %d calls: %v", len(calls), kinds)
			}
		})
	}
}

// TestRandomSeeded: the same seed on the same pages makes the same calls;
// another seed makes others.
func TestRandomSeeded(t *testing.T) {
	t.Parallel()
	args := func(out *agent.Outcome) []string {
		var s []string
		for _, c := range out.Calls {
			s = append(s, c.Tool+" "+string(c.Args))
		}
		return s
	}
	a, _ := playRandom(t, 7, nil)
	b, _ := playRandom(t, 7, nil)
	c, _ := playRandom(t, 8, nil)
	if !slices.Equal(args(a), args(b)) {
		t.Errorf("seed 7 twice gave different calls:\n  %q\n  %q", args(a), args(b))
	}
	if slices.Equal(args(a), args(c)) {
		t.Errorf("seeds 7 and 8 gave the same calls: %q", args(a))
	}
}

// TestRandomAllowList: a tool the session does not offer is never called.
func TestRandomAllowList(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		_, calls := playRandom(t, seed, []string{"read_page", "click", "type"})
		for _, c := range calls {
			if c.tool != "read_page" && c.tool != "click" && c.tool != "type" {
				t.Errorf("seed %d: called %s, which the allow-list leaves out", seed, c.tool)
			}
		}
	}
}

// TestRandomOnPeers plays through each peer's actions mapping: its
// snapshot tool to read, its own click and type tools with its own refs.
func TestRandomOnPeers(t *testing.T) {
	t.Parallel()
	set, err := servers.Load("../../benchmarks/servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		server   string
		snapshot string
		// refs a click or type may name, and the arg that carries them.
		refs   []string
		refArg string
	}{
		{"playwright", "### Page\n- Page URL: https://site.test/\n### Snapshot\n```yaml\n" +
			"- generic [ref=e1]:\n  - link \"Docs\" [ref=e2] [cursor=pointer]:\n    - /url: /docs\n" +
			"  - searchbox \"Search\" [ref=e3]\n  - button \"Old\" [disabled] [ref=e4]\n  - paragraph [ref=e5]: text\n```\n",
			[]string{"e2", "e3"}, "target"},
		{"chrome-devtools", "## Latest page snapshot\nuid=1_0 RootWebArea \"Home\" url=\"https://site.test/\"\n" +
			"  uid=1_1 link \"Docs\" url=\"https://site.test/docs\"\n  uid=1_2 searchbox \"Search\"\n" +
			"  uid=1_3 button \"Old\" disableable disabled\n  uid=1_4 StaticText \"text\"\n",
			[]string{"1_1", "1_2"}, "uid"},
	} {
		t.Run(tc.server, func(t *testing.T) {
			t.Parallel()
			p, err := set.Get(tc.server)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var seen []string
			handle := func(tool string, args map[string]any) (string, bool) {
				mu.Lock()
				defer mu.Unlock()
				raw, _ := json.Marshal(args)
				seen = append(seen, tool+" "+string(raw))
				if tool == p.Tool(servers.ActRead) {
					return tc.snapshot, false
				}
				return "done", false
			}
			session := newSite(t, p.Allow(), handle, mcpclient.Options{Allow: p.Allow()})
			out := agent.Run(context.Background(), nullagent.NewRandom(p, 3), session, agent.Options{
				Instruction: "Find the opening hours.", Budget: agenttest.NewBudget(t, llm.Caps{}),
			})
			if out.Stop != agent.StopAnswer || len(out.Calls) != randomSteps {
				t.Fatalf("Stop = %q (%v) after %d calls; want an answer after %d", out.Stop, out.Err, len(out.Calls), randomSteps)
			}
			acted := 0
			for _, c := range out.Calls {
				if c.Tool != p.Tool(servers.ActClick) && c.Tool != p.Tool(servers.ActType) {
					continue
				}
				acted++
				var args map[string]any
				if err := json.Unmarshal(c.Args, &args); err != nil {
					t.Fatal(err)
				}
				if ref, _ := args[tc.refArg].(string); !slices.Contains(tc.refs, ref) {
					t.Errorf("%s %s: %s %q is not an enabled link or field of the snapshot %q", c.Tool, c.Args, tc.refArg, ref, tc.refs)
				}
			}
			if acted == 0 {
				t.Errorf("no click or type among the calls %q", seen)
			}
			for _, c := range out.Calls {
				if !slices.Contains(p.Allow(), c.Tool) {
					t.Errorf("called %s, which %s does not allow", c.Tool, tc.server)
				}
			}
		})
	}
}

// TestRandomUnreadableSnapshot: a read reply that is not the server's
// snapshot format ends the play with an error that names the agent.
func TestRandomUnreadableSnapshot(t *testing.T) {
	t.Parallel()
	set, err := servers.Load("../../benchmarks/servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := set.Get("playwright")
	if err != nil {
		t.Fatal(err)
	}
	session := newSite(t, p.Allow(), func(string, map[string]any) (string, bool) { return "not a snapshot", false }, mcpclient.Options{})
	out := agent.Run(context.Background(), nullagent.NewRandom(p, 1), session, agent.Options{
		Instruction: "Find the opening hours.", Budget: agenttest.NewBudget(t, llm.Caps{}),
	})
	if out.Stop != agent.StopError || out.Err == nil || !strings.Contains(out.Err.Error(), "random (seed 1)") {
		t.Fatalf("Stop = %q, Err = %v; want an error naming the random agent", out.Stop, out.Err)
	}
}

// randomSteps is how many actions the random agent plays before it
// answers: 30, as the README and docs/decisions/0006-null-agents.md say.
const randomSteps = 30
