package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"contractbench/internal/contract"
)

// mustContract parses a contract's postconditions from YAML.
func mustContract(t *testing.T, yaml string) contract.Postconditions {
	t.Helper()
	pc, err := contract.Parse([]byte("postconditions:\n" + yaml))
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

// evaluate is contract.Evaluate without screenshot classes, counting its
// calls.
func evaluate(calls *int) func(contract.Postconditions, *contract.Observation) contract.Verdict {
	return func(pc contract.Postconditions, obs *contract.Observation) contract.Verdict {
		*calls++
		return contract.Evaluate(pc, *obs, nil)
	}
}

// Regrade gives each stored Observation the verdict of its task's
// contract as it is now, decides the outcome again, and warns of every
// result it keeps as it was and every verdict the stored Observation
// cannot speak for; the run it read is left as it was.
func TestRegrade(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shot-d.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := func() *contract.Observation {
		return &contract.Observation{URL: "https://a.test/done", Elements: map[string]contract.Elements{
			"h1": {Count: 1, Texts: []string{"Saved and more"}, TextsCut: true, Contains: map[string]contract.Hit{"Saved": {Match: 1}}},
		}}
	}
	answered := Stop{Kind: StopAnswer}
	old := &Run{GitSHA: "abc", Settings: Settings{Repeat: 1}, Results: []TaskResult{
		{Task: "a", Outcome: OutcomePassed, Stop: answered, Observation: done()},
		{Task: "b", Outcome: OutcomePassed, Stop: answered, Observation: done()},
		{Task: "c", Outcome: OutcomeError, Reason: "the browser died"},
		{Task: "d", Outcome: OutcomeFailed, Stop: answered, Observation: done()},
		{Task: "e", Outcome: OutcomePassed, Stop: answered, Observation: done()},
	}}
	old.Results[3].Observation.Screenshot.File = "shot-d.png"
	old.Results[4].Observation.Screenshot.File = "shot-e.png"
	how := Regrading{Suite: "suites/now", Dir: dir, Contracts: map[string]contract.Postconditions{
		// a: a paragraph the stored Observation never read.
		"a": mustContract(t, "  - {kind: url, pattern: 'done$'}\n  - {kind: dom_text, selector: p, contains: Saved}\n"),
		// c has no Observation; d now holds; e asks what was cut.
		"c": mustContract(t, "  - {kind: url, pattern: 'done$'}\n"),
		"d": mustContract(t, "  - {kind: url, pattern: 'done$'}\n  - {kind: dom_text, selector: h1, contains: Saved}\n"),
		"e": mustContract(t, "  - {kind: dom_text, selector: h1, contains: more}\n  - {kind: screenshot_class, class_id: done, distance_max: 4}\n"),
	}}
	var calls int
	how.Evaluate = evaluate(&calls)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run, changes := Regrade(old, Regraded{From: "r.json", FromGitSHA: "abc", At: at}, how)

	if want := []string{"a: passed -> failed", "d: failed -> passed", "e: passed -> failed"}; !slices.Equal(changes, want) {
		t.Errorf("changes %q, want %q", changes, want)
	}
	if calls != 3 {
		t.Errorf("%d verdicts reached, want 3 (a, d and e)", calls)
	}
	if r := run.Regraded; r == nil || r.From != "r.json" || r.At != at || r.Changed != 3 {
		t.Fatalf("Regraded %+v, want from r.json at %v with 3 changed", r, at)
	}
	wantWarnings := []string{
		`a: the contract names selector "p", which the stored Observation lacks (undecided, so failed; a new run would capture it)`,
		"b: not in the suite at suites/now; kept as it was",
		"c: error with no stored Observation; kept as it was",
		`e: the contract looks for "more" in "h1", which the stored Observation has no answer for and whose texts it cut (undecided, so failed)`,
		"e: the contract has a screenshot_class clause but the stored Observation has no screenshot hash",
		"e: screenshot shot-e.png not found beside the report; the new report has none",
	}
	if !slices.Equal(run.Regraded.Warnings, wantWarnings) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(run.Regraded.Warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
	if a := run.Results[0]; a.Failed.String() != "postconditions[1] (dom_text)" {
		t.Errorf("a failed at %q, want postconditions[1] (dom_text)", a.Failed.String())
	}
	if d := run.Results[3].Observation.Screenshot; string(d.PNG) != "png" || d.File != "shot-d.png" {
		t.Errorf("d's screenshot %q in %q, want the stored one", d.PNG, d.File)
	}
	if e := run.Results[4].Observation.Screenshot; e.File != "" {
		t.Errorf("e's screenshot is still named %q though its file is gone", e.File)
	}
	for i, r := range old.Results {
		if r.Outcome != []Outcome{OutcomePassed, OutcomePassed, OutcomeError, OutcomeFailed, OutcomePassed}[i] || old.Regraded != nil ||
			(r.Observation != nil && (r.Observation.Screenshot.PNG != nil || (i == 4 && r.Observation.Screenshot.File == ""))) {
			t.Errorf("the run read was changed: %s is %s, Regraded %v", r.Task, r.Outcome, old.Regraded)
		}
	}
}

// A run that repeated its tasks names each attempt.
func TestRegradeNamesAttempts(t *testing.T) {
	t.Parallel()
	obs := &contract.Observation{URL: "https://a.test/"}
	old := &Run{Settings: Settings{Repeat: 2}, Results: []TaskResult{
		{Task: "a", Attempt: 1, Outcome: OutcomePassed, Stop: Stop{Kind: StopAnswer}, Observation: obs},
		{Task: "a", Attempt: 2, Outcome: OutcomePassed, Stop: Stop{Kind: StopAnswer}},
	}}
	var calls int
	how := Regrading{Evaluate: evaluate(&calls), Contracts: map[string]contract.Postconditions{
		"a": mustContract(t, "  - {kind: url, pattern: 'done$'}\n"),
	}}
	run, changes := Regrade(old, Regraded{}, how)
	if !slices.Equal(changes, []string{"a#1: passed -> failed"}) || !slices.Equal(run.Regraded.Warnings, []string{"a#2: passed with no stored Observation; kept as it was"}) {
		t.Errorf("changes %q and warnings %q, want a#1 changed and a#2 kept", changes, run.Regraded.Warnings)
	}
}
