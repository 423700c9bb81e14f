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
// page, whose requests only their own sessions see, and for every service
// worker of the browser context (from the browser, so a worker that starts
// for a navigation is held before it runs, and from each page it serves:
// the requests both sessions report are recorded once).
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
//     network error for a load that failed. The status is the server's:
//     a page's request that its service worker answered (the response is
//     fromServiceWorker) is logged with status 0 and an error saying the
//     worker answered, with the worker's status and where its answer came
//     from (made up, the worker's cache, or a request of the worker's
//     own). What the worker sent the server is a request of the worker's,
//     logged with the server's answer; an answer from its cache or made up
//     reached no server. When the page never saw the answer (it was gone),
//     the status is the one the network reported
//     (Network.responseReceivedExtraInfo). Start times are milliseconds
//     since Attach, on the judge's clock; a request is AfterLastToolCall if
//     it started at or after the latest MarkToolCall, and
//     BeforeFirstToolCall if it started before the first one (or there was
//     none): the start page's load is not the agent's work.
//   - Every JavaScript dialog (alert, confirm, prompt, beforeunload), open
//     until the browser reports it closed.
//
// # The active page
//
// Observe describes one page, the one the agent is looking at: the one it
// chose last. It is chosen by a rule that uses only what the browser
// reports and what the judge recorded itself, so the same state always
// gives the same page:
//
//  1. Among the open pages (not counting pages Chromium prerenders in case
//     the agent goes there), the ones whose document.visibilityState is
//     "visible". In the full browser's window only the tab in front is
//     visible: a tab opened by a target=_blank click hides its opener,
//     and Target.activateTarget on a tab makes it visible and hides the
//     one that was in front. Pages in several windows (a popup window and
//     its opener) are all visible, and a headless shell (the default
//     browser) shows every page at once: there this step keeps them all.
//  2. Of those, the one the agent chose last. The agent chooses a page
//     when its tool server opens it; when it opens as a tab that another
//     page opened (window.open or a link to a new tab, but not a popup
//     window: the browser shows a new tab in front of its opener, and
//     tells a popup by window.toolbar.visible); when the browser
//     navigates its main frame other than for a page's script (a
//     followed link, or a URL or history step the tool server asked for:
//     the request's initiator is the browser, or it carries a user
//     gesture; but not the load of what an opener asked its new page
//     for); when it receives trusted input (a click, a key, text typed in,
//     a wheel turn, a touch); and when it is brought to the front (the
//     tool server selects its tab or its window with
//     Target.activateTarget, Page.bringToFront or /json/activate, or the
//     tab in front of it closes). js/watch.js records the input and the
//     coming to the front of a tab in the judge's world of every
//     document; the relay the tool server reaches the browser through
//     (ServerURL, relay.go) records the server's requests to bring a page
//     to the front. Focus is no sign of the agent: a page focuses itself
//     (autofocus, focus(), window.focus()), and the browser focuses the
//     window of a popup it opens. So a popup window the page opened, even
//     on the agent's click, is the agent's page once the agent acts in it
//     or its server switches to it, and its opener again once the agent
//     acts or switches there.
//  3. If no page is visible, the same order over every open page. Ties go
//     to the page the judge saw open last.
//
// Headless Chromium shows the pages no switch between windows
// (document.hasFocus is true in every window, and activating a window
// fires nothing), and a headless shell no switch between tabs either: the
// judge learns of it from the server's request, on the relay, which is
// why the rule reads the same facts on both browsers. A tool server that
// emulates focus (chrome-devtools-mcp enables
// Emulation.setFocusEmulationEnabled on each page it selects) makes its
// pages report "visible" behind another tab too, with no change of
// visibility: among those pages the latest choice decides.
//
// Pages open at Attach count as opened at Attach (unless another page
// opened them); among themselves they are ordered as the browser attached
// the judge to them, which says nothing about their age. A task starts
// from one blank tab, so this matters only to a browser that was busy
// before Attach.
//
// # Observing
//
// Observe waits for the active page to settle (its document loaded, none of
// its requests in flight, no request anywhere and no DOM change for 250
// ms; at most Options.SettleMax, or Options.LoadMax while the
// document is still loading), reads it, runs the page's clock ahead with
// Emulation.setVirtualTimePolicy (the page's timers fire at once, in
// order; the clock waits while the page fetches), waits for quiet again,
// and reads the final state. contract.Evaluate grades both readings
// (contract.Settling). After that the page's clock stands still: Observe
// is the last thing done to a task's pages.
//
// # How far the clock runs
//
// The clock runs until nothing has changed in the page for a horizon of
// its own time, Options.Advance (30 s): no DOM change, no new document,
// none of its requests in flight. The first run is the whole horizon,
// counted from the first reading, so any timer due within 30 s of the
// agent's stopping has fired; each later run goes to a horizon after the
// latest change. So a confirmation that a timer replaces 7 s or 25 s later
// is seen, and a chain of changes is followed as long as each comes within
// the horizon of the one before (up to the limit below). What changes
// nothing the judge can see does not count (a request whose answer changes
// nothing, a timer that only sets another): the judge cannot see the
// page's timers themselves, which live in the page's own world.
//
// A page that never stops changing (a clock, a carousel, an animation run
// by a timer) stops at a minute of its time; it is then run on in steps
// of at most 250 ms, at most a few, until it has been still for 250 ms,
// so that the final reading is not
// taken in mid-change. Options.AdvanceMax (5 s) bounds the whole in the
// machine's spare time (internal/spare: wall time while a processor was
// free; on a machine with none free the bound stretches, up to four
// times): a page whose clock waits for seconds on a request, or that is
// slow to run its timers, stops there. contract.Settling records how far
// the clock ran (AdvancedMS) and why it stopped (Stopped).
//
// The clock waits while the page fetches, so a timer's request and what
// its answer starts happen in order. A clock that stands still with none
// of the page's requests in flight (a page that keeps an event stream
// open, whose clock then never moves; Chromium also leaves the clock
// paused after a page's script navigates it) runs on without waiting for
// requests. A dialog that opens while the clock runs is dismissed, as one
// still showing at Observe is, and the clock goes on.
//
// Each reading is done in an isolated world (Page.createIsolatedWorld)
// that the page's own scripts cannot reach, so a page that overrides
// querySelectorAll, innerText or visibilityState cannot change what the
// judge sees. For each query it counts the visible matches, keeps the
// visible text of the first Options.MaxTexts of them, each cut to
// Options.MaxTextBytes, and answers over every match and all of its text
// whether it contains each string a dom_text clause looks for. What is
// visible is decided by js/query.js, whose header lists the rules
// (docs/contracts.md, "What the judge sees") and whose parts, one set of
// rules each, are the modules of js/query (js.go says how they reach the
// page); each string found is then
// confirmed by the renderer (paint.go): its words are seen only where
// making their ink transparent changes the pixels on the screen. The
// screenshot is of the viewport, taken only when the active page is
// visible (a page behind others renders nothing), and before the words
// are looked at, since looking may scroll the page (and then restores
// it).
//
// A request counts as in flight until the browser reports its end, or
// until the page's main frame commits another document than the one it
// was made for: the browser cancels the requests of a document it
// replaces without always saying so (an image still loading when a
// script navigates away), and waiting for those would wait out the bound
// on every such page. They stay in the log, with the status the browser
// reported, if any.
//
// Except the requests the browser may keep alive past their document: a
// beacon, and a fetch that sends (not a GET or HEAD), since the browser
// does not say which fetch asked for keepalive. Those go on to the server,
// and the network reports their answer (responseReceivedExtraInfo) on the
// page's session though the document is gone; no other end is reported.
// Settling waits for that answer, on whichever page, for at most
// keepAliveMax (10 s) after the document went, so a beacon's status is in
// the log however the server's answer and the next page race. A fetch
// that the browser cancelled after all is never answered, and is waited
// for in vain. A closed page's requests are not waited for: the browser
// reports nothing more about them. Settling also waits for the requests
// of service workers, which serve pages and belong to none.
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
