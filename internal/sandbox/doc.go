// Package sandbox serves the interactive sites of the sandbox suite and of
// the generated tasks (internal/generate): a shop (shop.sandbox.test) that
// takes card payments in an iframe of a payment provider
// (pay.sandbox.test), a booking site (stays.sandbox.test), a forum with
// private messages (forum.sandbox.test), a webmail client
// (mail.sandbox.test) and an issue tracker with boards
// (tracker.sandbox.test). They exist only in this repository, so tasks
// that change things (place an order, book a stay, post a reply, send a
// mail, move an issue) can be run and judged offline, over and over.
//
// The data the templates draw their parameters from is exported read-only
// (ShopProducts, StaysData, ForumData, MailData, TrackerData and their
// siblings): a template computes its answer from the same seeded data the
// pages show.
//
// # State
//
// Every site keeps its state (cart, orders, bookings, posts, settings) in
// memory, in the value New returns. New always starts from the same
// state, built from generated data with a fixed seed; the runner calls it
// once per task attempt, beside the attempt's own replay server, so
// nothing one task does is seen by another, whatever the parallelism or
// the repeat count. No state lives in the browser: the sites set no
// cookies and use no web storage, and every page they render is sent with
// Cache-Control: no-store. See docs/decisions/0008-sandbox-state.md.
//
// # What it serves
//
// Pages and form posts of its three hosts. Static files (style sheets,
// icons) are in the suite's fixture archive (benchmarks/sandbox/web),
// and every request New's handler does not answer goes to the fallback
// handler it is given, the archive's Replayer, so a request for a file
// the archive lacks is still reported as a miss.
//
// Nothing here reads the clock or a random source: the sites' "today" is
// fixed (see Today), and the data comes from a seeded generator, so two
// runs render the same bytes.
//
// # Routes
//
// Each site's pages and forms are listed in one route table (Shop, Stays,
// Forum, Mail, Tracker, Pay in routes.go): method, path with the record
// it is about, the fields it reads, whether it writes. The site registers
// its handlers from its table, and New panics when the two differ;
// the generated tasks build their URLs, URL patterns and form fields from
// the same tables. See docs/decisions/0043-one-route-table-per-application.md.
//
// It imports the standard library only.
package sandbox
