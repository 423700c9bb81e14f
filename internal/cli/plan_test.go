package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"contractbench/internal/runner"
)

// The flags of a run are parsed into one flat struct, a field a flag:
// nothing embedded whose fields another could shadow, nothing copied from
// one form into another.
func TestRunFlagsAreFlat(t *testing.T) {
	typ := reflect.TypeFor[runFlags]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Anonymous || f.Type.Kind() == reflect.Struct {
			t.Errorf("runFlags.%s is a struct (%s): each flag is one field of runFlags", f.Name, f.Type)
		}
	}
}

// --agent is resolved in one place (runFlags.resolve), so that what the
// run checked and what it plays, records and reports are the same agent.
func TestTheAgentIsResolvedOnce(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var calls []string
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "ResolveName" {
				calls = append(calls, fset.Position(sel.Pos()).String())
			}
			return true
		})
	}
	if len(calls) != 1 {
		t.Errorf("llm.ResolveName is called at %q; want one place, runFlags.resolve", calls)
	}
}

// The checks of a plan's browsers and isolation are the runner's alone:
// the command refuses with runner.NewPlan's own words, its fields named
// by the flags that set them.
func TestTheBrowserChecksAreThePlans(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec  runner.Spec
		flags []string
	}{
		{runner.Spec{Parallel: 2, BrowserURLs: []string{e2e.browserURL}}, []string{"--browser-url", e2e.browserURL, "-j", "2"}},
		{runner.Spec{Isolate: "thread"}, []string{"--isolate", "thread"}},
	}
	for _, tc := range tests {
		_, err := runner.NewPlan(tc.spec)
		if err == nil {
			t.Fatalf("NewPlan(%+v) refused nothing", tc.spec)
		}
		out := t.TempDir()
		r := runE2E(t, nil, append([]string{"run", "--suite", suiteDir, "--task", task01, "--out", out}, tc.flags...)...)
		if want := "contractbench: " + planError(err).Error() + "\n"; r.code != exitUsage || r.stderr != want {
			t.Errorf("run %s: want exit %d and stderr %q, got:\n%v", strings.Join(tc.flags, " "), exitUsage, want, r)
		}
	}
}

// copyTree copies the file or folder from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every field runner.NewPlan can refuse is named by the flag that sets it.
func TestEveryPlanFieldHasAFlag(t *testing.T) {
	t.Parallel()
	for _, f := range runner.Fields {
		if runFlag[f] == "" {
			t.Errorf("runner field %q has no flag in runFlag", f)
		}
	}
}
