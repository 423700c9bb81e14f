package judge

import (
	"cmp"
	"fmt"
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
	// calls counts the tool calls marked so far.
	calls int

	// inflight holds the requests that have started and neither finished
	// nor failed, and lastActivity when a request last started or ended:
	// what settling waits on.
	inflight     map[network.RequestID]*request
	lastActivity time.Time
	// now is the clock that bounds the wait for requests that outlive
	// their document: settling compares with it.
	now func() time.Time

	requests []*request // in arrival order
	// current maps a request id to its latest hop: a redirect reuses the
	// id, and each hop is its own entry.
	current map[network.RequestID]*request
	// early holds the statuses the network reported for requests whose
	// start the browser had not reported yet: the two come by separate
	// ways, in no set order.
	early map[network.RequestID]int

	// activated holds the pages that Chromium prerendered and the agent
	// then went to: their requests, speculative when made, are the
	// agent's page's own.
	activated map[target.ID]bool

	dialogs []*dialog
	// openDialog maps a session to its dialog that is showing; a page
	// shows at most one at a time.
	openDialog map[target.SessionID]*dialog

	// own holds the pages the judge opened itself to read a contract's
	// pages (readPages): their requests are recorded, so that settling
	// waits for them, and never reported.
	own map[target.ID]bool
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
	// worker is the service worker that made the request, for a request
	// a service worker's session reported.
	worker target.ID
	// byWorker, when set, says how the page's service worker answered
	// the request: no server answered it.
	byWorker string
	// rawStatus is the status of the response as it came off the
	// network (Network.responseReceivedExtraInfo), which the network
	// reports even when the page that made the request is gone.
	rawStatus int
	// keptUntil, when set, is how long settling waits for a request
	// that may outlive the document that made it (see documentReplaced).
	keptUntil time.Time
}

// keepAliveMax bounds how long settling waits, after a document is
// replaced, for the answer to a request of it that the browser may keep
// alive (a beacon, a keepalive fetch). Like DefaultLoadMax, it is long
// enough that a busy machine does not change what is seen.
const keepAliveMax = 10 * time.Second

// mayOutlive reports whether a request still waiting for its answer when
// its document goes may be one the browser keeps alive. Beacons (Ping)
// always are. A fetch is when the page asked for keepalive, which the
// browser does not report; keepalive is for sending (nobody is left to
// read the answer), so a fetch that sends (not a GET or HEAD) may be
// one. A GET cancelled with its page (a search suggestion, a poll) is
// common, and waiting for each would cost its task the whole bound.
// Other requests die with their document.
func mayOutlive(req *request) bool {
	switch network.ResourceType(req.entry.ResourceType) {
	case network.ResourceTypePing:
	case network.ResourceTypeFetch:
		if m := strings.ToUpper(req.entry.Method); m == "GET" || m == "HEAD" {
			return false
		}
	default:
		return false
	}
	return req.entry.Status == 0 && req.entry.Error == "" && req.rawStatus == 0 && req.byWorker == ""
}

// answeredByWorker describes the answer a service worker gave a page in
// place of the server's.
func answeredByWorker(resp *network.Response) string {
	how := "made up by the worker"
	switch resp.ServiceWorkerResponseSource {
	case network.ServiceWorkerResponseSourceNetwork:
		how = "from a request of the worker's own, logged as such"
	case network.ServiceWorkerResponseSourceCacheStorage:
		how = "from the worker's cache"
	case network.ServiceWorkerResponseSourceHTTPCache:
		how = "from the HTTP cache"
	}
	return fmt.Sprintf("answered by the service worker, not the server (%d, %s)", resp.Status, how)
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
		early:      make(map[network.RequestID]int),
		inflight:   make(map[network.RequestID]*request),
		now:        time.Now,
		activated:  make(map[target.ID]bool),
		openDialog: make(map[target.SessionID]*dialog),
		own:        make(map[target.ID]bool),
	}
}

func (r *recorder) mark(now time.Time) {
	if !r.marked {
		r.firstMark = now
	}
	r.lastMark, r.marked = now, true
	r.calls++
}

