package judge

import (
	"context"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"contractbench/internal/contract"
)

// The browser of a task shows only the task's web. A local file (file:,
// and view-source: or filesystem: of one, a download opened from disk)
// would hand the agent this machine's files, the suite's answers among
// them; a page of the browser's own (chrome:, devtools:) shows its command
// line and settings. Pages cannot reach either (Chromium refuses them to
// web content), so only a tool server can ask, and whatever the server
// allows, the judge refuses: it fails every request for a local file before
// a byte is read (Fetch, on every page from its start), stops every
// navigation to another scheme as it starts, and blanks a page that
// showed one anyway. Each attempt is recorded (contract.Refusal), and the
// runner reports the attempt tainted.

// webSchemes are the schemes of the documents a task's pages may show:
// the web, the pages a page makes itself (data:, blob:, about:blank and
// srcdoc) and the browser's error page for a load that failed.
var webSchemes = map[string]bool{
	"http": true, "https": true, "about": true, "data": true, "blob": true, "chrome-error": true,
}

// localPatterns are the URLs the judge's Fetch interception fails: every
// way of loading a file of this machine. view-source: of a file loads the
// file: URL, and is caught by it.
var localPatterns = []*fetch.RequestPattern{{URLPattern: "file:*"}, {URLPattern: "filesystem:*"}}

// offWeb says what a document URL is when it is not the task's web: "a
// local file" or "a page of the browser's own"; "" for the web.
func offWeb(u string) string {
	scheme, rest, ok := strings.Cut(u, ":")
	if !ok {
		return ""
	}
	scheme = strings.ToLower(scheme)
	if scheme == "view-source" {
		return offWeb(rest)
	}
	if webSchemes[scheme] {
		return ""
	}
	if scheme == "file" || scheme == "filesystem" {
		return "a local file"
	}
	return "a page of the browser's own"
}

// refuse records an attempt to show url, of kind what, on page p, unless
// it is the one recorded last (a refused navigation is seen both as it
// starts and as its request). Called with j.mu held.
func (j *Judge) refuse(u, what string) {
	r := contract.Refusal{URL: u, What: what, Call: j.rec.calls}
	if n := len(j.refused); n > 0 && j.refused[n-1] == r {
		return
	}
	j.refused = append(j.refused, r)
}

// onRequestPaused fails a page's request for a local file: the only
// requests the judge intercepts (localPatterns).
func (j *Judge) onRequestPaused(_ time.Time, session target.SessionID, ev *fetch.EventRequestPaused) {
	if j.sessions[session] == nil || ev.Request == nil {
		return
	}
	j.refuse(ev.Request.URL, "a local file")
	j.send(session, fetch.FailRequest.Method, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAccessDenied})
}

// onNavigationStarted stops a navigation of one of a page's frames to a
// document that is not the task's web, before it commits.
func (j *Judge) onNavigationStarted(_ time.Time, session target.SessionID, ev *page.EventFrameStartedNavigating) {
	if j.sessions[session] == nil {
		return
	}
	if what := offWeb(ev.URL); what != "" {
		j.refuse(ev.URL, what)
		j.send(session, page.StopLoading.Method, cdp.Empty{})
	}
}

// blankIfOffWeb replaces a document that is not the task's web, which a
// frame of a page committed though its navigation was stopped as it
// started (a browser's page can commit before the stop arrives, and a tab
// opened at its URL starts before the judge follows it), by a blank one;
// an empty frame ID is the page's main frame. Called with j.mu held.
func (j *Judge) blankIfOffWeb(session target.SessionID, frame *cdp.Frame) {
	what := offWeb(frame.URL)
	if what == "" {
		return
	}
	j.refuse(frame.URL, what)
	j.send(session, page.Navigate.Method, page.NavigateParams{URL: "about:blank", FrameID: frame.ID})
}

// send sends a command the judge does not wait on, from an event handler,
// which must not call.
func (j *Judge) send(session target.SessionID, method string, params any) {
	j.preparing.Add(1)
	go func() {
		defer j.preparing.Done()
		ctx, cancel := context.WithTimeout(j.bg, setupTimeout)
		defer cancel()
		_ = j.conn.Call(ctx, session, method, params, nil)
	}()
}
