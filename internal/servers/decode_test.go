package servers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"contractbench/internal/problem"
)

// validServer is a correct server entry that the cases below break one
// field at a time. Its first line is line 3 of the file.
const validServer = `  - name: peer
    package: {name: peer-mcp, version: "1.2.3"}
    command: [node, "{root}/node_modules/peer-mcp/cli.js", --cdp, "{cdp_url}"]
    env: {PEER_QUIET: "1"}
    snapshot_format: playwright
    allow: [nav, snap, click, type, key, back]
    unsafe: {eval: runs page script}
    excluded: {close: closes the tab}
    page_tools: [snap]
    actions:
      navigate: {tool: nav, args: {url: "{url}"}}
      read: {tool: snap}
      click: {tool: click, args: {target: "{ref}"}}
      type: {tool: type, args: {target: "{ref}", text: "{text}", submit: "{submit}"}}
      press_key: {tool: key, args: {key: "{key}"}}
      back: {tool: back}
`

func file(server string) string {
	return "format_version: 1\nservers:\n" + server
}

func TestParseValid(t *testing.T) {
	t.Parallel()
	set, err := parse("servers.yaml", []byte(file(validServer)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := set.Get("peer")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Allow(), []string{"nav", "snap", "click", "type", "key", "back"}; !slices.Equal(got, want) {
		t.Errorf("Allow() = %v, want %v", got, want)
	}
	if why, ok := p.Unsafe("eval"); !ok || why != "runs page script" {
		t.Errorf(`Unsafe("eval") = %q, %v; want "runs page script", true`, why, ok)
	}
	if _, ok := p.Unsafe("nav"); ok {
		t.Error(`Unsafe("nav") = true for an allowed tool`)
	}
	if why, ok := p.Excluded("close"); !ok || why != "closes the tab" {
		t.Errorf(`Excluded("close") = %q, %v`, why, ok)
	}
	for tool, want := range map[string]bool{"nav": true, "eval": true, "close": true, "other": false} {
		if got := p.Classified(tool); got != want {
			t.Errorf("Classified(%q) = %v, want %v", tool, got, want)
		}
	}
	if !p.PageTool("snap") || p.PageTool("nav") {
		t.Errorf("PageTool: snap %v, nav %v; want true, false", p.PageTool("snap"), p.PageTool("nav"))
	}
	if got := p.Tool(ActType); got != "type" {
		t.Errorf("Tool(type) = %q, want type", got)
	}
	if pkg := p.Package(); pkg == nil || *pkg != (Package{Name: "peer-mcp", Version: "1.2.3"}) {
		t.Errorf("Package() = %+v", pkg)
	}
	if _, err := set.Get("nope"); err == nil || !strings.Contains(err.Error(), `no server "nope" (known: peer)`) {
		t.Errorf(`Get("nope") = %v, want an error listing the known servers`, err)
	}
}

// TestParseProblems breaks the valid file in one place per case and wants
// exactly one problem, at the given line and path, whose message contains
// msg.
func TestParseProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		line int
		path string
		msg  string
	}{
		{"unknown field", file(validServer + "    colour: blue\n"),
			19, "servers[0].colour", `unknown field "colour"`},
		{"unknown top-level field", "format_version: 1\nextra: 1\nservers:\n" + validServer,
			2, "extra", `unknown field "extra"`},
		{"wrong format version", strings.Replace(file(validServer), "format_version: 1", "format_version: 2", 1),
			1, "format_version", "2 is not supported; this build reads format version 1"},
		{"unsafe tool in allow", file(strings.Replace(validServer, "allow: [nav,", "allow: [eval, nav,", 1)),
			8, "servers[0].allow[0]", `"eval" is classed unsafe (runs page script)`},
		{"excluded tool in allow", file(strings.Replace(validServer, "allow: [nav,", "allow: [close, nav,", 1)),
			8, "servers[0].allow[0]", `"close" is excluded (closes the tab)`},
		{"tool both unsafe and excluded", file(strings.Replace(validServer, "excluded: {close:", "excluded: {eval:", 1)),
			10, "servers[0].excluded.eval", "is also classed unsafe"},
		{"missing action", file(strings.Replace(validServer, "      back: {tool: back}\n", "", 1)),
			13, "servers[0].actions.back", "missing"},
		{"unknown action", file(validServer + "      scroll: {tool: nav}\n"),
			19, "servers[0].actions.scroll", `unknown field "scroll"`},
		{"action tool not allowed", file(strings.Replace(validServer, "back: {tool: back}", "back: {tool: history}", 1)),
			18, "servers[0].actions.back.tool", `"history" is not in allow`},
		{"action without its placeholder", file(strings.Replace(validServer, `args: {target: "{ref}"}}`, `args: {target: e1}}`, 1)),
			15, "servers[0].actions.click.args", "never uses {ref}"},
		{"placeholder of another action", file(strings.Replace(validServer, `read: {tool: snap}`, `read: {tool: snap, args: {at: "{url}"}}`, 1)),
			14, "servers[0].actions.read.args.at", `"{url}" is not a placeholder of read`},
		{"placeholder inside a longer value", file(strings.Replace(validServer, `{url: "{url}"}`, `{url: "go {url}"}`, 1)),
			13, "servers[0].actions.navigate.args.url", `"go {url}" is not a placeholder of navigate`},
		{"bad command placeholder", file(strings.Replace(validServer, `"{cdp_url}"]`, `"{cdp_url}", "{cdp}"]`, 1)),
			5, "servers[0].command[4]", `unknown placeholder "{cdp}"`},
		{"command without the browser", file(strings.Replace(validServer, `--cdp, "{cdp_url}"`, `--headless`, 1)),
			5, "servers[0].command", "never passes {cdp_url}"},
		{"root without a package", file(strings.Replace(validServer, "    package: {name: peer-mcp, version: \"1.2.3\"}\n", "", 1)),
			4, "servers[0].command[1]", "uses {root} but the server names no package"},
		{"version range", file(strings.Replace(validServer, `version: "1.2.3"`, `version: "^1.2.3"`, 1)),
			4, "servers[0].package.version", "must be an exact version"},
		{"bad env placeholder", file(strings.Replace(validServer, `{PEER_QUIET: "1"}`, `{PEER_HOME: "{home}"}`, 1)),
			6, "servers[0].env.PEER_HOME", `unknown placeholder "{home}"`},
		{"env value not a string", file(strings.Replace(validServer, `{PEER_QUIET: "1"}`, `{PEER_QUIET: 1}`, 1)),
			6, "servers[0].env.PEER_QUIET", "expected a string, got the integer 1 (quote it"},
		{"unknown snapshot format", file(strings.Replace(validServer, "snapshot_format: playwright", "snapshot_format: html", 1)),
			7, "servers[0].snapshot_format", `"html" must be one of builtin, playwright, chrome-devtools`},
		{"page tool not allowed", file(strings.Replace(validServer, "page_tools: [snap]", "page_tools: [eval]", 1)),
			11, "servers[0].page_tools[0]", `"eval" is not in allow`},
		{"tool allowed twice", file(strings.Replace(validServer, "allow: [nav,", "allow: [nav, nav,", 1)),
			8, "servers[0].allow[1]", `"nav" is listed twice`},
		{"duplicate server", file(validServer + validServer),
			19, "servers[1].name", `"peer" is also the name of the server on line 3`},
		{"bad name", file(strings.Replace(validServer, "name: peer", "name: Peer_1", 1)),
			3, "servers[0].name", "lower-case letters"},
		{"no servers", "format_version: 1\nservers: []\n",
			2, "servers", "empty: list at least one server"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := parse("servers.yaml", []byte(tc.doc))
			var ps problem.List
			if !errors.As(err, &ps) {
				t.Fatalf("parse: %v, want a problem.List", err)
			}
			if len(ps) != 1 {
				t.Fatalf("got %d problems, want 1:\n%v", len(ps), ps)
			}
			p := ps[0]
			if p.File != "servers.yaml" || p.Line != tc.line || p.Path != tc.path || !strings.Contains(p.Msg, tc.msg) {
				t.Errorf("got  %s\nwant servers.yaml:%d: %s: …%s…", p, tc.line, tc.path, tc.msg)
			}
		})
	}
}

