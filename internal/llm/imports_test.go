package llm

import (
	"go/build"
	"strings"
	"testing"
)

// TestImports enforces the package doc: a model can never reach the code
// that grades it.
func TestImports(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{".", "llmfake"} {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			for _, forbidden := range []string{"contractbench/internal/contract", "contractbench/internal/judge", "contractbench/internal/phash"} {
				if imp == forbidden || strings.HasPrefix(imp, forbidden+"/") {
					t.Errorf("%s imports %s; the agent side must not reach the judge", pkg.ImportPath, imp)
				}
			}
			if dir == "llmfake" && strings.HasPrefix(imp, "contractbench/") {
				t.Errorf("llmfake imports %s; it must stay importable by this package's tests", imp)
			}
		}
	}
}
