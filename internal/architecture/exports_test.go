package architecture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// exports is what the export rule needs to know of the module's packages.
type exports struct {
	// declared: package -> exported package-level name -> the names of
	// its own package that its exported surface mentions (the types of
	// its parameters, results, exported fields and exported methods).
	declared map[string]map[string][]string
	// used: package -> its exported names that another package's code
	// (production or tests) refers to.
	used map[string]map[string]bool
	// inProduction: package -> exported name -> how often production
	// code names it, its declaration included (a selector of another
	// package counts 2, as a use alone).
	inProduction map[string]map[string]int
	// funcs: package -> its exported package-level functions.
	funcs map[string]map[string]bool
	// values: package -> exported type -> its exported constants and
	// variables declared with that type: an enumeration's values, which
	// are part of the type's surface.
	values map[string]map[string][]string
}

// loadExports reads every Go file below root.
func loadExports(t *testing.T, root string) *exports {
	t.Helper()
	e := &exports{declared: map[string]map[string][]string{}, used: map[string]map[string]bool{}, inProduction: map[string]map[string]int{}, funcs: map[string]map[string]bool{}, values: map[string]map[string][]string{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		test := strings.HasSuffix(path, "_test.go")
		if !test && f.Name.Name != "main" {
			e.declare(rel, f)
		}
		e.use(rel, f, test)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// declare records the exported package-level names of f and what their
// surfaces mention.
func (e *exports) declare(pkg string, f *ast.File) {
	d := e.declared[pkg]
	if d == nil {
		d = map[string][]string{}
		e.declared[pkg] = d
	}
	add := func(name string, nodes ...ast.Node) {
		if _, ok := d[name]; !ok {
			d[name] = []string{}
		}
		for _, n := range nodes {
			d[name] = append(d[name], mentions(n)...)
		}
	}
	if e.values[pkg] == nil {
		e.values[pkg] = map[string][]string{}
		e.funcs[pkg] = map[string]bool{}
	}
	for _, decl := range f.Decls {
		var iotaType *ast.Ident
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if !decl.Name.IsExported() {
				continue
			}
			if decl.Recv == nil {
				add(decl.Name.Name, decl.Type)
				e.funcs[pkg][decl.Name.Name] = true
			} else if recv := receiver(decl.Recv); ast.IsExported(recv) {
				add(recv, decl.Type) // an exported method is part of its type's surface
			}
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						add(s.Name.Name, surface(s.Type))
					}
				case *ast.ValueSpec:
					typ, _ := s.Type.(*ast.Ident)
					if typ == nil && decl.Tok == token.CONST && len(s.Values) == 0 {
						typ = iotaType // a constant repeating the spec above it
					}
					if typ != nil && typ.IsExported() {
						iotaType = typ
					}
					for _, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						add(n.Name)
						if typ != nil && typ.IsExported() {
							e.values[pkg][typ.Name] = append(e.values[pkg][typ.Name], n.Name)
						}
					}
				}
			}
		}
	}
}

// surface is the part of a type expression other packages can see: a
// struct's exported fields and embedded types, an interface's methods,
// anything else whole.
func surface(x ast.Expr) ast.Node {
	st, ok := x.(*ast.StructType)
	if !ok {
		return x
	}
	var seen []ast.Expr
	for _, fl := range st.Fields.List {
		if len(fl.Names) == 0 || slices.ContainsFunc(fl.Names, func(n *ast.Ident) bool { return n.IsExported() }) {
			seen = append(seen, fl.Type)
		}
	}
	return &ast.CompositeLit{Elts: seen}
}

// receiver is the type name of a method's receiver.
func receiver(fl *ast.FieldList) string {
	x := fl.List[0].Type
	for {
		switch t := x.(type) {
		case *ast.StarExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// mentions lists the unqualified exported identifiers in n.
func mentions(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			return false // another package's name
		case *ast.Ident:
			if n.IsExported() {
				out = append(out, n.Name)
			}
		}
		return true
	})
	return out
}

