package architecture

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "contractbench"

// judgeSide grades the agent; agentSide is everything the agent controls
// or drives. Nothing on the judge side may reach the agent side, even
// through another package: the agent must not be able to reach the judge.
var (
	judgeSide = []string{"internal/contract", "internal/phash", "internal/judge"}
	agentSide = []string{"internal/agent", "internal/nullagent", "internal/llm", "internal/toolserver", "internal/mcpclient", "internal/servers", "internal/runner", "internal/cli"}
)

// neverImports is the import table of the package docs: each package on
// the left never reaches (directly or through others) those on the right.
// A package not listed is free, within the judge-side rule.
var neverImports = map[string][]string{
	"internal/problem":             {"*"},
	"internal/phash":               {"*"},
	"internal/transcript":          {"*"},
	"internal/toolserver/snapshot": {"*"},
	"internal/webreplay":           {"*", "-internal/problem"},
	"internal/contract":            {"*", "-internal/problem"},
	"internal/suite":               {"*", "-internal/contract", "-internal/problem"},
	"internal/browser":             {"*", "-internal/cdpconn", "-internal/lockfile"},
	"internal/lockfile":            {"*"},
	"internal/loopback":            {"*"},
	"internal/spare":               {"*"},
	"internal/stats":               {"*"},
	"internal/sandbox":             {"*"},
	"internal/generate":            {"*", "-internal/contract", "-internal/problem", "-internal/suite"},
	"internal/generate/templates":  {"*", "-internal/generate", "-internal/sandbox", "-internal/contract", "-internal/problem", "-internal/suite"},
	"internal/report":              {"*", "-internal/contract", "-internal/problem", "-internal/stats"},
	"internal/compare":             {"*", "-internal/report", "-internal/contract", "-internal/problem", "-internal/stats"},
	"internal/agent":               {"internal/contract", "internal/judge", "internal/phash"},
	"internal/nullagent":           {"internal/judge", "internal/phash", "internal/runner"},
	"internal/llm":                 {"internal/contract", "internal/judge", "internal/phash"},
	"internal/mcpclient":           {"internal/contract", "internal/judge", "internal/phash"},
	"internal/toolserver":          {"internal/contract", "internal/judge", "internal/phash", "internal/agent", "internal/llm", "internal/runner"},
	"internal/servers":             {"internal/judge", "internal/browser", "internal/toolserver", "internal/agent", "internal/runner"},
}

// processOwners are the only packages that may touch the process: exit,
// read its arguments or environment, or write to its standard streams.
// Everything else gets those through the state internal/cli builds.
// cmd/testprogress and cmd/chrometrace are make test's and make
// bench-trace's own tools, apart from the product.
var processOwners = []string{"cmd/contractbench", "internal/cli", "cmd/testprogress", "cmd/chrometrace"}

// processCalls are the identifiers, by imported package, that touch the
// process.
var processCalls = map[string][]string{
	"os": {"Exit", "Args", "Getenv", "LookupEnv", "Environ", "ExpandEnv", "Setenv", "Unsetenv", "Clearenv",
		"Stdout", "Stderr", "Stdin"},
	"fmt":     {"Print", "Printf", "Println"},
	"log":     {"Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln", "Default", "SetOutput"},
	"syscall": {"Exit", "Getenv", "Environ", "Setenv"},
}

// pkg is one package of the module, read from its non-test files.
type pkg struct {
	imports []string // module packages, relative ("internal/judge")
	touches []string // "file.go:12: os.Getenv"
}

