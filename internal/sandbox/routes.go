package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
)

// A Route is one page or form of an application, named in one place: the
// application's server registers its handler from it, and the generated
// tasks build their URLs, URL patterns and form fields from it. A route
// the server serves is in its application's table (Shop, Stays, Forum,
// Mail, Tracker, Pay) and nowhere else, so a route added later is named
// here first, and a task's write count (every accepted write to the host)
// forbids it without naming it.
type Route struct {
	Host   string
	Method string // http.MethodGet or http.MethodPost
	// Path is the path as http.ServeMux reads it, with the record it is
	// about (if any) as a parameter in braces: "/orders/{id}/cancel". The
	// root alone is "/{$}".
	Path string
	// Fields are what the route reads: a post's form fields, a page's
	// query parameters.
	Fields []string
	// Writes is whether the route changes the application's state: a form
	// post answered 303 when it is accepted, which a task's write count
	// counts. A post that changes nothing a task is about (the consent
	// banner's answer, an upload) answers otherwise and does not write.
	Writes bool
}

// host names the application a route table is about, and makes its
// routes.
type host string

// page is a page the host serves by GET, reading query.
func (h host) page(path string, query ...string) Route {
	return Route{Host: string(h), Method: http.MethodGet, Path: path, Fields: query}
}

// write is a form post that changes the host's state.
func (h host) write(path string, fields ...string) Route {
	return Route{Host: string(h), Method: http.MethodPost, Path: path, Fields: fields, Writes: true}
}

// post is a post that changes nothing a task is about.
func (h host) post(path string, fields ...string) Route {
	return Route{Host: string(h), Method: http.MethodPost, Path: path, Fields: fields}
}

// Shop is the shop's route table.
var Shop = shopRoutes{
	Home:         shopAt.page("/{$}"),
	Search:       shopAt.page("/search", "q", "category", "sort", "in_stock", "min_rating", "max_price"),
	Product:      shopAt.page("/product/{sku}"),
	Cart:         shopAt.page("/cart"),
	CheckoutPage: shopAt.page("/checkout"),
	Orders:       shopAt.page("/orders"),
	Order:        shopAt.page("/orders/{id}", "placed"),
	Account:      shopAt.page("/account", "saved"),
	GiftCards:    shopAt.page("/gift-cards"),
	GiftPay:      shopAt.page("/gift-cards/pay", "amount", "to_name", "to_email", "message"),
	CartAdd:      shopAt.write("/cart/add", "sku", "qty"),
	CartRemove:   shopAt.write("/cart/remove", "sku"),
	Checkout:     shopAt.write("/checkout", "line", "note"),
	Cancel:       shopAt.write("/orders/{id}/cancel", "reason"),
	SaveAccount:  shopAt.write("/account", "name", "street", "city", "postcode", "newsletter"),
	GiftOrder:    shopAt.write("/gift-cards/order", "amount", "to_name", "to_email", "message", "token"),
}

const shopAt host = ShopHost

// shopRoutes are the shop's pages and forms.
type shopRoutes struct {
	Home, Search, Product, Cart, CheckoutPage, Orders, Order, Account, GiftCards, GiftPay Route
	CartAdd, CartRemove, Checkout, Cancel, SaveAccount, GiftOrder                         Route
}

// Routes returns every route of the table.
func (t *shopRoutes) Routes() []*Route { return routesOf(t) }

// Pay is the payment provider's route table: the card form the shop
// embeds.
var Pay = payRoutes{
	Card:   payAt.page("/card", "amount", "ref", "merchant"),
	Done:   payAt.page("/card/done", "amount", "ref", "merchant", "token"),
	Charge: payAt.write("/charge", "amount", "ref", "merchant", "number", "expiry", "cvc", "name"),
}

const payAt host = PayHost

// payRoutes are the payment provider's pages and forms.
type payRoutes struct {
	Card, Done Route
	Charge     Route
}

// Routes returns every route of the table.
func (t *payRoutes) Routes() []*Route { return routesOf(t) }

// Stays is the booking site's route table.
var Stays = staysRoutes{
	Home:     staysAt.page("/{$}"),
	City:     staysAt.page("/city/{city}", "guests"),
	Stay:     staysAt.page("/stay/{id}"),
	BookForm: staysAt.page("/stay/{id}/book", "date"),
	Bookings: staysAt.page("/bookings"),
	Booking:  staysAt.page("/bookings/{id}", confirmedParam),
	Book:     staysAt.write("/bookings", "stay", "date", "nights", "guests", "name", "request"),
	Cancel:   staysAt.write("/bookings/{id}/cancel", "reason"),
}