func TestParseNotYAML(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{"syntax": "servers: [", "empty": ""} {
		_, err := parse("s.yaml", []byte(doc))
		var ps problem.List
		if !errors.As(err, &ps) || len(ps) != 1 || ps[0].File != "s.yaml" {
			t.Errorf("%s: parse = %v, want one problem naming s.yaml", name, err)
		}
	}
}

// TestServersFile checks the repository's own servers.yaml beyond what
// decoding enforces: the three servers are there, and each peer's
// dangerous tools are classed as such.
func TestServersFile(t *testing.T) {
	t.Parallel()
	set := loadServers(t)
	if got, want := set.Names(), []string{"builtin", "playwright", "chrome-devtools"}; !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	tests := []struct {
		server   string
		unsafe   []string
		excluded []string
		format   Format
	}{
		{"builtin", nil, nil, FormatBuiltin},
		{"playwright", []string{"browser_evaluate", "browser_run_code_unsafe", "browser_drop"},
			[]string{"browser_close", "browser_resize", "browser_emulate_media"}, FormatPlaywright},
		{"chrome-devtools", []string{"evaluate_script"},
			[]string{"emulate", "resize_page", "lighthouse_audit"}, FormatChromeDevtools},
	}
	for _, tc := range tests {
		p, err := set.Get(tc.server)
		if err != nil {
			t.Fatal(err)
		}
		if p.Format() != tc.format {
			t.Errorf("%s: format %q, want %q", tc.server, p.Format(), tc.format)
		}
		for _, tool := range tc.unsafe {
			if _, ok := p.Unsafe(tool); !ok {
				t.Errorf("%s: %s is not classed unsafe", tc.server, tool)
			}
		}
		for _, tool := range tc.excluded {
			if _, ok := p.Excluded(tool); !ok {
				t.Errorf("%s: %s is not excluded", tc.server, tool)
			}
		}
		if got := len(p.UnsafeTools()); got != len(tc.unsafe) {
			t.Errorf("%s: %d unsafe tools, want %d", tc.server, got, len(tc.unsafe))
		}
		if (p.Package() == nil) != (tc.format == FormatBuiltin) {
			t.Errorf("%s: package %+v: a peer names its npm package, the built-in server none", tc.server, p.Package())
		}
	}
}
