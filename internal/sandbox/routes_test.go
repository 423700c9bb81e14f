package sandbox

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tables are the route tables of every application.
var tables = []table{&Shop, &Pay, &Stays, &Forum, &Mail, &Tracker}

// TestEveryRouteServed sends a request for every route of every table and
// sees the site's handler answer it, not the archive behind the site.
func TestEveryRouteServed(t *testing.T) {
	t.Parallel()
	web := New(archive)
	hosts := map[string]bool{}
	for _, table := range tables {
		for _, rt := range table.Routes() {
			hosts[rt.Host] = true
			var args []string
			for range strings.Count(rt.Path, "{") - strings.Count(rt.Path, "{$}") {
				args = append(args, "x")
			}
			var form url.Values
			if rt.Method == http.MethodPost {
				form = url.Values{}
			}
			code, _, body := do(t, web, rt.Method, rt.URL(args...), form)
			if body == "archive miss\n" {
				t.Errorf("%s: %s %s went to the archive (%d); want the site's handler", rt, rt.Method, rt.URL(args...), code)
			}
		}
	}
	for h := range web.sites {
		if !hosts[h] {
			t.Errorf("the site %s has no route table", h)
		}
	}
	if len(hosts) != len(web.sites) {
		t.Errorf("route tables on %d hosts, sites on %d", len(hosts), len(web.sites))
	}
}

// TestOnlyTablesRegister reads the package's sources: a site registers a
// handler only through serve, from its table (and the archive, for
// everything else, in newSite), so every route a site serves is in its
// table.
func TestOnlyTablesRegister(t *testing.T) {
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
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !slices.Contains([]string{"Handle", "HandleFunc"}, sel.Sel.Name) {
					return true
				}
				if name := fn.Name.Name; name != "serve" && name != "newSite" {
					t.Errorf("%s: %s registers a handler itself; register a route of the site's table with serve", fset.Position(call.Pos()), name)
				}
				return true
			})
		}
	}
}

// TestSiteAndTableMustAgree: a handler missing for a route of the table,
// or one for a route not in it, stops the site from being built.
func TestSiteAndTableMustAgree(t *testing.T) {
	t.Parallel()
	h := func(http.ResponseWriter, *http.Request) {}
	for name, handlers := range map[string]map[*Route]http.HandlerFunc{
		"missing": {&Pay.Card: h, &Pay.Charge: h},
		"extra":   {&Pay.Card: h, &Pay.Charge: h, &Pay.Done: h, &Shop.Home: h},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: serve accepted handlers that do not match the table", name)
				}
			}()
			newSite("pay", archive, nil).serve(&Pay, handlers)
		}()
	}
}

func TestRouteURLs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		got, want string
	}{
		{Shop.Home.URL(), "https://shop.sandbox.test/"},
		{Shop.Cancel.URL("SH-0999"), "https://shop.sandbox.test/orders/SH-0999/cancel"},
		{Mail.Message.Href("12"), "/m/12"},
		{Tracker.Issues.Query(url.Values{"status": {"open"}, "project": {"BRD"}}), "https://tracker.sandbox.test/issues?project=BRD&status=open"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	for name, bad := range map[string]func(){
		"too few":       func() { Shop.Cancel.URL() },
		"too many":      func() { Shop.Cart.URL("x") },
		"unread field":  func() { Shop.Cancel.Form(map[string]string{"why": "x"}) },
		"unread query":  func() { Shop.Search.Query(url.Values{"colour": {"red"}}) },
		"unknown field": func() { Stays.Book.Field("card") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			bad()
		}()
	}
}

// BenchmarkNew is what the runner pays per task attempt for the sites'
// fresh state, route tables checked and registered included.
func BenchmarkNew(b *testing.B) {
	for range b.N {
		New(archive)
	}
}