const staysAt host = StaysHost

// staysRoutes are the booking site's pages and forms.
type staysRoutes struct {
	Home, City, Stay, BookForm, Bookings, Booking Route
	Book, Cancel                                  Route
}

// Routes returns every route of the table.
func (t *staysRoutes) Routes() []*Route { return routesOf(t) }

// Forum is the forum's route table.
var Forum = forumRoutes{
	Home:          forumAt.page("/{$}"),
	Board:         forumAt.page("/b/{board}"),
	NewThreadPage: forumAt.page("/b/{board}/new"),
	Thread:        forumAt.page("/t/{id}", "page", "posted", "draft"),
	Settings:      forumAt.page("/settings", "saved"),
	Messages:      forumAt.page("/messages", "deleted"),
	Compose:       forumAt.page("/messages/new", "to", "subject"),
	Message:       forumAt.page("/messages/{id}", "sent"),
	Members:       forumAt.page("/members"),
	Profile:       forumAt.page("/u/{name}"),
	NewThread:     forumAt.write("/b/{board}/threads", "title", "body"),
	Reply:         forumAt.write("/t/{id}/reply", "body", "action"),
	SaveSettings:  forumAt.write("/settings", "signature"),
	Send:          forumAt.write("/messages", "to", "subject", "body"),
	DeleteMessage: forumAt.write("/messages/{id}/delete"),
}

const forumAt host = ForumHost

// forumRoutes are the forum's pages and forms.
type forumRoutes struct {
	Home, Board, NewThreadPage, Thread, Settings, Messages, Compose, Message, Members, Profile Route
	NewThread, Reply, SaveSettings, Send, DeleteMessage                                        Route
}

// Routes returns every route of the table.
func (t *forumRoutes) Routes() []*Route { return routesOf(t) }

// Mail is the webmail's route table.
var Mail = mailRoutes{
	Inbox:       mailAt.page("/{$}", append(slices.Clone(mailListQuery), "emptied")...),
	Folder:      mailAt.page("/folder/{name}", append(slices.Clone(mailListQuery), "emptied")...),
	Label:       mailAt.page("/label/{slug}", mailListQuery...),
	Search:      mailAt.page("/search", append(slices.Clone(mailListQuery), "q")...),
	Message:     mailAt.page("/m/{id}", "undo", "starred", "labelled", "unlabelled", "moved", "undone", "draft"),
	Compose:     mailAt.page("/compose", "reply", "forward", "draft"),
	Labels:      mailAt.page("/labels", "created", "deleted"),
	Archive:     mailAt.write("/m/{id}/archive"),
	Delete:      mailAt.write("/m/{id}/delete"),
	Star:        mailAt.write("/m/{id}/star"),
	SetLabel:    mailAt.write("/m/{id}/labels", "label", "action"),
	Move:        mailAt.write("/m/{id}/move", "folder"),
	Undo:        mailAt.write("/undo", "token"),
	Send:        mailAt.write("/send", "to", "subject", "body", "action", "forward", "draft", "reply_to", "attachment"),
	NewLabel:    mailAt.write("/labels", "name"),
	DeleteLabel: mailAt.write("/labels/{slug}/delete"),
	EmptyTrash:  mailAt.write("/trash/empty"),
	Attach:      mailAt.post("/attachments", "file"),
	Consent:     mailAt.post("/consent", "choice"),
}

const mailAt host = MailHost

// mailListQuery is what every list of messages reads: its paging, and the
// notice of an action that can be undone.
var mailListQuery = []string{"offset", "partial", "undo"}

// mailRoutes are the webmail's pages and forms.
type mailRoutes struct {
	Inbox, Folder, Label, Search, Message, Compose, Labels                               Route
	Archive, Delete, Star, SetLabel, Move, Undo, Send, NewLabel, DeleteLabel, EmptyTrash Route
	Attach, Consent                                                                      Route
}

// Routes returns every route of the table.
func (t *mailRoutes) Routes() []*Route { return routesOf(t) }

