package compare

import (
	"strconv"
	"testing"

	"contractbench/internal/report"
)

// TestViewsAgree pins that diff, the board and the servers comparison are
// views of one pairing: on the same two reports (one attempt per task, a
// harness error in each, a task only one of them ran) they compare the
// same tasks, count the same discordant pairs and give the same exact
// McNemar p-value.
func TestViewsAgree(t *testing.T) {
	t.Parallel()
	a := boardTestRun("a", "", "v1", 0, "P", "P", "P", "P", "P", "P", "F", "F", "P", "F", "P", "P")
	b := boardTestRun("b", "", "v1", 0, "F", "F", "F", "F", "F", "P", "F", "P", "P", "F", "P", "P")
	a.Results[9].Outcome, a.Results[9].Failed = report.OutcomeError, nil
	b.Results[10].Outcome, b.Results[10].Failed = report.OutcomeError, nil
	// A task only a ran, which no view can pair; b's selection is cut
	// too, so that both runs still land in one group of the board.
	a.Results = append(a.Results, report.TaskResult{Task: "t13", Attempt: 1, Outcome: report.OutcomePassed})
	const onlyA, onlyB, shared = 5, 1, 10 // t10 and t11 left out, t13 unpaired

	doc, err := Diff([]*Run{NewRun("A", "a.json", a), NewRun("B", "b.json", b)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := doc.Comparisons[0].Overall
	if g.Tasks != shared || g.Pairs.OnlyA != onlyA || g.Pairs.OnlyB != onlyB {
		t.Fatalf("diff: %d tasks, only A %d, only B %d; want %d, %d, %d", g.Tasks, g.Pairs.OnlyA, g.Pairs.OnlyB, shared, onlyA, onlyB)
	}

	a.Settings.Tasks, b.Settings.Tasks = nil, nil
	b.Results = append(b.Results, report.TaskResult{Task: "t13", Attempt: 1, Outcome: report.OutcomeInterrupted})
	page, err := newBoardPage([]BoardRun{{Run: a, Link: "a.json"}, {Run: b, Link: "b.json"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Groups) != 1 || len(page.Groups[0].Ranked) != 2 || page.Groups[0].Ranked[0].Agent != "a" {
		t.Fatalf("the board does not rank a above b in one group: %+v", page.Groups)
	}
	bp := page.Groups[0].Ranked[0].Next
	if bp.Shared != shared || bp.OnlyThis != onlyA || bp.OnlyNext != onlyB || bp.P != strconv.FormatFloat(g.McNemarP, 'f', 3, 64) {
		t.Errorf("board pair %+v; diff: %d tasks, only A %d, only B %d, p %v", *bp, g.Tasks, g.Pairs.OnlyA, g.Pairs.OnlyB, g.McNemarP)
	}

	pairs := PairsWithBase([]ServerRun{{Server: "base", Run: a}, {Server: "other", Run: b}}, "base")
	if len(pairs) != 1 {
		t.Fatalf("%d server pairs, want 1", len(pairs))
	}
	if p := pairs[0]; p.Shared != shared || p.OnlyBase != onlyA || p.OnlyServer != onlyB || p.P != g.McNemarP {
		t.Errorf("servers pair %+v; diff: %d tasks, only A %d, only B %d, p %v", p, g.Tasks, g.Pairs.OnlyA, g.Pairs.OnlyB, g.McNemarP)
	}
}
