package contract

import "fmt"

// Kind names a clause type. It is the value of the `kind` key in a contract
// document.
type Kind string

// The closed set of clause kinds. No others exist: a task that needs a new
// operator is a change to this package, reviewed as such.
const (
	KindURL             Kind = "url"
	KindDOMText         Kind = "dom_text"
	KindDOMCount        Kind = "dom_count"
	KindNetwork         Kind = "network"
	KindScreenshotClass Kind = "screenshot_class"
	KindNoDialog        Kind = "no_dialog"
	KindAnd             Kind = "and"
	KindOr              Kind = "or"
	KindNot             Kind = "not"
)

// kinds lists every Kind in the order the documentation presents them; error
// messages use it to say what is accepted.
var kinds = []Kind{
	KindURL, KindDOMText, KindDOMCount, KindNetwork, KindScreenshotClass,
	KindNoDialog, KindAnd, KindOr, KindNot,
}

// Clause is one node of a contract: a leaf that checks the Observation, or a
// combinator over other clauses. The set of implementations is closed; a
// type switch over the nine pointer types below is exhaustive.
type Clause interface {
	Kind() Kind
	isClause()
}

// Postconditions is a task's contract: every clause must hold. Its JSON form
// (MarshalJSON) is canonical, so two equal contracts always encode to the
// same bytes.
type Postconditions []Clause

// URL holds when Pattern, an RE2 regular expression, matches the final URL
// of the active page. The match is unanchored, as regexp.MatchString is:
// write ^ and $ to pin the whole URL.
type URL struct {
	Pattern string `json:"pattern"`
}

// DOMText holds when the visible text of at least one visible element
// matching Selector contains Contains, after both sides have their white
// space folded (see the package documentation). The comparison is
// case-sensitive.
type DOMText struct {
	// Selector is a CSS selector; empty means DefaultSelector.
	Selector string `json:"selector"`
	Contains string `json:"contains"`
	// Page, when set, is the absolute http(s) URL of a page the judge
	// opens itself once the agent has stopped, and reads instead of the
	// agent's active page (Observation.Pages).
	Page string `json:"page,omitempty"`
}

// defaultSelector is the selector of a dom_text clause that names none.
const defaultSelector = "body"

// DOMCount holds when the number of elements matching Selector compares to
// Value as Op says.
type DOMCount struct {
	Selector string `json:"selector"`
	Op       Op     `json:"op"`
	Value    int    `json:"value"`
	// Page is as DOMText's.
	Page string `json:"page,omitempty"`
}

// Op is the comparison of a dom_count clause or a network clause's count.
type Op string

const (
	OpEq  Op = "eq"  // count == value
	OpGTE Op = "gte" // count >= value
	OpLTE Op = "lte" // count <= value
)

// compare returns the comparison's symbol and whether n compares to value
// as op says; ok is false for an unknown op.
func (op Op) compare(n, value int) (sym string, holds, ok bool) {
	switch op {
	case OpEq:
		return "==", n == value, true
	case OpGTE:
		return ">=", n >= value, true
	case OpLTE:
		return "<=", n <= value, true
	}
	return string(op), false, false
}

// Network holds when at least one request in the Observation's network log
// (or as many as Count says) has a URL matched by URLPattern (RE2,
// unanchored), a status listed in StatusIn, the method Method when it is
// set (compared case-insensitively), a body that satisfies BodyPattern and
// Form when they are set, and started within the window Since names.
type Network struct {
	URLPattern string `json:"url_pattern"`
	StatusIn   []int  `json:"status_in"`
	Method     string `json:"method,omitempty"`
	// BodyPattern, when set, is an RE2 pattern (unanchored) the request's
	// body must match, as sent: a form body is still percent-encoded.
	BodyPattern string `json:"body_pattern,omitempty"`
	// Form, when set, names fields of a form-encoded body
	// (application/x-www-form-urlencoded) and the value each must have,
	// after decoding: the body must carry each named field exactly once,
	// with exactly that value. Fields it does not name are not checked.
	Form map[string]string `json:"form,omitempty"`
	// FormTrim names fields of Form whose sent value is compared with
	// the white space at both ends removed, as a site that trims what it
	// stores reads it; FormFoldCase names fields compared without regard
	// to case, as a site that folds their case stores them.
	FormTrim     []string `json:"form_trim,omitempty"`
	FormFoldCase []string `json:"form_fold_case,omitempty"`
	// Since is the window of requests considered; empty means
	// SinceTaskStart.
	Since Since `json:"since"`
	// Count, when set, is how many requests must match: a write the task
	// asks for once (an order, a booking, a post) made twice is two.
	// Nil means at least one.
	Count *Count `json:"count,omitempty"`
}

