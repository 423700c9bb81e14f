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
}

// Elements is what one CSS selector matched on the active page.
type Elements struct {
	// Count is the number of matching elements.
	Count int `json:"count"`
	// Texts holds the innerText of each match, in document order. The
	// judge may bound how many texts and how many bytes per text it keeps;
	// Count is always exact.
	Texts []string `json:"texts,omitempty"`
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
	// StartMS is when the request started, in milliseconds since the task
	// started.
	StartMS int64 `json:"start_ms"`
	// AfterLastToolCall reports whether the request started after the last
	// tool call of the agent began.
	AfterLastToolCall bool `json:"after_last_tool_call"`
}

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
