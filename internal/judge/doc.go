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
//     it started at or after the latest MarkToolCall.
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
//     observed in headless Chromium).
//  2. Of those, the one the judge saw open most recently. Several pages are
//     visible only when they are in several windows; the newest window is
//     where the agent went last. (Activating an older window does not change
//     what its pages report, so that case cannot be told apart; it is the
//     one case this rule gets wrong.)
//  3. If no page is visible, the open page the judge saw open most recently.
//
// Pages open at Attach count as older than every page opened later; among
// themselves they are ordered as the browser attached the judge to them,
// which says nothing about their age. A task starts from one blank tab, so
// this matters only to a browser that was busy before Attach.
//
// # Observing
//
// Observe reads the active page in an isolated world (Page.createIsolatedWorld)
// that the page's own scripts cannot reach, so a page that overrides
// querySelectorAll, innerText or visibilityState cannot change what the
// judge sees. For each selector it keeps the exact match count and the
// innerText of the first Options.MaxTexts matches, each cut to
// Options.MaxTextBytes. The screenshot is of the viewport, taken only when
// the active page is visible (a page behind others renders nothing); its
// perceptual hash is left to the runner.
//
// A dialog still showing when Observe runs is recorded as open and then
// dismissed, on whichever page it is: a page with a dialog runs no script,
// so neither its visibility nor its DOM could be read otherwise. Dismissing
// is the only change the judge ever makes to a page, and it happens after
// the task.
//
// The JavaScript lives in js/*.js; each file says what it returns.
//
// # Imports
//
// The package imports internal/contract (for Observation) and the CDP
// library. It must not import the agent, the LLM adapters, the MCP client
// or the tool server: nothing the agent controls may reach the judge.
package judge
