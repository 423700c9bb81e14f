// Package snapshot owns the page model that the tool server's injected
// script (toolserver/js/snapshot.js) extracts from a document, and the
// compact plain-text forms the tools return: read_page's text and
// interactive modes, find's matches, and the lines an action reports as new.
//
// The text form is designed to be cheap in tokens yet unambiguous:
//
//	## Heading                      headings, one # per level
//	- item / 3. item                list items, indented two spaces per level
//	| cell | cell |                 data-table rows
//	[Name](e12)                     a link; e12 is its ref
//	[Name](e13 button disabled)     any other control: ref, role, state
//	[Email](e14 textbox type=email value="a@b" placeholder="you@x")
//	[Close menu](e15 button shows="☰ menu")  a name (aria-label) that leaves out words the control shows
//	![alt]                          an image's alternative text
//	x=(−b±√(b^2−4ac))/2a            a MathML formula, in a linear notation
//
// Inside the parentheses there is only the ref, the role (absent for links),
// key=value attributes and bare state words, so a control's name can never
// be mistaken for its role.
//
// Everything here is pure: no browser, no I/O. It must not import the tool
// server, the CDP library or the MCP SDK, so it can be tested (and fuzzed)
// on its own.
package snapshot
