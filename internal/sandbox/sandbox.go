package sandbox

import (
	"embed"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// The sites' host names. .test is reserved (RFC 2606), so no real site
// can ever answer for them.
const (
	ShopHost    = "shop.sandbox.test"
	StaysHost   = "stays.sandbox.test"
	ForumHost   = "forum.sandbox.test"
	MailHost    = "mail.sandbox.test"
	TrackerHost = "tracker.sandbox.test"
	// PayHost serves the card form the shop embeds in an iframe.
	PayHost    = "pay.sandbox.test"
	hostSuffix = ".sandbox.test"
)

// Today is the date every site takes as today. Fixed, so that a task
// written against "the second available date" means the same date in
// every run.
const Today = "2026-03-01"

// IsHost reports whether host (a bare host name) is one of the sandbox's,
// or under its domain: a name that exists only here.
func IsHost(host string) bool {
	return strings.HasSuffix(strings.ToLower(host), hostSuffix)
}

//go:embed templates
var templateFS embed.FS

// Web is the sites with their state. Each value holds its own
// state: use one per task attempt.
type Web struct {
	fallback http.Handler
	sites    map[string]http.Handler
}

// New returns the sites in the state every task starts from. Requests for
// other hosts, and for paths the sites do not handle (their static files),
// go to fallback.
func New(fallback http.Handler) *Web {
	w := &Web{fallback: fallback}
	w.sites = map[string]http.Handler{
		ShopHost:    newShop(fallback),
		StaysHost:   newStays(fallback),
		ForumHost:   newForum(fallback),
		MailHost:    newMail(fallback),
		TrackerHost: newTracker(fallback),
		PayHost:     newPay(fallback),
	}
	return w
}

func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if s, ok := w.sites[strings.ToLower(host)]; ok {
		s.ServeHTTP(rw, r)
		return
	}
	w.fallback.ServeHTTP(rw, r)
}

// site is what the three sites share: templates and one lock over the
// state, held for the whole of each request so a request sees and leaves
// a consistent state.
type site struct {
	mu   sync.Mutex
	tmpl *template.Template
	mux  *http.ServeMux
}

func newSite(name string, fallback http.Handler, funcs template.FuncMap) *site {
	f := template.FuncMap{"query": queryWith}
	for k, v := range funcs {
		f[k] = v
	}
	t := template.Must(template.New(name).Funcs(f).ParseFS(templateFS, "templates/"+name+"/*.html"))
	s := &site{tmpl: t, mux: http.NewServeMux()}
	// Static files, and anything the site has no page for, come from the
	// archive (or are its misses).
	s.mux.Handle("/", fallback)
	return s
}

// serve registers the handler of every route of table, each run under
// the site's lock: the site serves the routes of its table and no other.
// It panics when a route of the table has no handler, or a handler is for
// a route not in the table, so a site and its table cannot drift apart.
func (s *site) serve(table table, handlers map[*Route]http.HandlerFunc) {
	for _, rt := range table.Routes() {
		h, ok := handlers[rt]
		if !ok {
			panic("sandbox: no handler for " + rt.String())
		}
		delete(handlers, rt)
		s.mux.HandleFunc(rt.Method+" "+rt.Path, func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			defer s.mu.Unlock()
			h(w, r)
		})
	}
	for rt := range handlers {
		panic("sandbox: a handler for " + rt.String() + ", which is not in the site's route table")
	}
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// render writes the named page. Every page carries no-store: a browser
// that outlives a task must not show the next task a cached page of this
// one's state.
func (s *site) render(w http.ResponseWriter, status int, name string, data any) {
	var b strings.Builder
	if err := s.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "sandbox: rendering "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write([]byte(b.String()))
}

// seeOther answers a form post with a redirect to the page showing its
// result, so reloading that page never posts twice.
func seeOther(w http.ResponseWriter, r *http.Request, to string) {
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// problem is a page explaining why a form was refused, with the status the
// judge's network clause sees.
type problem struct {
	Title, Message, Back, BackText string
}

func (s *site) refuse(w http.ResponseWriter, status int, p problem) {
	s.render(w, status, "problem", p)
}

// queryWith returns the query of u with key set to value (removed when
// value is ""), for filter links that keep the other filters.
func queryWith(u *url.URL, key, value string) string {
	q := u.Query()
	if value == "" {
		q.Del(key)
	} else {
		q.Set(key, value)
	}
	if len(q) == 0 {
		return u.Path
	}
	return u.Path + "?" + q.Encode()
}
