package compare

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"contractbench/internal/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testRun is the report package's fixture run (ten tasks of the webvoyager
// suite on the builtin server), read from the JSON it writes for it.
func testRun(t testing.TB) *report.Run {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update after an intended change)\n--- got ---\n%s", golden, got)
	}
}