// Count compares a number of matching requests with Value as Op says.
type Count struct {
	Op    Op  `json:"op"`
	Value int `json:"value"`
}

// Since is the window of a network clause.
type Since string

const (
	// SinceTaskStart considers every request that started after the
	// agent's first tool call began: the start page's own load is not
	// the agent's work.
	SinceTaskStart Since = "task_start"
	// SinceLastToolCall considers only requests that started after the
	// agent's last tool call began, so the clause sees what that call
	// caused rather than what an earlier page load did.
	SinceLastToolCall Since = "last_tool_call"
)

// ScreenshotClass holds when the Hamming distance between the perceptual
// hash of the final screenshot and the class ClassID is at most
// DistanceMax (0..64, the number of bits in the hash).
type ScreenshotClass struct {
	ClassID     string `json:"class_id"`
	DistanceMax int    `json:"distance_max"`
}

// NoDialog holds when no JavaScript dialog opened during the task.
type NoDialog struct{}

// And holds when every child holds. Evaluation stops at the first child that
// does not.
type And struct {
	Children []Clause `json:"children"`
}

// Or holds when at least one child holds. Every child is evaluated, so the
// evidence of a failing Or explains each alternative.
type Or struct {
	Children []Clause `json:"children"`
}

// Not holds when Child does not.
type Not struct {
	Child Clause `json:"child"`
}

func (*URL) Kind() Kind             { return KindURL }
func (*DOMText) Kind() Kind         { return KindDOMText }
func (*DOMCount) Kind() Kind        { return KindDOMCount }
func (*Network) Kind() Kind         { return KindNetwork }
func (*ScreenshotClass) Kind() Kind { return KindScreenshotClass }
func (*NoDialog) Kind() Kind        { return KindNoDialog }
func (*And) Kind() Kind             { return KindAnd }
func (*Or) Kind() Kind              { return KindOr }
func (*Not) Kind() Kind             { return KindNot }

func (*URL) isClause()             {}
func (*DOMText) isClause()         {}
func (*DOMCount) isClause()        {}
func (*Network) isClause()         {}
func (*ScreenshotClass) isClause() {}
func (*NoDialog) isClause()        {}
func (*And) isClause()             {}
func (*Or) isClause()              {}
func (*Not) isClause()             {}

// selector returns the selector the clause checks, with the default
// applied, so hand-built clauses behave like decoded ones.
func (c *DOMText) selector() string {
	if c.Selector == "" {
		return defaultSelector
	}
	return c.Selector
}

// count returns the count with the default applied: at least one.
func (c *Network) count() Count {
	if c.Count == nil {
		return Count{Op: OpGTE, Value: 1}
	}
	return *c.Count
}

// quantity says the count for evidence: "exactly 1 request", "at least 2
// requests".
func (c Count) quantity() string {
	words := map[Op]string{OpEq: "exactly", OpGTE: "at least", OpLTE: "at most"}[c.Op]
	if words == "" {
		words = string(c.Op)
	}
	noun := "requests"
	if c.Value == 1 {
		noun = "request"
	}
	return fmt.Sprintf("%s %d %s", words, c.Value, noun)
}

// decide says whether every number of matches from lo to hi compares to
// Value as Op says (holds), and whether they all agree (decided).
func (c Count) decide(lo, hi int) (holds, decided bool) {
	_, atLo, _ := c.Op.compare(lo, c.Value)
	if lo == hi {
		return atLo, true
	}
	if c.Op == OpEq {
		// Only one number holds: with more than one possible, the count
		// is known to fail only when Value is out of reach.
		return false, c.Value < lo || c.Value > hi
	}
	_, atHi, _ := c.Op.compare(hi, c.Value)
	return atLo, atLo == atHi
}

// since returns the window with the default applied.
func (c *Network) since() Since {
	if c.Since == "" {
		return SinceTaskStart
	}
	return c.Since
}
