package compare

import (
	"strings"
	"testing"

	"contractbench/internal/report"
)

func TestCompare(t *testing.T) {
	run := func(outcomes []report.Outcome, pageBytes, otherBytes int64) *report.Run {
		r := &report.Run{}
		for i, o := range outcomes {
			r.Results = append(r.Results, report.TaskResult{Task: string(rune('a' + i)), Attempt: 1, Outcome: o, ToolCalls: 2, DurationMS: 1000 * int64(i+1),
				Calls: []report.Call{
					{Seq: 1, Tool: "snap", ResponseBytes: pageBytes, DurationMS: 100},
					{Seq: 2, Tool: "click", ResponseBytes: otherBytes, DurationMS: 300},
					{Seq: 3, Tool: "evaluate", ResponseBytes: 99999, Refused: true},
				}})
		}
		return r
	}
	peer := CompareRow("peer", run([]report.Outcome{report.OutcomePassed, report.OutcomePassed, report.OutcomeFailed}, 9000, 100), []string{"snap"})
	ours := CompareRow("ours", run([]report.Outcome{report.OutcomePassed, report.OutcomePassed, report.OutcomePassed}, 3000, 100), []string{"snap"})
	want := ServerRow{Server: "ours", Passed: 3, Total: 3, MedianToolCalls: 2, MedianCallBytes: 1550, P90CallBytes: 3000,
		MedianPageBytes: 3000, MedianCallMS: 200, MedianTaskMS: 2000}
	if ours != want {
		t.Errorf("CompareRow = %+v\nwant          %+v (refused calls must not count)", ours, want)
	}
	var b strings.Builder
	if err := WriteComparison(&b, []ServerRow{ours, peer}, "peer"); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"| ours | 3 / 3 | 2.0 | 1550 (0.34×) | 3000 (0.33×) | 3000 (0.33×) | 200 (1.00×) | 2000 (1.00×) |",
		"| peer | 2 / 3 | 2.0 | 4550 (1.00×) | 9000 (1.00×) | 9000 (1.00×) | 200 (1.00×) | 2000 (1.00×) |",
		"Ratios (×) are against peer on the same tasks.",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("comparison lacks %q:\n%s", line, b.String())
		}
	}
}

// TestComparisonHTMLGolden pins the page of servers side by side: the
// builtin server's fixture run against a peer on which task-03 passed and
// task-05 timed out. Run with -update after an intended change.
func TestComparisonHTMLGolden(t *testing.T) {
	t.Parallel()
	ours, peer := testRun(t), testRun(t)
	peer.Settings.Server = "playwright"
	peer.Results[2].Outcome, peer.Results[2].Failed = report.OutcomePassed, nil
	peer.Results[4].Outcome = report.OutcomeTimeout
	runs := []ServerRun{
		{Server: "builtin", Run: ours, HTMLFile: "4f2a9c1-builtin.html"},
		{Server: "playwright", Run: peer, HTMLFile: "4f2a9c1-playwright.html"},
	}
	rows := []ServerRow{CompareRow("builtin", ours, []string{"read_page"}), CompareRow("playwright", peer, []string{"read_page"})}
	var b strings.Builder
	if err := WriteComparisonHTML(&b, "Tool servers compared (4f2a9c1)", runs, rows); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`<th>builtin</th><th>playwright</th>`,
		`<a href="4f2a9c1-playwright.html#result-5"><span class="badge o-timeout">timeout</span></a>`,
		`<a href="4f2a9c1-builtin.html#result-3"><span class="badge o-failed">failed</span></a>`,
	} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("the comparison page lacks %s", s)
		}
	}
	checkGolden(t, "servers.golden.html", []byte(b.String()))
}

func TestComparisonShowsTrust(t *testing.T) {
	t.Parallel()
	run := &report.Run{Settings: report.Settings{Trust: report.TrustUnrestricted}, Results: []report.TaskResult{{Task: "t", Outcome: report.OutcomeTainted, Trust: report.TrustUnrestricted}}}
	var b strings.Builder
	if err := WriteComparison(&b, []ServerRow{CompareRow("builtin", run, nil)}, "builtin"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| builtin (trust: unrestricted agent) | 0 / 1 |") {
		t.Errorf("comparison does not label the row:\n%s", b.String())
	}
}
