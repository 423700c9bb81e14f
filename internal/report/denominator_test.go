package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
)

func TestImpossibleTagIsTheGeneratorsKind(t *testing.T) {
	if want := "kind:" + string(generate.KindImpossible); impossibleTag != want {
		t.Fatalf("impossibleTag = %q, the generator tags %q", impossibleTag, want)
	}
}

// noiseRun has every kind of attempt: a cannot-be-done task handled, one
// refused without the reason, one written to; a doable write task done
// and one where nothing was written; a harness error, an interruption and
// an attempt never run.
func noiseRun() *Run {
	post := contract.NetworkEntry{URL: "https://shop.test/orders", Method: "POST", Status: 303}
	early := contract.NetworkEntry{URL: "https://shop.test/warm", Method: "POST", Status: 200, BeforeFirstToolCall: true}
	get := contract.NetworkEntry{URL: "https://shop.test/", Method: "GET", Status: 200}
	obs := func(n ...contract.NetworkEntry) *contract.Observation { return &contract.Observation{Network: n} }
	imp := []string{"app:shop", impossibleTag}
	return &Run{
		Settings: Settings{Tasks: []string{"i1", "i2", "i3", "w1", "w2", "e1", "x1", "n1"}},
		Results: []TaskResult{
			{Task: "i1", Tags: imp, Attempt: 1, Outcome: OutcomePassed, Observation: obs(get, early)},
			{Task: "i2", Tags: imp, Attempt: 1, Outcome: OutcomeFailed, Observation: obs(get)},
			{Task: "i3", Tags: imp, Attempt: 1, Outcome: OutcomeFailed, Observation: obs(get, post)},
			{Task: "w1", RequiresWrite: true, Attempt: 1, Outcome: OutcomePassed, Observation: obs(get, post)},
			{Task: "w2", RequiresWrite: true, Attempt: 1, Outcome: OutcomeTimeout, Observation: obs(get)},
			{Task: "e1", RequiresWrite: true, Attempt: 1, Outcome: OutcomeError},
			{Task: "x1", Attempt: 1, Outcome: OutcomeInterrupted},
		},
		Incomplete: true,
	}
}

func TestDenominatorAndCannotBeDone(t *testing.T) {
	s := Summarize(noiseRun())
	wantD := Denominator{Passed: 2, Failed: 3, HarnessError: 1, Interrupted: 1, NotRun: 1, Counts: scoreCounts}
	if s.Denominator != wantD {
		t.Errorf("denominator %+v, want %+v", s.Denominator, wantD)
	}
	if s.Total != wantD.Passed+wantD.Failed+wantD.HarnessError {
		t.Errorf("score counts %d, the denominator says %d", s.Total, wantD.Passed+wantD.Failed+wantD.HarnessError)
	}
	// The error has no Observation: it counts as a write attempt, but
	// not as one that wrote nothing, since nothing is known of it.
	wantC := CannotBeDone{Impossible: 3, Handled: 1, ImpossibleUnwritten: 2, Write: 3, WroteNothing: 1}
	if s.CannotBeDone == nil || *s.CannotBeDone != wantC {
		t.Fatalf("cannot be done %+v, want %+v", s.CannotBeDone, wantC)
	}

	var md, html, js bytes.Buffer
	r := noiseRun()
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"passed 2, failed 3, harness error 1, interrupted 1, not run 1 (of 8 asked)",
		"cannot be done: handled 1 / 3 (33.3%)",
		"doable write tasks with nothing written: 1 / 3 (33.3%)",
		incompleteBanner,
	} {
		for name, view := range map[string]string{"markdown": md.String(), "html": html.String()} {
			if !strings.Contains(view, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	var doc struct {
		Summary struct {
			Denominator  map[string]any `json:"denominator"`
			CannotBeDone map[string]int `json:"cannot_be_done"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary.Denominator["harness_error"] != 1.0 || doc.Summary.Denominator["not_run"] != 1.0 || doc.Summary.CannotBeDone["wrote_nothing"] != 1 {
		t.Errorf("JSON summary %+v", doc.Summary)
	}
}

func TestFlipRateAndFewAttempts(t *testing.T) {
	res := func(task string, attempt int, o Outcome) TaskResult {
		return TaskResult{Task: task, Attempt: attempt, Outcome: o}
	}
	for _, tc := range []struct {
		name    string
		results []TaskResult
		flipped int
		rate    float64
		warn    bool
	}{
		{"two attempts", []TaskResult{
			res("a", 1, OutcomePassed), res("a", 2, OutcomeFailed),
			res("b", 1, OutcomePassed), res("b", 2, OutcomePassed),
		}, 1, 0.5, true},
		{"three attempts", []TaskResult{
			res("a", 1, OutcomePassed), res("a", 2, OutcomePassed), res("a", 3, OutcomePassed),
			res("b", 1, OutcomeFailed), res("b", 2, OutcomeTimeout), res("b", 3, OutcomeFailed),
			res("c", 1, OutcomeFailed), res("c", 2, OutcomePassed), res("c", 3, OutcomeFailed),
			res("d", 1, OutcomePassed), res("d", 2, OutcomeFailed), res("d", 3, OutcomePassed),
		}, 2, 0.5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Run{Settings: Settings{Repeat: 3}, Results: tc.results}
			pk := Summarize(r).PassK
			if pk == nil || pk.Flipped != tc.flipped || pk.FlipRate != tc.rate || (pk.Warning != "") != tc.warn {
				t.Fatalf("PassK %+v, want %d flipped (%v), warning %v", pk, tc.flipped, tc.rate, tc.warn)
			}
			var md, html bytes.Buffer
			if err := WriteMarkdown(&md, r); err != nil {
				t.Fatal(err)
			}
			if err := WriteHTML(&html, r); err != nil {
				t.Fatal(err)
			}
			for _, v := range []string{md.String(), html.String()} {
				if !strings.Contains(v, "lip rate") || strings.Contains(v, "fewer than 3") != tc.warn {
					t.Errorf("view lacks the flip rate or gets the warning wrong:\n%s", v[:min(len(v), 3000)])
				}
			}
		})
	}
}
