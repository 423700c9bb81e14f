package contract

// Observation is the final state of the browser as the judge captured it
// with its own CDP session. It is the only input of Evaluate besides the
// contract, and it is stored in reports so a run can be re-graded offline.
//
// Nothing in an Observation comes from the agent: the judge fills it from
// the browser.
type Observation struct {
	// URL and Title of the active page at the end of the task.
	URL   string `json:"url"`
	Title string `json:"title"`

	// Elements holds, for every selector the contract names (see
	// Selectors), what matched on the active page. A selector that matched
	// nothing is present with Count 0.
	Elements map[string]Elements `json:"elements,omitempty"`

	// Network is every request the browser made during the task, in the
	// order the requests started.
	Network []NetworkEntry `json:"network,omitempty"`

	// Dialogs lists every JavaScript dialog (alert, confirm, prompt,
	// beforeunload) that opened during the task.
	Dialogs []Dialog `json:"dialogs,omitempty"`

	// Screenshot of the active page's viewport.
	Screenshot Screenshot `json:"screenshot"`

	// Settling says how the judge reached this final state, and holds the
	// page as it was when the agent stopped. Nil in an Observation that
	// was captured at once (and in reports written before it existed).
	Settling *Settling `json:"settling,omitempty"`

	// Active says which page was observed and why, by the judge's rule.
	Active string `json:"active,omitempty"`

	// Refused lists, in order, every document outside the task's web that
	// a page of the task was asked to show (a local file, a page of the
	// browser's own), which the judge refused. An attempt with any is
	// tainted, whatever the contract says.
	Refused []Refusal `json:"refused,omitempty"`

	// Browser is the product of the browser observed, as its DevTools
	// endpoint names it ("HeadlessChrome/156.0…" for a headless shell,
	// "Chrome/156.0…" for the full browser, headless or not). Empty in
	// reports written before it existed, which were all the full browser.
	Browser string `json:"browser,omitempty"`

	// Pages holds, for every page URL a dom_text or dom_count clause
	// names (PageReads), what the judge read there in a tab of its own,
	// opened after it had observed everything above. Nothing of that tab
	// is in the fields above: it is the judge's reading of the site's
	// state, never the agent's page or the agent's requests.
	Pages map[string]PageReading `json:"pages,omitempty"`
}

// Refusal is one document outside the task's web that a page was asked
// to show.
type Refusal struct {
	URL string `json:"url"`
	// What it is: "a local file" or "a page of the browser's own".
	What string `json:"what"`
	// Call is the agent's tool call that was running then, counted from
	// 1; 0 before the first.
	Call int `json:"call"`
}

// PageReading is the judge's own reading of one page it opened after the
// agent stopped.
type PageReading struct {
	// URL and Title of the page once loaded: URL differs from the one
	// asked for when the site redirected.
	URL   string `json:"url"`
	Title string `json:"title,omitempty"`
	// Elements is what each selector the page's clauses name matched,
	// by the same rules as Observation.Elements.
	Elements map[string]Elements `json:"elements,omitempty"`
	// Busy says what was still going on when the judge read the page,
	// when it did not settle within the judge's bounds (Settling.Busy).
	Busy string `json:"busy,omitempty"`
	// Error says why the page could not be read (the navigation failed):
	// no clause on it can then be decided, and the verdict fails with
	// this as its evidence.
	Error string `json:"error,omitempty"`
}

// Settling is how the judge waited for a final state that will not change
// by itself, and the state it checked the verdict against.
//
// After the agent stops, the judge waits (within a bound) until the active
// page is quiet: no navigation or request in flight, no DOM mutation for a
// moment. It reads the page (First), then lets the page's own clock run
// ahead (its timers fire at once, its requests complete in real time)
// until nothing has changed in the page for a horizon of its time (within
// bounds), waits until it is quiet again, and reads the final state.
// Evaluate grades both: a contract that holds on one and not on the other
// is not met, because its outcome was a transient state.
type Settling struct {
	// WaitedMS is the wall time spent waiting for quiet, both times.
	WaitedMS int64 `json:"waited_ms"`
	// Quiet reports whether the page was quiet both times before the
	// bound ran out. When it was not, Busy says what was still going on.
	Quiet bool   `json:"quiet"`
	Busy  string `json:"busy,omitempty"`
	// AdvancedMS is how far the page's clock was run ahead between First
	// and the final state.
	AdvancedMS int64 `json:"advanced_ms"`
	// Stopped says why the clock stopped there: nothing changed in the
	// page for the horizon, the page still changed at the limit of the
	// page's time, or the bound of the machine's spare time (wall time
	// while a processor was free) ran out first. Empty when the clock was
	// not run (and in reports written before it existed).
	Stopped string `json:"stopped,omitempty"`
	// First is the active page when the agent stopped, once quiet.
	First *PageState `json:"first,omitempty"`
}

