package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"contractbench/internal/report"
)

// The baseline is raised, never lowered: the working tree's baseline may not
// cover fewer tasks than HEAD's, nor HEAD's fewer than its parent's.
func TestBaselineNeverLowered(t *testing.T) {
	const rel = "benchmarks/webvoyager/baseline.json"
	cur, err := report.LoadBaseline(filepath.Join("../..", rel))
	if err != nil {
		t.Fatal(err)
	}
	if cur.ExpectedPassCount < 10 {
		t.Errorf("%s: expected_pass_count %d; the seed's ten tasks must all be covered", rel, cur.ExpectedPassCount)
	}
	compare := func(newer *report.Baseline, rev string) *report.Baseline {
		out, err := exec.Command("git", "-C", "../..", "show", rev+":"+rel).Output()
		if err != nil {
			t.Logf("no %s at %s (first commit with a baseline, or not a git checkout): nothing to compare", rel, rev)
			return nil
		}
		file := filepath.Join(t.TempDir(), "baseline.json")
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
		prev, err := report.LoadBaseline(file)
		if err != nil {
			t.Fatalf("%s at %s: %v", rel, rev, err)
		}
		if err := report.CheckRaised(prev, newer); err != nil {
			t.Errorf("%s was lowered against %s: %v", rel, rev, err)
		}
		return prev
	}
	if head := compare(cur, "HEAD"); head != nil {
		compare(head, "HEAD~1")
	}
}
