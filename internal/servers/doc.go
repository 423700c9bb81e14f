// Package servers owns the profiles of the MCP browser tool servers a suite
// can run against (benchmarks/servers.yaml): the built-in server and the
// peers @playwright/mcp and chrome-devtools-mcp. A profile says how to start
// the server against the runner's Chromium, which of its tools agents are
// offered, and how to play a task's reference solution on it.
//
// # Tool classes
//
// Every tool a server lists is in exactly one class. Allowed tools are
// offered to agents. Unsafe tools could forge the evidence the judge reads:
// a peer's evaluate tool can write "299,792,458" into the page, and a
// dom_text contract would then pass without the agent ever finding the
// number. They are never offered unless a task names them in allow_unsafe,
// and the runner reports a task that called one as tainted, never passed.
// Excluded tools are never offered at all (closing the task's tab, changing
// the viewport the screenshot is judged at, profilers).
//
// # Starting a server
//
// Profile.Command builds the process: placeholders in the command and
// environment are filled in ({self}, {cdp_url}, {root}, {work_dir},
// {uploads}), npm
// peers run from {root}/node_modules, and API keys and tokens are left out
// of the child's environment. Installed says what is missing for a peer
// (node, the pinned package) and that `make peers` installs it.
//
// # Reference drivers
//
// Profile.Reference returns an llm.Provider that plays a task's reference
// solution on the profile's server. Reference steps are the built-in
// server's calls, and name the element of each click, type and
// select_option by a server-independent suite.Target (role, accessible
// name, part of the URL), never by a ref. Each such step becomes two calls
// in two turns: a look at the page (the built-in find, asked for the
// target's role and name, or a peer's snapshot tool), then the action on
// the element of the reply that fits the target, through the server's own
// ref or uid. A target no element fits, or one that two different
// elements fit, ends the play with an error listing the candidates. Steps
// on no element are the built-in calls as written, or their translation
// for a peer. A drag's destination (its step's To) is found in the same
// snapshot on a peer and by a second find on the built-in server; an
// upload's files are the names of files in the suite's uploads folder,
// which Transport copies into the server's working directory
// (Spawn.Uploads); a tab switch becomes the peer's own, counting its tabs
// from its own base. The same steps on the same pages give the same calls,
// so transcripts recorded this way replay.
//
// # Reading pages
//
// Profile.Controls reads a reply of the server's read action in its
// snapshot format (the built-in read_page text included) into the
// elements a tool can act on, and Profile.Call builds any action's call
// for the server. The random null agent (package agent) plays through
// these two, so it runs on every server. Profile.WritePage writes what an
// agent reads at a URL through a session of the server, with each element
// written as a reference step's target (contractbench snapshot).
//
// # Imports
//
// The package imports suite (reference steps), llm (the provider
// interface), problem (located decode errors), mcpclient (the session
// WritePage reads a page through), the YAML library and the MCP SDK. It must not import the judge, the browser, the tool server, the
// agent loop, the runner or the CLI: it describes servers and plays the
// agent's part, nothing more.
package servers
