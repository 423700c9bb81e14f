package runner

import (
	"strings"
	"testing"

	"contractbench/internal/agent"
	"contractbench/internal/contract"
	"contractbench/internal/report"
)

// TestAReachForThisMachineTaintsTheAttempt: a document outside the task's
// web that the judge refused names the call that asked for it, and the
// attempt is tainted even though its contract held.
func TestAReachForThisMachineTaintsTheAttempt(t *testing.T) {
	calls := []agent.Call{{Seq: 1, Tool: "browser_navigate"}, {Seq: 2, Tool: "browser_navigate"}, {Seq: 3, Tool: "browser_snapshot"}}
	if got := offWebTaint(nil, calls); got != nil {
		t.Fatalf("no refusal tainted the attempt: %+v", got)
	}
	refused := []contract.Refusal{
		{URL: "file:///suite/benchmarks/generated/generated.json", What: "a local file", Call: 2},
		{URL: "chrome://version/", What: "a page of the browser's own", Call: 3},
	}
	taint := offWebTaint(refused, calls)
	if taint == nil || taint.Seq != 2 || taint.Tool != "browser_navigate" || !strings.Contains(taint.Why, "file:///suite/benchmarks/generated/generated.json, a local file") {
		t.Fatalf("taint = %+v, want call 2 (browser_navigate) asking for the file", taint)
	}
	res := report.TaskResult{Taint: taint, Evidence: []contract.Evidence{{Path: "postconditions[0]", Passed: true}}, Stop: report.Stop{Kind: report.StopAnswer}}
	res.Decide()
	if res.Outcome != report.OutcomeTainted || !strings.Contains(res.Reason, "call 2 used browser_navigate, which asked the browser for file:///") {
		t.Errorf("outcome %s (%s), want tainted, naming the call", res.Outcome, res.Reason)
	}
}