// Tracker is the issue tracker's route table.
var Tracker = trackerRoutes{
	Home:          trackerAt.page("/{$}"),
	Issues:        trackerAt.page("/issues", "project", "status", "assignee", "label", "priority", "q", "sort", "page", "deleted"),
	Issue:         trackerAt.page("/issues/{key}", "assigned", "due", "priority", "moved", "label", "labelled", "comment", "commented", "watching", "copied"),
	Board:         trackerAt.page("/projects/{key}/board", "moved", "to"),
	Doc:           trackerAt.page("/docs/{key}"),
	Assign:        trackerAt.write("/issues/{key}/assignee", "assignee"),
	SetDue:        trackerAt.write("/issues/{key}/due", "due"),
	SetPriority:   trackerAt.write("/issues/{key}/priority", "priority"),
	SetLabels:     trackerAt.write("/issues/{key}/labels", "label", "action"),
	Comment:       trackerAt.write("/issues/{key}/comments", "body"),
	Move:          trackerAt.write("/issues/{key}/move", "status", "from"),
	Watch:         trackerAt.write("/issues/{key}/watch"),
	Duplicate:     trackerAt.write("/issues/{key}/duplicate"),
	DeleteIssue:   trackerAt.write("/issues/{key}/delete"),
	DeleteComment: trackerAt.write("/comments/{id}/delete"),
}

const trackerAt host = TrackerHost

// trackerRoutes are the issue tracker's pages and forms.
type trackerRoutes struct {
	Home, Issues, Issue, Board, Doc                                                                     Route
	Assign, SetDue, SetPriority, SetLabels, Comment, Move, Watch, Duplicate, DeleteIssue, DeleteComment Route
}

// Routes returns every route of the table.
func (t *trackerRoutes) Routes() []*Route { return routesOf(t) }

// table is one application's route table.
type table interface {
	// Routes returns the table's routes, in the order of its fields.
	Routes() []*Route
}

// routesOf returns the Route fields of table, a pointer to a route table
// struct, in their order.
func routesOf(table any) []*Route {
	v := reflect.ValueOf(table).Elem()
	var out []*Route
	for i := range v.NumField() {
		if r, ok := v.Field(i).Addr().Interface().(*Route); ok {
			out = append(out, r)
		}
	}
	return out
}

// Href is the route's path with args in place of its parameters, in
// order: the href of a link to it. It panics when the number of args is
// not the number of the route's parameters.
func (r Route) Href(args ...string) string {
	var b strings.Builder
	rest, n := strings.TrimSuffix(r.Path, "{$}"), 0
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if n == len(args) {
			panic(fmt.Sprintf("sandbox: %s needs more than %d argument(s)", r, n))
		}
		b.WriteString(rest[:i])
		b.WriteString(args[n])
		rest, n = rest[i+j+1:], n+1
	}
	if n != len(args) {
		panic(fmt.Sprintf("sandbox: %s takes %d argument(s), not %d", r, n, len(args)))
	}
	b.WriteString(rest)
	return b.String()
}

// URL is the route's URL on its host, with args in place of its
// parameters (see Href).
func (r Route) URL(args ...string) string {
	return strings.TrimSuffix(Base(r.Host), "/") + r.Href(args...)
}

// Base is the URL of the root of host, the application's: every URL of
// its routes begins with it.
func Base(host string) string { return "https://" + host + "/" }

// Query is URL(args...) with the query q, which may only hold fields the
// route reads; it panics otherwise.
func (r Route) Query(q url.Values, args ...string) string {
	for k := range q {
		r.field(k)
	}
	return r.URL(args...) + "?" + q.Encode()
}

// Field returns name, after checking that the route reads it: a form
// field of a post, a query parameter of a page. It panics otherwise.
func (r Route) Field(name string) string {
	r.field(name)
	return name
}

func (r Route) field(name string) {
	if !slices.Contains(r.Fields, name) {
		panic(fmt.Sprintf("sandbox: %s reads no field %q (it reads %v)", r, name, r.Fields))
	}
}

// Form returns form, after checking that the route reads each of its
// fields; it panics otherwise.
func (r Route) Form(form map[string]string) map[string]string {
	for k := range form {
		r.field(k)
	}
	return form
}

// String is the route as http.ServeMux registers it, with its host:
// "POST shop.sandbox.test/orders/{id}/cancel".
func (r Route) String() string { return r.Method + " " + r.Host + r.Path }
