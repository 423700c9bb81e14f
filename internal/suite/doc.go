// Package suite owns benchmark suites on disk: the task spec format
// (tasks/*.yaml), its strict decoding with located problems, the canonical
// form and digest of a task, and the layout of a suite folder.
//
// A task file holds:
//
//	id:             equal to the file name without .yaml
//	instruction:    what the agent is asked
//	start_url:      optional; where the browser starts (about:blank otherwise)
//	timeout:        a Go duration, at most 30m
//	budget:         optional lower caps: max_tokens_per_turn, max_tool_iterations, max_usd
//	tags:           optional list of strings
//	postconditions: the outcome contract (see package contract)
//	reference:      the scripted solution: a list of {tool, args} for the built-in tool
//	                server; a click or type step also carries target {role, name, href?}
//	                naming its element in server-independent terms, so other tool
//	                servers' reference drivers can find it in their own snapshots
//	rationale:      why the task is stable and what the contract pins
//	allow_unsafe:   optional; tools that could forge the evidence (page script, DOM
//	                rewriting) offered anyway; a task that called one is tainted
//
// The package depends on contract and problem (the decoding kit) only; it
// never imports the agent, LLM or tool-server code.
package suite
