package architecture

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/packages.md from the imports")

// picturePath is the picture of the packages and their imports.
const picturePath = "../../docs/packages.md"

// TestPackagePicture keeps docs/packages.md the picture of the module's
// packages as they are: each package with the module packages it imports,
// and a Graphviz form of the same graph. Run
// `go test ./internal/architecture -run TestPackagePicture -update` after
// an import changes, and review the diff.
func TestPackagePicture(t *testing.T) {
	pkgs := load(t, "../..")
	got := picture(pkgs)
	if *update {
		if err := os.WriteFile(picturePath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(picturePath)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the picture of the imports as they are; run go test ./internal/architecture -run TestPackagePicture -update and review the diff", filepath.Clean(picturePath))
	}
}

// picture renders the import graph of pkgs as Markdown: a list, then DOT.
func picture(pkgs map[string]*pkg) []byte {
	names := slices.Sorted(maps.Keys(pkgs))
	short := func(p string) string { return strings.TrimPrefix(p, "internal/") }
	var b bytes.Buffer
	b.WriteString("# Packages and their imports\n\n")
	b.WriteString("Each package of the module with the module packages it imports (standard\n" +
		"library and outside modules left out). `internal/architecture`'s tests\n" +
		"write this page from the source (`go test ./internal/architecture -run\n" +
		"TestPackagePicture -update`) and fail when it is not the imports as they\n" +
		"are; the rules the imports must keep are in `architecture_test.go`.\n\n")
	b.WriteString("```\n")
	width := 0
	for _, n := range names {
		width = max(width, len(short(n)))
	}
	for _, n := range names {
		imports := slices.Sorted(slices.Values(pkgs[n].imports))
		imports = slices.Compact(imports)
		for i := range imports {
			imports[i] = short(imports[i])
		}
		fmt.Fprintf(&b, "%-*s  → %s\n", width, short(n), orDash(strings.Join(imports, ", ")))
	}
	b.WriteString("```\n\nThe same graph for Graphviz (`dot -Tsvg`):\n\n```dot\ndigraph packages {\n  rankdir=LR;\n  node [shape=box, fontname=monospace];\n")
	for _, n := range names {
		imports := slices.Compact(slices.Sorted(slices.Values(pkgs[n].imports)))
		for _, imp := range imports {
			fmt.Fprintf(&b, "  %q -> %q;\n", short(n), short(imp))
		}
	}
	b.WriteString("}\n```\n")
	return b.Bytes()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
