// Package judge is the judge's own eyes on the browser: a CDP connection of
// its own, separate from the agent's tool server, that records what happens
// during a task and captures the final state as a contract.Observation.
//
// # Lifecycle
//
// The runner calls Attach before the task starts (the task's clock starts
// then), MarkToolCall as each tool call of the agent begins, Observe once
// the task has ended, and Close. Close only detaches: every page stays open
// as it is.
//
// # What it follows
//
// The judge follows every page target, those open at Attach and every one
// opened later (by window.open, a target=_blank link, or another CDP
// client), through browser-level auto-attach with flat sessions. A new page
// is held at its start until the judge has enabled network and page events
// on it, and is then released; so even the first request of a new tab is in
// the log. The same is done for the cross-site frames and workers of each
// page, whose requests only their own sessions see.
//
// The judge never creates, activates or closes a target, and never answers a
// dialog while the task runs: that is the agent's tool server's business.
// (chromedp, whose transport and protocol types it uses, closes a tab it
// attached to when its context is cancelled unless told WithDetachOnCancel;
// the judge does not use chromedp's tab contexts at all, and ending its
// connection detaches without closing anything.)
//
// # What it records
//
//   - Every request of every followed page, frame and worker: URL, method,
//     resource type, the HTTP status of its response (each redirect hop is
//     its own entry, with the redirect's status), or status 0 and the
//     network error for a load that failed. Start times are milliseconds
//     since Attach, on the judge's clock; a request is AfterLastToolCall if
//     it started at or after the latest MarkToolCall, and
//     BeforeFirstToolCall if it started before the first one (or there was
//     none): the start page's load is not the agent's work.
//   - Every JavaScript dialog (alert, confirm, prompt, beforeunload), open
//     until the browser reports it closed.
//
// # The active page
//
// Observe describes one page, the one the agent is looking at. It is chosen
// by a rule that uses only what the browser reports and what the judge
// recorded itself, so the same state always gives the same page:
//
//  1. Among the open pages (not counting pages Chromium prerenders in case
//     the agent goes there), the ones whose document.visibilityState is
//     "visible". In a window only the tab in front is visible: a tab opened
//     by a target=_blank click hides its opener, and Target.activateTarget
//     on a tab makes it visible and hides the one that was in front (both
//     observed in headless Chromium). Pages in several windows (a popup
//     window and its opener) are all visible.
//  2. Of those, the one with the agent's latest activity: when the judge
//     saw it open, when the browser navigated its main frame other than by
//     the page's own script (a followed link, or a URL or history step the
//     tool server asked for: the request's initiator is the browser, or it
//     carries a user gesture), or when it last received trusted input or
//     focus, which js/watch.js records in the judge's world of every
//     document. So a popup window is active while the agent works in it,
//     and its opener again once the agent acts there. Headless Chromium
//     reports no window focus (document.hasFocus is true in every window,
//     and activating a window fires nothing), so an agent that switches
//     windows and then only reads cannot be told from one that stayed; it
//     is the one case this rule gets wrong.
//  3. If no page is visible, the same order over every open page. Ties go
//     to the page the judge saw open last.
//
// Pages open at Attach count as opened at Attach; among themselves they are
// ordered as the browser attached the judge to them, which says nothing
// about their age. A task starts from one blank tab, so this matters only
// to a browser that was busy before Attach.
//
// # Observing
//
// Observe waits for the active page to settle (its document loaded, none of
// its requests in flight, no request anywhere and no DOM change for
// Options.Quiet; at most Options.SettleMax, or Options.LoadMax while the
// document is still loading), reads it, runs the page's clock
// Options.Advance ahead with Emulation.setVirtualTimePolicy (the page's
// timers fire at once; the clock waits for requests in flight), waits for
// quiet again, and reads the final state. contract.Evaluate grades both
// readings (contract.Settling). After that the page's clock stands still:
// Observe is the last thing done to a task's pages.
//
// Each reading is done in an isolated world (Page.createIsolatedWorld)
// that the page's own scripts cannot reach, so a page that overrides
// querySelectorAll, innerText or visibilityState cannot change what the
// judge sees. For each query it counts the visible matches, keeps the
// visible text of the first Options.MaxTexts of them, each cut to
// Options.MaxTextBytes, and answers over every match and all of its text
// whether it contains each string a dom_text clause looks for. What is
// visible is decided by js/query.js, whose header lists the rules
// (docs/contracts.md, "What the judge sees"). The screenshot is of the
// viewport, taken only when the active page is visible (a page behind
// others renders nothing).
//
// A request counts as in flight until the browser reports its end, or
// until the page's main frame commits another document than the one it
// was made for: the browser cancels the requests of a document it
// replaces without always saying so (an image still loading when a
// script navigates away), and waiting for those would wait out the bound
// on every such page. They stay in the log, with the status the browser
// reported, if any.
//
// A dialog still showing when Observe runs is recorded as open and then
// dismissed, on whichever page it is: a page with a dialog runs no script,
// so neither its visibility nor its DOM could be read otherwise. Dismissing
// a dialog and running the page's clock ahead are the only changes the
// judge ever makes to a page, and both happen after the task.
//
// Grade observes, hashes the screenshot (package phash) and evaluates the
// contract: every verdict is reached on the judge side.
//
// The JavaScript lives in js/*.js; each file says what it returns.
//
// # Imports
//
// The package imports internal/contract (Observation, Evaluate),
// internal/phash, internal/cdpconn and the CDP library. It must not import
// the agent, the LLM adapters, the MCP client, the tool server or the
// runner: nothing the agent controls may reach the judge
// (internal/architecture, TestJudgeNeverReachesTheAgentSide).
package judge
