package report

import (
	"fmt"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/problem"
)

// Bounds on what views copy out of a result. Evidence and reasons can hold
// whole page texts or error dumps; a report stays readable in review and in
// a CI log only if every such string is cut.
const (
	// maxTextBytes bounds one expected, seen, reason or answer string. It
	// lets evidence the contract package already cut (300 bytes and a
	// note) through whole.
	maxTextBytes     = 320
	maxEvidenceItems = 3 // evidence lines per failing clause
)

// under reports whether path is clause itself or a clause below it.
func under(path, clause string) bool {
	rest, ok := strings.CutPrefix(path, clause)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

// failingEvidence returns the evidence that explains why res's failing
// clause did not hold: the failed leaves at or below that clause. When
// none failed (a not whose child held), it returns all evidence below the
// clause, which is what made it fail. Without a failing clause it returns
// every failed leaf.
func failingEvidence(res *TaskResult) []contract.Evidence {
	var clause string
	if res.Failed != nil {
		clause = res.Failed.Path
	}
	var failed, all []contract.Evidence
	for _, ev := range res.Evidence {
		if clause != "" && !under(ev.Path, clause) {
			continue
		}
		all = append(all, ev)
		if !ev.Passed {
			failed = append(failed, ev)
		}
	}
	if len(failed) == 0 && clause != "" {
		return all
	}
	return failed
}

// failedEvidence returns, in evaluation order, the evidence of every clause
// that failed: each failed leaf, wherever it is, and every leaf under the
// clause the verdict named (a not fails because its child held, so that
// clause's leaves explain it even when they passed).
func failedEvidence(res *TaskResult) []contract.Evidence {
	var out []contract.Evidence
	for _, ev := range res.Evidence {
		if !ev.Passed || (res.Failed != nil && under(ev.Path, res.Failed.Path)) {
			out = append(out, ev)
		}
	}
	return out
}

// evidenceSummary is the one-line account of a failing clause used by the
// gate and JUnit: "expected url matching ^https://example\.com/$, saw
// https://wrong.example/", with at most maxEvidenceItems parts.
func evidenceSummary(evs []contract.Evidence) string {
	var parts []string
	for i, ev := range evs {
		if i == maxEvidenceItems {
			parts = append(parts, fmt.Sprintf("(%d more)", len(evs)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("expected %s, saw %s", bound(ev.Expected), bound(ev.Seen)))
	}
	return strings.Join(parts, "; ")
}

// bound returns s on one line and cut to maxTextBytes, saying how much was
// cut so a reader knows the text goes on.
func bound(s string) string {
	return problem.Bound(strings.Join(strings.Fields(s), " "), maxTextBytes)
}

// ResultName names a result in views: the task, and the attempt when the
// run has several.
func ResultName(res *TaskResult, several bool) string {
	if several {
		return fmt.Sprintf("%s #%d", res.Task, res.Attempt)
	}
	return res.Task
}
