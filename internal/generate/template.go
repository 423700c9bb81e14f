package generate

import (
	"contractbench/internal/contract"
	"contractbench/internal/suite"
	"math/rand/v2"
)

// Kind is what a task asks of the agent.
type Kind string

// The kinds of task, as reports group them.
const (
	// KindFind: find a fact and end on the page that shows it; the
	// contract names that page and the element that owns the fact.
	KindFind Kind = "find"
	// KindNavigate: reach a page through the site's own navigation
	// (menus, filters, search, pagination).
	KindNavigate Kind = "navigate"
	// KindChangeOne: make one change (one write request).
	KindChangeOne Kind = "change-one"
	// KindChangeSeveral: make several changes, each checked.
	KindChangeSeveral Kind = "change-several"
	// KindMultiStep: search, filter or compare before acting on what was
	// found.
	KindMultiStep Kind = "multi-step"
	// KindImpossible: the task cannot be done (already shipped, taken, not
	// permitted); the right outcome is to change nothing and end on the
	// page that shows why. The contract requires that page as well as the
	// absence of any write, so doing nothing never passes.
	KindImpossible Kind = "impossible"
)

// Kinds lists every kind, in the order reports present them.
var Kinds = []Kind{KindFind, KindNavigate, KindChangeOne, KindChangeSeveral, KindMultiStep, KindImpossible}

// Widget is an interaction that breaks agents in practice. A template
// lists the widgets on its reference's required path.
type Widget string

// The widgets the applications carry.
const (
	WidgetDatePicker    Widget = "date-picker"
	WidgetAutocomplete  Widget = "autocomplete"
	WidgetDragDrop      Widget = "drag-and-drop"
	WidgetFileUpload    Widget = "file-upload"
	WidgetModal         Widget = "modal-confirm"
	WidgetToast         Widget = "toast"
	WidgetInfiniteList  Widget = "infinite-list"
	WidgetHoverMenu     Widget = "hover-menu"
	WidgetPaymentIframe Widget = "payment-iframe"
	WidgetShadowDOM     Widget = "shadow-dom"
	WidgetCookieBanner  Widget = "cookie-banner"
	WidgetNewTab        Widget = "new-tab"
)

// Widgets lists every widget.
var Widgets = []Widget{
	WidgetDatePicker, WidgetAutocomplete, WidgetDragDrop, WidgetFileUpload, WidgetModal, WidgetToast,
	WidgetInfiniteList, WidgetHoverMenu, WidgetPaymentIframe, WidgetShadowDOM, WidgetCookieBanner, WidgetNewTab,
}

// Template makes instances of one task.
type Template struct {
	// ID names the template: lower-case letters, digits and dashes,
	// starting with its application's name (mail-forward-invoice).
	ID string
	// App is the application: shop, stays, forum, mail or tracker.
	App  string
	Kind Kind
	// Widgets are those on the reference's required path.
	Widgets []Widget
	// Params names the parameters Draw fills, in order.
	Params []string
	// Summary says in one line what the template asks.
	Summary string
	// Draw makes one instance from parameters drawn with r. It must be
	// a pure function of r: no clock, no global state. Two draws with
	// equal Params must return equal instances.
	Draw func(r *rand.Rand) Instance
}

// Instance is one drawn task.
type Instance struct {
	// Params are the drawn values, by the names Template.Params lists;
	// they identify the instance among the template's others.
	Params map[string]string
	// Instruction is what the agent is asked, in a user's words. It never
	// quotes the strings a read-only task's contract looks for.
	Instruction string
	StartURL    string
	Contract    contract.Postconditions
	Reference   []suite.Step
	Controls    []Control
	// Alternates are other reasonable ways to the asked outcome, which
	// must pass as the reference does.
	Alternates []Alternate
	// Rationale says what each clause pins and why.
	Rationale string
}

// Control is a near miss of an instance: the same instruction and
// contract, a reference that goes wrong in one named way, and the clause
// meant to catch it.
type Control struct {
	// Name is how it misses: wrong-item, twice, side-effect,
	// one-step-short, or another short name.
	Name      string
	Reference []suite.Step
	// FailsOn is the index, in the instance's Contract, of the clause
	// that must fail; other clauses may fail too.
	FailsOn int
}

// Alternate is another way to an instance's asked outcome: the same
// instruction and contract, a reference that reaches the outcome by
// another reasonable route (reload and check, look at the result
// elsewhere, another control of the site, independent steps in another
// order, a value the site trims). Every clause must hold.
type Alternate struct {
	// Name says how it differs: reload-and-check, check-in-list,
	// other-control, other-order, trimmed-value, or another short name.
	Name      string
	Reference []suite.Step
}
