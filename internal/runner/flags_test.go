package runner_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// flagLike is a command-line flag as the commands spell them: -j, or a
// double dash and a word (--isolate, --browser-url).
var flagLike = regexp.MustCompile(`(^|[\s("'{])(-j\b|--[a-z][a-z-]+)`)

// The runner knows its settings, not the flags of the commands that set
// them: no string of its production code that could reach an error names
// a flag; a check names the Spec's fields (FieldError) and the command
// names its flags. The one flag it may spell is Chromium's own, passed to
// the browser it launches.
func TestNoRunnerErrorNamesAFlag(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
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
				return true
			}
			if m := flagLike.FindStringSubmatch(s); m != nil && !strings.HasPrefix(s, "--host-resolver-rules=") {
				t.Errorf("%s: %q names the flag %s; name the Spec's field instead (FieldError)", fset.Position(lit.Pos()), s, m[2])
			}
			return true
		})
	}
}
