package sandbox

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Route is one handler of an application's server: what a template needs
// to know of it to require or forbid a request there. An application's
// routes are one table (Routes) that its server registers its handlers
// from and its templates derive their write clauses from
// (generate.WriteSet), so a route added to the table is forbidden to every
// task that does not ask for it.
type Route struct {
	// Name identifies the route in its table: "reply", "delete-message".
	Name string
	// Method is the HTTP method the route serves.
	Method string
	// Path is the route's path as an http.ServeMux pattern: literal
	// segments and {name} wildcards of one segment each
	// ("/messages/{id}/delete").
	Path string
	// Writes says that a request the route serves changes the
	// application's state.
	Writes bool
	// Status is the status a write route answers a write it made (303
	// after a form); a request it refuses answers another.
	Status int
}

// Routes is one application's route table.
type Routes []Route

// Register registers, on mux, each route of rs with the handler handlers
// names for it. A route without a handler, or a handler without a route,
// is an error: the table is the whole of what the server serves.
func (rs Routes) Register(mux *http.ServeMux, handlers map[string]http.HandlerFunc) error {
	for _, r := range rs {
		h, ok := handlers[r.Name]
		if !ok {
			return fmt.Errorf("route %s (%s %s) has no handler", r.Name, r.Method, r.Path)
		}
		mux.HandleFunc(r.Method+" "+r.Path, h)
	}
	if len(handlers) != len(rs) {
		for name := range handlers {
			if _, ok := rs.Find(name); !ok {
				return fmt.Errorf("handler %s is in no route of the table", name)
			}
		}
	}
	return nil
}

// Find returns the route named name.
func (rs Routes) Find(name string) (Route, bool) {
	for _, r := range rs {
		if r.Name == name {
			return r, true
		}
	}
	return Route{}, false
}

// wildcard is a {name} segment of a route's path.
var wildcard = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// URLPattern returns an RE2 pattern, anchored, of the route's URLs on
// origin ("https://forum.sandbox.test"): each wildcard is the value
// values gives it, or any one segment when values gives none; a query
// string may follow (it does not choose the route), a fragment is never
// sent.
func (r Route) URLPattern(origin string, values map[string]string) string {
	var b strings.Builder
	b.WriteString("^" + regexp.QuoteMeta(strings.TrimSuffix(origin, "/")))
	rest := r.Path
	for _, m := range wildcard.FindAllStringSubmatchIndex(r.Path, -1) {
		b.WriteString(regexp.QuoteMeta(r.Path[len(r.Path)-len(rest) : m[0]]))
		if v, ok := values[r.Path[m[2]:m[3]]]; ok {
			b.WriteString(regexp.QuoteMeta(v))
		} else {
			b.WriteString("[^/?#]+")
		}
		rest = r.Path[m[1]:]
	}
	b.WriteString(regexp.QuoteMeta(rest))
	b.WriteString(`(?:\?[^#]*)?$`)
	return b.String()
}

// Wildcards returns the names of the route's wildcards, in path order.
func (r Route) Wildcards() []string {
	var out []string
	for _, m := range wildcard.FindAllStringSubmatch(r.Path, -1) {
		out = append(out, m[1])
	}
	return out
}
