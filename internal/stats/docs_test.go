package stats_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/statistics.md reproduces the planning tables; they must be the
// ones the code computes.
func TestDocsPlanningTables(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "statistics.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, corr := range []float64{0.5, 0} {
		if table := planningTable(corr); !strings.Contains(string(doc), table) {
			t.Errorf("docs/statistics.md lacks the planning table for correlation %v:\n%s", corr, table)
		}
	}
}
