package transcript

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportsOnlyStdlib enforces the package doc: transcripts are read by
// every side of the harness, so this package depends on nothing.
func TestImportsOnlyStdlib(t *testing.T) {
	t.Parallel()
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") || first == "contractbench" {
			t.Errorf("imports %s; only the standard library is allowed", imp)
		}
	}
}
