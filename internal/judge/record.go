package judge

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"contractbench/internal/contract"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// recorder turns network and dialog events into the Observation's log. It
// is not safe for concurrent use; the Judge guards it.
//
// Times are when the event reached the judge, read from the judge's clock,
// so they share a clock with MarkToolCall. On loopback an event arrives well
// under a millisecond after the browser sent it.
type recorder struct {
	start time.Time

	// firstMark and lastMark are when the first and the latest tool call
	// began; marked is false until the first one.
	firstMark, lastMark time.Time
	marked              bool

	// inflight holds the requests that have started and neither finished
	// nor failed, and lastActivity when a request last started or ended:
	// what settling waits on.
	inflight     map[network.RequestID]*request
	lastActivity time.Time

	requests []*request // in arrival order
	// current maps a request id to its latest hop: a redirect reuses the
	// id, and each hop is its own entry.
	current map[network.RequestID]*request

	// activated holds the pages that Chromium prerendered and the agent
	// then went to: their requests, speculative when made, are the
	// agent's page's own.
	activated map[target.ID]bool

	dialogs []*dialog
	// openDialog maps a session to its dialog that is showing; a page
	// shows at most one at a time.
	openDialog map[target.SessionID]*dialog
}

type request struct {
	entry contract.NetworkEntry
	at    time.Time
	// sent is the browser's timestamp of the event that started this hop.
	sent cdp.MonotonicTime
	// page is the page target whose session (or frame or worker session)
	// reported the request; empty in tests of the recorder alone.
	page target.ID
	// loader is the document loader the request was made for.
	loader cdp.LoaderID
	// ahead reports a request the browser made ahead of need, in case a
	// page is visited: a prefetch (resource type Prefetch, or a
	// Sec-Purpose header that says prefetch) or a prerender.
	ahead bool
}

// fetchedAhead reports whether a request is a speculative one: Chromium
// marks them with the Prefetch resource type or the Sec-Purpose header
// ("prefetch", "prefetch;prerender").
func fetchedAhead(ev *network.EventRequestWillBeSent) bool {
	if ev.Type == network.ResourceTypePrefetch {
		return true
	}
	for k, v := range ev.Request.Headers {
		if strings.EqualFold(k, "Sec-Purpose") || strings.EqualFold(k, "Purpose") {
			if s, ok := v.(string); ok && strings.Contains(strings.ToLower(s), "prefetch") {
				return true
			}
		}
	}
	return false
}

// lasting lists the resource types whose requests stay open for as long
// as the page wants them (a socket, an event stream, a media stream):
// settling never waits for them.
var lasting = map[network.ResourceType]bool{
	network.ResourceTypeWebSocket:   true,
	network.ResourceTypeEventSource: true,
	network.ResourceTypeMedia:       true,
}

type dialog struct {
	d       contract.Dialog
	session target.SessionID
	// dismissedByJudge is set when Observe closed the dialog: it was still
	// open when the task ended, and stays reported so.
	dismissedByJudge bool
}

func newRecorder(start time.Time) *recorder {
	return &recorder{
		start:      start,
		current:    make(map[network.RequestID]*request),
		inflight:   make(map[network.RequestID]*request),
		activated:  make(map[target.ID]bool),
		openDialog: make(map[target.SessionID]*dialog),
	}
}

func (r *recorder) mark(now time.Time) {
	if !r.marked {
		r.firstMark = now
	}
	r.lastMark, r.marked = now, true
}

// busy reports the requests of page still in flight (never those of a
// lasting kind), and when the network of any page last changed.
func (r *recorder) busy(page target.ID) (pending []string, last time.Time) {
	for _, req := range r.inflight {
		if req.page == page && !lasting[network.ResourceType(req.entry.ResourceType)] {
			pending = append(pending, req.entry.Method+" "+req.entry.URL)
		}
	}
	slices.Sort(pending)
	return pending, r.lastActivity
}

// documentLoaded ends the in-flight document requests of page, whose main
// frame stopped loading: a navigation that was replaced or cancelled does
// not always report its end, and would keep the page busy for ever.
func (r *recorder) documentLoaded(now time.Time, page target.ID) {
	r.drop(now, page, func(req *request) bool {
		return req.entry.ResourceType == string(network.ResourceTypeDocument)
	})
}

// documentReplaced stops waiting for the requests of page made for other
// documents than its main frame's new one, loader: the document that made
// them is gone with its frames, and the browser does not always report the
// end of what it cancelled with them (an image still loading when a script
// navigates away stays "in flight" for ever).
func (r *recorder) documentReplaced(now time.Time, page target.ID, loader cdp.LoaderID) {
	r.drop(now, page, func(req *request) bool { return req.loader != loader })
}

// drop stops waiting for the in-flight requests of page that over says
// the browser will not end. They stay in the log as the browser last
// reported them; an end reported later is still recorded.
func (r *recorder) drop(now time.Time, page target.ID, over func(*request) bool) {
	for id, req := range r.inflight {
		if req.page == page && over(req) {
			delete(r.inflight, id)
			r.lastActivity = now
		}
	}
}

