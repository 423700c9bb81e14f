package templates

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

// TestNoHandWrittenURLs reads the templates' sources: no URL of an
// application, and no path of one, is written out; each is built from
// its route table (sandbox.Shop, sandbox.Mail, ...), the one the site
// serves.
func TestNoHandWrittenURLs(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
			}
			if strings.Contains(s, "://") || strings.Contains(s, ".test") || len(s) > 1 && s[0] == '/' && s[1] != '/' {
				t.Errorf("%s: %s is written out; build it from the application's route table", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	}
}

// routeMux resolves a method and URL to a route of the tables, as the
// sites would.
type routeMux map[string]*http.ServeMux

func newRouteMux() routeMux {
	m := routeMux{}
	for _, table := range []interface{ Routes() []*sandbox.Route }{&sandbox.Shop, &sandbox.Pay, &sandbox.Stays, &sandbox.Forum, &sandbox.Mail, &sandbox.Tracker} {
		for _, rt := range table.Routes() {
			if m[rt.Host] == nil {
				m[rt.Host] = http.NewServeMux()
			}
			m[rt.Host].Handle(rt.Method+" "+rt.Path, routeHandler{rt})
		}
	}
	return m
}

type routeHandler struct{ rt *sandbox.Route }

func (routeHandler) ServeHTTP(http.ResponseWriter, *http.Request) {}

// route returns the route that serves method on u, or nil.
func (m routeMux) route(method, u string) *sandbox.Route {
	p, err := url.Parse(u)
	if err != nil || m[p.Hostname()] == nil {
		return nil
	}
	p.Fragment = ""
	h, _ := m[p.Hostname()].Handler(httptest.NewRequest(method, p.String(), nil))
	if rh, ok := h.(routeHandler); ok {
		return rh.rt
	}
	return nil
}

// literalPrefix is the text every URL pattern matches starts with: the
// literal after its ^, up to its first operator.
func literalPrefix(pattern string) (string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", err
	}
	re = re.Simplify()
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var b strings.Builder
	for i, s := range subs {
		switch {
		case i == 0 && s.Op == syntax.OpBeginText:
		case s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase == 0:
			b.WriteString(string(s.Rune))
		default:
			return b.String(), nil
		}
	}
	return b.String(), nil
}

// TestContractsNameRoutes draws every template and reads what its
// contracts, start pages and references name: every URL pattern begins
// with a route of the model (or the application's root, for a count of
// every write to it), every form field a write clause names is one its
// route reads, and every page the judge or the agent opens is a page the
// site serves.
func TestContractsNameRoutes(t *testing.T) {
	t.Parallel()
	ts := All()
	drawn, err := generate.Draw(ts, 1, 3*len(ts), "")
	if err != nil {
		t.Fatal(err)
	}
	m := newRouteMux()
	for _, d := range drawn {
		page := func(where, u string) {
			rt := m.route(http.MethodGet, u)
			if rt == nil {
				t.Errorf("%s: %s %s is no page of the route tables", d.ID, where, u)
				return
			}
			if p, err := url.Parse(u); err == nil {
				for k := range p.Query() {
					if !slices.Contains(rt.Fields, k) && strings.HasPrefix(where, "contract") {
						t.Errorf("%s: %s %s: %s reads no %q", d.ID, where, u, rt, k)
					}
				}
			}
		}
		page("start_url", d.Instance.StartURL)
		var clause func(path string, c contract.Clause)
		clause = func(path string, c contract.Clause) {
			switch c := c.(type) {
			case *contract.And:
				for i, ch := range c.Children {
					clause(path+".children["+strconv.Itoa(i)+"]", ch)
				}
			case *contract.Or:
				for i, ch := range c.Children {
					clause(path+".children["+strconv.Itoa(i)+"]", ch)
				}
			case *contract.Not:
				clause(path+".child", c.Child)
			case *contract.DOMText:
				if c.Page != "" {
					page(path+".page", c.Page)
				}
			case *contract.DOMCount:
				if c.Page != "" {
					page(path+".page", c.Page)
				}
			case *contract.URL:
				prefix, err := literalPrefix(c.Pattern)
				if err != nil {
					t.Errorf("%s: %s: %v", d.ID, path, err)
					return
				}
				if m.route(http.MethodGet, strings.TrimSuffix(prefix, "?")) == nil {
					t.Errorf("%s: %s: %s begins with %s, no page of the route tables", d.ID, path, c.Pattern, prefix)
				}
			case *contract.Network:
				prefix, err := literalPrefix(c.URLPattern)
				if err != nil {
					t.Errorf("%s: %s: %v", d.ID, path, err)
					return
				}
				if p, err := url.Parse(prefix); err == nil && p.Path == "/" && m[p.Hostname()] != nil && len(c.Form) == 0 {
					return // a count of the host's every write, or of all but some
				}
				rt := m.route(c.Method, prefix)
				if rt == nil {
					t.Errorf("%s: %s: %s %s is no route of the route tables", d.ID, path, c.Method, c.URLPattern)
					return
				}
				if slices.Contains(c.StatusIn, http.StatusSeeOther) && !rt.Writes {
					t.Errorf("%s: %s: counts an accepted write to %s, which writes nothing", d.ID, path, rt)
				}
				for k := range c.Form {
					if !slices.Contains(rt.Fields, k) {
						t.Errorf("%s: %s: the form field %q: %s reads no such field (it reads %v)", d.ID, path, k, rt, rt.Fields)
					}
				}
			}
		}
		for i, c := range d.Instance.Contract {
			clause("postconditions["+strconv.Itoa(i)+"]", c)
		}
		refs := map[string][]suite.Step{"reference": d.Instance.Reference}
		for _, c := range d.Instance.Controls {
			refs["control "+c.Name] = c.Reference
		}
		for _, a := range d.Instance.Alternates {
			refs["alternate "+a.Name] = a.Reference
		}
		for name, ref := range refs {
			for i, s := range ref {
				var args struct{ URL string }
				if s.Tool == "navigate" && json.Unmarshal(s.Args, &args) == nil {
					page(name+" step "+strconv.Itoa(i), args.URL)
				}
			}
		}
	}
}
