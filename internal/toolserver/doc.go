// Package toolserver is contractbench's built-in MCP browser tool server:
// the default system under test, and the only way the agent sees the web.
// `contractbench mcp` serves it over stdio.
//
// It connects to a running Chromium over the DevTools protocol, attaches to
// an existing tab, and offers fourteen tools: navigate, read_page, find,
// click, type, press_key, select_option, drag, upload_file, scroll,
// go_back, wait_for, screenshot and tabs. Every reply starts with two
// lines, the page's url and title.
//
// Replies are built to be cheap in tokens. read_page renders the page as
// compact text (see package snapshot for the notation) within a byte
// budget that pages on; actions return what they changed (a navigation,
// a dialog, a new tab, the lines of text that appeared) rather than the
// whole page again.
//
// # Refs
//
// Controls carry refs (e12) numbered in document order the first time a
// snapshot renders them, so the same page gives the same refs and recorded
// transcripts replay. The registry lives in an isolated JavaScript world:
// the page's DOM is never written to and the page cannot see or forge
// refs. A new document starts a new registry, and a ref the current
// document did not issue is a tool error that says whether it is stale
// (from a previous page) or unknown; it is never resolved to some other
// element. Open shadow roots are read in place; so are frames of another
// origin that render in the page's process (the same site), each in an
// isolated world of its own whose refs come from a range of their own
// (e10001 on for the first): see frames.go.
//
// # Actions
//
// Clicks are real input events at the element's visible centre, after
// scrolling it into view and checking that nothing covers it; a drag is a
// press, moves and a release from one element's centre to another's.
// Typing sends key events. upload_file chooses files for a file input,
// only from the folder Options.Uploads names. After an action the server waits for a navigation it
// caused to load (bounded by Options.Load: a page that does load is
// reported loaded however busy the machine is) and then for the network
// and the DOM to go quiet (bounded by Options.Settle). A page still
// loading when a bound runs out is reported so, naming that bound.
// Dialogs are answered at once (alerts
// and leaving the page accepted, confirm and prompt dismissed) and
// reported. No tool evaluates JavaScript from the agent: the scripts in
// js/ are embedded and take only data as arguments.
//
// The package must not import the judge side (contract, judge, phash), the
// agent, the LLM adapters or the runner: it sees the browser only through
// its own CDP session, as a peer MCP server would.
package toolserver