// busy reports the requests still in flight (never those of a lasting
// kind) that settling on page waits for: page's own, those of service
// workers, and those that outlived their document on any page, within
// keepAliveMax of its going. It also says when the network of any page
// last changed.
func (r *recorder) busy(page target.ID) (pending []string, last time.Time) {
	now := r.now()
	for _, req := range r.inflight {
		if lasting[network.ResourceType(req.entry.ResourceType)] {
			continue
		}
		switch {
		case !req.keptUntil.IsZero():
			if now.After(req.keptUntil) {
				continue
			}
		case req.worker != "":
		case req.page != page:
			continue
		}
		pending = append(pending, req.entry.Method+" "+req.entry.URL)
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
//
// A request the browser may keep alive past its document (mayOutlive) is
// still waited for, within keepAliveMax: it goes on to the server, and
// the network reports its answer (responseExtraInfo) though the document
// is gone. One the browser cancelled after all is never answered, and is
// waited for in vain.
func (r *recorder) documentReplaced(now time.Time, page target.ID, loader cdp.LoaderID) {
	for _, req := range r.inflight {
		if req.page == page && req.loader != loader && req.keptUntil.IsZero() && mayOutlive(req) {
			req.keptUntil = now.Add(keepAliveMax)
		}
	}
	r.drop(now, page, func(req *request) bool { return req.loader != loader && req.keptUntil.IsZero() })
}

// targetGone stops waiting for the requests of a page or service worker
// that closed: nothing more is reported about them.
func (r *recorder) targetGone(now time.Time, id target.ID) {
	for rid, req := range r.inflight {
		if req.page == id || req.worker == id {
			delete(r.inflight, rid)
			r.lastActivity = now
		}
	}
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
		if ev.RedirectResponse.FromServiceWorker {
			prev.byWorker = answeredByWorker(ev.RedirectResponse)
		}
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
	if status, ok := r.early[ev.RequestID]; ok && prev == nil {
		req.rawStatus = status
	}
	delete(r.early, ev.RequestID)
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

// requestByWorker records a request that service worker made: one of its
// own, or the one it sent the server for a page's request.
func (r *recorder) requestByWorker(now time.Time, worker target.ID, ev *network.EventRequestWillBeSent) {
	r.requestWillBeSent(now, "", ev)
	if req := r.current[ev.RequestID]; req != nil && req.sent == ev.Timestamp {
		req.worker = worker
	}
}

func (r *recorder) responseReceived(ev *network.EventResponseReceived) {
	req := r.current[ev.RequestID]
	if req == nil || ev.Response == nil {
		return
	}
	req.entry.Status = int(ev.Response.Status)
	if ev.Response.FromServiceWorker {
		req.byWorker = answeredByWorker(ev.Response)
	}
	if req.entry.ResourceType == "" {
		req.entry.ResourceType = string(ev.Type)
	}
}

// responseExtraInfo records the status of a response as it came off the
// network. It is the only word of the answer to a request that outlived
// its document, and ends the wait for it. A redirect's status is left to
// the next hop's start, which says which hop it ended.
func (r *recorder) responseExtraInfo(now time.Time, ev *network.EventResponseReceivedExtraInfo) {
	status := int(ev.StatusCode)
	if status < 200 || status >= 300 && status < 400 {
		return
	}
	req := r.current[ev.RequestID]
	if req == nil {
		r.early[ev.RequestID] = status
		return
	}
	req.rawStatus = status
	if !req.keptUntil.IsZero() {
		r.finished(now, ev.RequestID)
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
//
// The requests of the judge's own pages (own) are never in the log.
func (r *recorder) network(visited func(target.ID) bool) []contract.NetworkEntry {
	out := make([]contract.NetworkEntry, 0, len(r.requests))
	for _, req := range r.requests {
		if r.own[req.page] {
			continue
		}
		i := len(out)
		out = append(out, req.entry)
		switch {
		case req.byWorker != "":
			// What the page got is not the server's answer; the
			// worker's own request, if it made one, is in the log.
			out[i].Status, out[i].Error = 0, req.byWorker
		case out[i].Status == 0 && out[i].Error == "":
			// The page never saw the answer (it was gone), the
			// network did.
			out[i].Status = req.rawStatus
		}
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