func (r *recorder) finished(now time.Time, id network.RequestID) {
	if _, ok := r.inflight[id]; ok {
		delete(r.inflight, id)
		r.lastActivity = now
	}
}

func (r *recorder) requestWillBeSent(now time.Time, page target.ID, ev *network.EventRequestWillBeSent) {
	if ev.Request == nil {
		return
	}
	prev := r.current[ev.RequestID]
	if prev != nil && prev.sent == ev.Timestamp {
		// The same event again, from the session of a frame or worker as
		// well as from its page's: the browser's timestamp tells.
		return
	}
	if prev != nil && ev.RedirectResponse != nil {
		// The hop that just ended answered with a redirect.
		prev.entry.Status = int(ev.RedirectResponse.Status)
	}
	req := &request{
		entry: contract.NetworkEntry{
			URL:          ev.Request.URL,
			Method:       ev.Request.Method,
			ResourceType: string(ev.Type),
			StartMS:      now.Sub(r.start).Milliseconds(),
		},
		at:     now,
		sent:   ev.Timestamp,
		page:   page,
		loader: ev.LoaderID,
		ahead:  fetchedAhead(ev),
	}
	req.entry.Body, req.entry.BodyTruncated = postBody(ev.Request)
	r.requests = append(r.requests, req)
	r.current[ev.RequestID] = req
	r.inflight[ev.RequestID] = req
	r.lastActivity = now
}

// maxPostDataSize is the longest request body the browser puts in its
// events to the judge (Network.enable's maxPostDataSize).
const maxPostDataSize int64 = contract.MaxBodyBytes

// postBody returns the body of a request as the browser sent it, cut at
// contract.MaxBodyBytes. The browser puts the body in the event when it is
// no longer than the judge's Network.enable asked for (maxPostDataSize);
// a longer one has hasPostData set and no entries, and is reported cut.
func postBody(req *network.Request) (string, bool) {
	var b []byte
	for _, e := range req.PostDataEntries {
		b = append(b, e.Bytes...)
	}
	if len(b) == 0 {
		return "", req.HasPostData
	}
	if len(b) > contract.MaxBodyBytes {
		return string(b[:contract.MaxBodyBytes]), true
	}
	return string(b), false
}

func (r *recorder) responseReceived(ev *network.EventResponseReceived) {
	req := r.current[ev.RequestID]
	if req == nil || ev.Response == nil {
		return
	}
	req.entry.Status = int(ev.Response.Status)
	if req.entry.ResourceType == "" {
		req.entry.ResourceType = string(ev.Type)
	}
}

func (r *recorder) loadingFailed(now time.Time, ev *network.EventLoadingFailed) {
	r.finished(now, ev.RequestID)
	req := r.current[ev.RequestID]
	if req == nil {
		return
	}
	req.entry.Error = ev.ErrorText
	if ev.BlockedReason != "" {
		req.entry.Error += " (blocked: " + string(ev.BlockedReason) + ")"
	}
}

func (r *recorder) dialogOpening(session target.SessionID, ev *page.EventJavascriptDialogOpening) {
	d := &dialog{
		d: contract.Dialog{
			Type:    string(ev.Type),
			Message: ev.Message,
			URL:     ev.URL,
			Open:    true,
		},
		session: session,
	}
	r.dialogs = append(r.dialogs, d)
	r.openDialog[session] = d
}

func (r *recorder) dialogClosed(session target.SessionID) {
	d := r.openDialog[session]
	if d == nil {
		return
	}
	delete(r.openDialog, session)
	if !d.dismissedByJudge {
		d.d.Open = false
	}
}

// sessionGone forgets the open dialog of a session that ended: a page that
// closed with a dialog showing no longer shows it.
func (r *recorder) sessionGone(session target.SessionID) {
	if d := r.openDialog[session]; d != nil {
		d.d.Open = false
		delete(r.openDialog, session)
	}
}

// network returns the log sorted by start time; entries that started in the
// same millisecond keep the order in which they arrived.
//
// visited says whether the agent went to a page: false for a page Chromium
// prerendered that was never activated. Its requests, and speculative ones
// of a page not visited, are marked Speculative. nil means every page.
func (r *recorder) network(visited func(target.ID) bool) []contract.NetworkEntry {
	out := make([]contract.NetworkEntry, len(r.requests))
	for i, req := range r.requests {
		out[i] = req.entry
		out[i].AfterLastToolCall = r.marked && !req.at.Before(r.lastMark)
		out[i].BeforeFirstToolCall = !r.marked || req.at.Before(r.firstMark)
		went := visited == nil || visited(req.page)
		out[i].Speculative = !went || (req.ahead && !r.activated[req.page])
	}
	slices.SortStableFunc(out, func(a, b contract.NetworkEntry) int {
		return cmp.Compare(a.StartMS, b.StartMS)
	})
	return out
}

func (r *recorder) dialogList() []contract.Dialog {
	out := make([]contract.Dialog, len(r.dialogs))
	for i, d := range r.dialogs {
		out[i] = d.d
	}
	return out
}