// use records the module names f refers to from outside their package.
func (e *exports) use(pkg string, f *ast.File, test bool) {
	names := map[string]string{}
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		local, ok := strings.CutPrefix(ip, module+"/")
		if !ok {
			continue
		}
		name := local[strings.LastIndex(local, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = local
	}
	if !test {
		// Every name in the package's own production code: its
		// declaration is one, each use another.
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.IsExported() {
				e.count(pkg, id.Name, 1)
			}
			return true
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := se.X.(*ast.Ident)
		if !ok {
			return true
		}
		if target := names[x.Name]; target == "" || target == pkg {
			return true
		}
		target := names[x.Name]
		if !test {
			e.count(target, se.Sel.Name, 2) // a use from production code
		}
		if e.used[target] == nil {
			e.used[target] = map[string]bool{}
		}
		e.used[target][se.Sel.Name] = true
		return true
	})
}

func (e *exports) count(pkg, name string, n int) {
	if e.inProduction[pkg] == nil {
		e.inProduction[pkg] = map[string]int{}
	}
	e.inProduction[pkg][name] += n
}

// testOnly lists, as "package.Name", the exported functions and
// variables that only tests use: no production code names them beyond
// their declaration.
func (e *exports) testOnly() []string {
	var out []string
	for pkg, kinds := range e.funcs {
		for name := range kinds {
			if e.inProduction[pkg][name] < 2 {
				out = append(out, pkg+"."+name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// unused lists, as "package.Name", the exported names no other package
// uses and no used name's surface mentions.
func (e *exports) unused() (out []string, total int) {
	for pkg, decls := range e.declared {
		live := map[string]bool{}
		var queue []string
		for name := range e.used[pkg] {
			queue = append(queue, name)
		}
		for len(queue) > 0 {
			name := queue[0]
			queue = queue[1:]
			if live[name] {
				continue
			}
			live[name] = true
			queue = append(queue, decls[name]...)
			queue = append(queue, e.values[pkg][name]...)
		}
		for name := range decls {
			total++
			if !live[name] {
				out = append(out, pkg+"."+name)
			}
		}
	}
	slices.Sort(out)
	return out, total
}

// TestExportsAreUsed: a name is exported because another package needs
// it. One that no other package uses, and that no used name's signature,
// fields or methods mention, is API kept for nobody: unexport it, or
// delete it. A package's own tests, external ones included, do not count:
// they may reach into it.
func TestExportsAreUsed(t *testing.T) {
	e := loadExports(t, "../..")
	unused, total := e.unused()
	if total < 100 {
		t.Fatalf("found %d exported names; is the test run from its own folder?", total)
	}
	documented := statisticsDocNames(t)
	for _, name := range unused {
		if !exempt(name, documented) {
			t.Errorf("%s is exported but used by no other package", name)
		}
	}
	for _, name := range e.testOnly() {
		if !exempt(name, documented) && !testDouble(name[:strings.LastIndex(name, ".")]) {
			t.Errorf("%s is a function only tests call: production code keeps nothing for tests alone", name)
		}
	}
	t.Logf("%d exported names, %d unused", total, len(unused))
}

// exemptExports are exported names kept for a reason the rule cannot see.
var exemptExports = map[string]string{
	"internal/contract.ScreenshotClass": "one of the nine clause types of the closed set Clause documents: a type switch over clauses names all of them",
}

// exempt reports whether name is kept exported on purpose: listed in
// exemptExports, or a function of internal/stats that
// docs/statistics.md names. That package is the statistics reference of
// the docs: each function the page names has its formula there, an
// Example, and a test against published values, whether or not a report
// computes it yet.
func exempt(name string, statsDocumented map[string]bool) bool {
	if _, ok := exemptExports[name]; ok {
		return true
	}
	fn, ok := strings.CutPrefix(name, "internal/stats.")
	return ok && statsDocumented[fn]
}

// statisticsDocNames are the names docs/statistics.md writes as code.
func statisticsDocNames(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile("../../docs/statistics.md")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Za-z0-9]*)`").FindAllStringSubmatch(string(doc), -1) {
		names[m[1]] = true
	}
	return names
}