// PageState is one reading of the active page: what Evaluate needs of it
// besides the task-wide network log and dialogs.
type PageState struct {
	URL      string              `json:"url"`
	Title    string              `json:"title"`
	Elements map[string]Elements `json:"elements,omitempty"`
	// PHash is the screenshot's perceptual hash, when the contract has a
	// screenshot_class clause and the page was visible.
	PHash string `json:"phash,omitempty"`
	// AtMS is when the reading was taken, in milliseconds since the task
	// started: requests that started later (while the page's clock ran
	// ahead) are not part of this state.
	AtMS int64 `json:"at_ms,omitempty"`
}

// Elements is what one CSS selector matched on the active page, by the
// judge's visibility rules (docs/contracts.md, "What the judge sees"): a
// match counts only if a person could see it, and its text is the text a
// person sees in it.
type Elements struct {
	// Count is the number of visible matching elements. It is always
	// exact.
	Count int `json:"count"`
	// Hidden is the number of matches that exist in the document but are
	// not seen (not rendered, transparent, clipped away, off the page, or
	// inside a region the agent can type into). They never count.
	Hidden int `json:"hidden,omitempty"`
	// Texts holds the visible text of the visible matches, in document
	// order. The judge bounds how many texts and how many bytes of each it
	// keeps; TextsCut says when it cut anything.
	Texts []string `json:"texts,omitempty"`
	// TextsCut reports that Texts is not the whole of the visible text:
	// some matches' texts were left out or cut short. Evaluate then
	// decides dom_text only from Contains.
	TextsCut bool `json:"texts_cut,omitempty"`
	// Contains answers, for every string a dom_text clause looks for
	// (white space folded), which visible match contains it, searched over
	// every match and the whole of its text, however much of it Texts
	// keeps.
	Contains map[string]Hit `json:"contains,omitempty"`
}

// Hit is where a looked-for string was found among a selector's matches.
type Hit struct {
	// Match is the 1-based index of the first visible match whose text
	// contains the string, or 0 when none does.
	Match int `json:"match"`
	// Excerpt is the text around the first occurrence, white space
	// folded.
	Excerpt string `json:"excerpt,omitempty"`
}

// NetworkEntry is one request the browser made.
type NetworkEntry struct {
	URL    string `json:"url"`
	Method string `json:"method"`
	// Status is the HTTP status of the response, or 0 when the request
	// failed before a response arrived (see Error).
	Status int `json:"status"`
	// Error is the network error of a failed load (net::ERR_NAME_NOT_RESOLVED).
	Error string `json:"error,omitempty"`
	// ResourceType is CDP's resource type (Document, Script, XHR, Fetch...).
	ResourceType string `json:"resource_type,omitempty"`
	// Body is the request body as the browser sent it (a submitted form's
	// fields, a fetch's payload), empty for a request without one. The
	// judge keeps at most MaxBodyBytes of it; BodyTruncated says when it
	// cut.
	Body          string `json:"body,omitempty"`
	BodyTruncated bool   `json:"body_truncated,omitempty"`
	// StartMS is when the request started, in milliseconds since the task
	// started.
	StartMS int64 `json:"start_ms"`
	// AfterLastToolCall reports whether the request started after the last
	// tool call of the agent began.
	AfterLastToolCall bool `json:"after_last_tool_call"`
	// BeforeFirstToolCall reports that the request started before the
	// agent's first tool call began (or that the agent made none): the
	// start page's own load, say. Such a request is never evidence of the
	// agent's work, in any network window.
	BeforeFirstToolCall bool `json:"before_first_tool_call,omitempty"`
	// Speculative reports a request the browser made ahead of need, in
	// case a page would be visited (a prefetch, or a page prerendered that
	// the agent never went to). It is not evidence that anything was
	// visited or sent.
	Speculative bool `json:"speculative,omitempty"`
}

// MaxBodyBytes bounds the request body an Observation keeps per request.
// Contracts check forms and small payloads; a longer body is cut, and a
// body_pattern or form clause never passes on a cut body (see Network).
const MaxBodyBytes = 64 << 10

// Dialog is one JavaScript dialog.
type Dialog struct {
	// Type is alert, confirm, prompt or beforeunload.
	Type    string `json:"type"`
	Message string `json:"message"`
	URL     string `json:"url,omitempty"`
	// Open reports whether the dialog was still open when the task ended.
	Open bool `json:"open"`
}

// Screenshot identifies the viewport screenshot of the active page.
type Screenshot struct {
	// PNG holds the image bytes. Reports store it beside the JSON as a file,
	// never inline.
	PNG []byte `json:"-"`
	// PHash is the 64-bit perceptual hash of the PNG as 16 lower-case hex
	// digits (package phash), filled by the runner after capture; empty when
	// no screenshot was taken. Evaluate reads only the hash, so a stored
	// Observation can be re-graded without the image.
	PHash string `json:"phash,omitempty"`
	// File is the name of the PNG beside the report, when stored.
	File string `json:"file,omitempty"`
}
