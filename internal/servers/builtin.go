package servers

import "sync"

// builtinYAML is the built-in server's profile, the same as its entry in
// benchmarks/servers.yaml (a test keeps them equal), for suites that have
// no servers file: the built-in server needs nothing installed.
const builtinYAML = `format_version: 1
servers:
  - name: builtin
    command: ["{self}", mcp, --cdp, "{cdp_url}", --browser-context, "{browser_context}", --uploads, "{uploads}"]
    snapshot_format: builtin
    allow: [navigate, read_page, find, click, type, press_key, select_option, drag, upload_file, scroll, go_back, wait_for, screenshot, tabs]
    page_tools: [read_page]
    actions:
      navigate: {tool: navigate, args: {url: "{url}"}}
      read: {tool: read_page, args: {mode: text}}
      click: {tool: click, args: {ref: "{ref}"}}
      type: {tool: type, args: {ref: "{ref}", text: "{text}", submit: "{submit}"}}
      press_key: {tool: press_key, args: {key: "{key}"}}
      back: {tool: go_back}
      select: {tool: select_option, args: {ref: "{ref}", value: "{value}"}}
      drag: {tool: drag, args: {ref: "{ref}", to: "{to}"}}
      upload: {tool: upload_file, args: {ref: "{ref}", files: "{files}"}}
      select_tab: {tool: tabs, args: {action: switch, index: "{index}"}}
`

var builtin = sync.OnceValue(func() *Profile {
	set, err := parse("builtin profile", []byte(builtinYAML))
	if err != nil {
		panic("servers: the built-in profile does not load: " + err.Error())
	}
	p, err := set.Get("builtin")
	if err != nil {
		panic(err)
	}
	return p
})

// Builtin returns the built-in server's profile.
func Builtin() *Profile { return builtin() }
