// Package contract owns the outcome-contract DSL: its types, the decoding
// and validation of contract documents (YAML or JSON) with a path and line
// for every error, and the pure evaluation of a contract against an
// Observation of the browser's final state, producing a Verdict with
// evidence.
//
// It is the judge's core, so it must not import internal/agent,
// internal/llm, internal/toolserver or internal/mcpclient, nor do any I/O:
// no files, network, clock, environment or browser. The judge package
// captures the Observation; internal/phash supplies screenshot classes
// through the Classes interface.
//
// # Grammar
//
// A contract is a list of clauses, all of which must hold. Every clause is
// a mapping with a kind key; the other keys depend on the kind. JSON is
// accepted wherever YAML is (it is read by the same parser).
//
//	document         = "postconditions" ":" clauses .
//	clauses          = "[" clause { "," clause } "]" .           (non-empty)
//	clause           = url | dom_text | dom_count | network
//	                 | screenshot_class | no_dialog | and | or | not .
//	url              = { kind: url, pattern: regexp } .
//	dom_text         = { kind: dom_text, [selector: css,] contains: text, [page: url] } .
//	dom_count        = { kind: dom_count, selector: css, op: eq|gte|lte, value: int>=0,
//	                     [page: url] } .
//	network          = { kind: network, url_pattern: regexp, status_in: [status, ...],
//	                     [method: text,] [since: task_start|last_tool_call] } .
//	screenshot_class = { kind: screenshot_class, class_id: text, distance_max: 0..64 } .
//	no_dialog        = { kind: no_dialog } .
//	and              = { kind: and, children: clauses } .
//	or               = { kind: or, children: clauses } .
//	not              = { kind: not, child: clause } .
//	regexp           = RE2 syntax (package regexp) .
//	status           = 100..599 .
//	url              = an absolute http or https URL .
//
// Strings must be YAML strings: `contains: 1969` is an error (quote it).
// Unknown kinds and unknown fields are errors, so a misspelt field never
// silently drops a check.
//
// # Semantics
//
//   - url: Pattern matches Observation.URL, unanchored; write ^ and $.
//   - dom_text: the visible text of at least one visible element matching
//     selector (default body) contains the text. What is visible, and what
//     text an element has, the judge decides (docs/contracts.md, "What the
//     judge sees"); Elements records it. The judge's answer for the string
//     (Elements.Contains), found over every match and all of its text, is
//     used first; the kept texts only when they are complete
//     (Elements.TextsCut false). Before comparing, every run of white space
//     (unicode.IsSpace, which includes the no-break space U+00A0) on both
//     sides becomes one ASCII space and the ends are trimmed; the
//     comparison is case-sensitive. No visible match fails.
//   - dom_count: the number of visible matches compares to value by op.
//   - page, on dom_text or dom_count (an absolute http or https URL): the
//     clause reads Observation.Pages[page], the page the judge opened
//     itself after the agent stopped, instead of the active page.
//   - A dom_text or dom_count the Observation cannot decide (its selector
//     missing, or its texts cut with no answer for the string) fails the
//     whole verdict as undecided, even under a not.
//   - network: at least one request matches url_pattern, has a status in
//     status_in and, if method is set, that method (case-insensitive).
//     Requests that started before the agent's first tool call never
//     count. With since: last_tool_call only requests that started after
//     the agent's last tool call count. Failed requests have status 0 and
//     so never match.
//   - screenshot_class: the Hamming distance between the screenshot's
//     64-bit pHash and the class is at most distance_max.
//   - no_dialog: no JavaScript dialog opened during the task.
//   - and: every child holds; evaluation stops at the first that does not.
//   - or: some child holds; every child is evaluated.
//   - not: the child does not hold.
//
// # Verdicts
//
// Evaluate evaluates every top-level clause, so the evidence covers the
// whole contract. The verdict's failed path is the first failing top-level
// clause; inside an and it is the first failing child, recursively, so it
// names a leaf where one leaf explains the failure. An or or a not is
// reported as itself. Each evaluated leaf leaves one Evidence entry with
// what it expected and a bounded account of what it saw.
package contract