// load reads every package of the module below root, test files left out:
// tests may read the environment (to find a browser) and import anything.
func load(t *testing.T, root string) map[string]*pkg {
	t.Helper()
	pkgs := map[string]*pkg{}
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
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		p := pkgs[rel]
		if p == nil {
			p = &pkg{}
			pkgs[rel] = p
		}
		names := map[string]string{} // local name -> import path
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if local, ok := strings.CutPrefix(ip, module+"/"); ok && !slices.Contains(p.imports, local) {
				p.imports = append(p.imports, local)
			}
			name := ip[strings.LastIndex(ip, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = ip
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				x, ok := n.X.(*ast.Ident)
				if !ok {
					return true
				}
				if slices.Contains(processCalls[names[x.Name]], n.Sel.Name) {
					p.touches = append(p.touches, fset.Position(n.Pos()).String()+": "+names[x.Name]+"."+n.Sel.Name)
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
					p.touches = append(p.touches, fset.Position(n.Pos()).String()+": "+id.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 || pkgs["internal/contract"] == nil {
		t.Fatalf("found %d packages below %s; is the test run from its own folder?", len(pkgs), root)
	}
	return pkgs
}

// reach returns every module package from reaches through imports, with
// the chain that gets there ("internal/judge -> internal/x -> internal/llm").
func reach(pkgs map[string]*pkg, from string) map[string]string {
	chains := map[string]string{}
	queue := []string{from}
	chain := map[string]string{from: from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		p := pkgs[cur]
		if p == nil {
			continue
		}
		for _, imp := range p.imports {
			if _, seen := chain[imp]; seen {
				continue
			}
			chain[imp] = chain[cur] + " -> " + imp
			chains[imp] = chain[imp]
			queue = append(queue, imp)
		}
	}
	return chains
}

func under(pkgPath, prefix string) bool {
	return pkgPath == prefix || strings.HasPrefix(pkgPath, prefix+"/")
}

func TestJudgeNeverReachesTheAgentSide(t *testing.T) {
	pkgs := load(t, "../..")
	for _, j := range judgeSide {
		if pkgs[j] == nil {
			t.Errorf("judge-side package %s not found", j)
			continue
		}
		for to, chain := range reach(pkgs, j) {
			for _, a := range agentSide {
				if under(to, a) {
					t.Errorf("%s: the judge side reaches the agent side (%s)", j, chain)
				}
			}
		}
	}
}

func TestImportTable(t *testing.T) {
	pkgs := load(t, "../..")
	for from, rules := range neverImports {
		if pkgs[from] == nil {
			t.Errorf("%s is in the import table but not in the module", from)
			continue
		}
		var never, except []string
		for _, r := range rules {
			if e, ok := strings.CutPrefix(r, "-"); ok {
				except = append(except, e)
			} else {
				never = append(never, r)
			}
		}
		for to, chain := range reach(pkgs, from) {
			if slices.ContainsFunc(except, func(e string) bool { return under(to, e) }) {
				continue
			}
			if slices.Contains(never, "*") || slices.ContainsFunc(never, func(n string) bool { return under(to, n) }) {
				t.Errorf("%s must not import %s (%s)", from, to, chain)
			}
		}
	}
	for from, p := range pkgs {
		if slices.Contains(p.imports, "internal/cli") && from != "cmd/contractbench" {
			t.Errorf("%s imports internal/cli; only main does", from)
		}
	}
}

func TestOnlyTheCLITouchesTheProcess(t *testing.T) {
	pkgs := load(t, "../..")
	for name, p := range pkgs {
		if slices.ContainsFunc(processOwners, func(o string) bool { return under(name, o) }) {
			continue
		}
		for _, touch := range p.touches {
			t.Errorf("%s: only internal/cli exits, reads the arguments or environment, or writes to the standard streams; libraries take them from the caller", touch)
		}
	}
}

// testDouble tells a package that stands in for another in tests: its
// name ends in "test" or "fake" (agenttest, reporttest, llmfake).
func testDouble(pkgPath string) bool {
	name := pkgPath[strings.LastIndex(pkgPath, "/")+1:]
	return strings.HasSuffix(name, "test") || strings.HasSuffix(name, "fake")
}

// TestProductionNeverImportsTestDoubles: a test double in the binary would
// answer for a real part; only tests (and other doubles) may use them.
func TestProductionNeverImportsTestDoubles(t *testing.T) {
	pkgs := load(t, "../..")
	doubles := 0
	for name := range pkgs {
		if testDouble(name) {
			doubles++
		}
	}
	if doubles == 0 {
		t.Fatal("found no test doubles (packages named *test or *fake); has the naming changed?")
	}
	for name, p := range pkgs {
		if testDouble(name) {
			continue
		}
		for _, imp := range p.imports {
			if testDouble(imp) {
				t.Errorf("%s imports the test double %s; only tests may", name, imp)
			}
		}
	}
}

// The budget of one function of production code: at most maxFuncLines
// lines and a cyclomatic complexity of at most maxComplexity (one, plus
// one for each if, for, range, case, select case, && and ||). Past those,
// a function holds more than one idea and its reader more than one
// screen; k6 keeps the same limits (80 and 25) with golangci-lint's funlen
// and gocyclo. Tests, test doubles and the judge's JavaScript are not
// counted.
const (
	maxFuncLines  = 80
	maxComplexity = 25
)

// complexity is the cyclomatic complexity of a function body, counted as
// gocyclo counts it.
func complexity(body *ast.BlockStmt) int {
	c := 1
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // a closure is its own function
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

func TestFunctionBudget(t *testing.T) {
	fset := token.NewFileSet()
	var over []string
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || testDouble(filepath.ToSlash(filepath.Dir(path))) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		check := func(name string, body *ast.BlockStmt) {
			if body == nil {
				return
			}
			lines := fset.Position(body.Rbrace).Line - fset.Position(body.Lbrace).Line + 1
			if c := complexity(body); lines > maxFuncLines || c > maxComplexity {
				over = append(over, fmt.Sprintf("%s: %s: %d lines, complexity %d", fset.Position(body.Lbrace), name, lines, c))
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				check(n.Name.Name, n.Body)
			case *ast.FuncLit:
				check("a function literal", n.Body)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range over {
		t.Errorf("%s: over the budget of %d lines and complexity %d; split it", o, maxFuncLines, maxComplexity)
	}
}
