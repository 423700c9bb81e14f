package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Baseline is the committed CI gate of a suite (baseline.json): the tasks
// that must pass and their number. The package documentation explains why
// the count equals the number of tasks.
type Baseline struct {
	ExpectedPassCount int      `json:"expected_pass_count"`
	Tasks             []string `json:"tasks"`
	Note              string   `json:"note,omitempty"`
}

// LoadBaseline reads and validates the baseline file at path. Decoding is
// strict: unknown fields, a missing expected_pass_count or tasks, trailing
// data, empty or repeated task names, and a count different from the number
// of tasks are errors that name the file and the field.
func LoadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	b, err := parseBaseline(data)
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	return b, nil
}

func parseBaseline(data []byte) (*Baseline, error) {
	// Pointers tell a missing field from a zero one.
	var doc struct {
		ExpectedPassCount *int      `json:"expected_pass_count"`
		Tasks             *[]string `json:"tasks"`
		Note              string    `json:"note"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, locate(data, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("line %d: unexpected data after the baseline object", lineAt(data, dec.InputOffset()))
	}
	switch {
	case doc.ExpectedPassCount == nil:
		return nil, errors.New("expected_pass_count: missing")
	case doc.Tasks == nil:
		return nil, errors.New("tasks: missing")
	case len(*doc.Tasks) == 0:
		return nil, errors.New("tasks: empty; a baseline that covers no task gates nothing")
	}
	b := &Baseline{ExpectedPassCount: *doc.ExpectedPassCount, Tasks: *doc.Tasks, Note: doc.Note}
	first := map[string]int{}
	for i, t := range b.Tasks {
		if strings.TrimSpace(t) == "" {
			return nil, fmt.Errorf("tasks[%d]: empty task name", i)
		}
		if j, dup := first[t]; dup {
			return nil, fmt.Errorf("tasks[%d]: %q repeats tasks[%d]", i, t, j)
		}
		first[t] = i
	}
	if b.ExpectedPassCount != len(b.Tasks) {
		return nil, fmt.Errorf("expected_pass_count: %d, but tasks lists %d; the gate requires every listed task to pass, so the two must be equal",
			b.ExpectedPassCount, len(b.Tasks))
	}
	return b, nil
}

// locate adds the line to a JSON decoding error where encoding/json knows
// the offset, and names the field of a type error.
func locate(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("line %d: %w", lineAt(data, syn.Offset), err)
	case errors.As(err, &typ):
		return fmt.Errorf("line %d: %s: want %s, got JSON %s", lineAt(data, typ.Offset), typ.Field, typ.Type, typ.Value)
	case errors.Is(err, io.EOF):
		return errors.New("empty file")
	}
	return err
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// gateFailure is one reason a run does not meet its baseline.
type gateFailure struct {
	// Task is the covered task that failed; empty for a failure of the
	// run as a whole (a run with a TrustLabel).
	Task string
	// Attempt is the failing attempt when the task ran more than once,
	// 0 otherwise.
	Attempt int
	// Outcome is the result's outcome; empty when the task did not run.
	Outcome Outcome
	// Clause is the failing clause, if any.
	Clause *Clause
	// Evidence summarizes what the failing clause expected and saw, or
	// gives the reason of a result that was not judged by its contract.
	Evidence string
}

// String is the line CI prints, for example
//
//	task-01-example-com-title: failed | failed_postcondition: postconditions[0] (url) | expected url matching ^https://example\.com/$, saw https://wrong.example/
func (f gateFailure) String() string {
	if f.Task == "" {
		return "run: " + f.Evidence
	}
	var b strings.Builder
	b.WriteString(f.Task)
	if f.Attempt > 0 {
		fmt.Fprintf(&b, " (attempt %d)", f.Attempt)
	}
	b.WriteString(": ")
	if f.Outcome == "" {
		b.WriteString("not run")
	} else {
		b.WriteString(string(f.Outcome))
	}
	if f.Clause != nil {
		b.WriteString(" | failed_postcondition: " + f.Clause.String())
	}
	if f.Evidence != "" {
		b.WriteString(" | " + f.Evidence)
	}
	return b.String()
}

// gateFailures checks r against b and returns every failure, in baseline task order
// and then attempt order (a run labelled with a Trust first); none means
// the gate passed. Every covered task
// must have a result, and every result of a covered task must be passed
// without replay drift: drift is never tolerated, even beside a passing
// contract. Tasks the baseline does not cover are not gated.
func gateFailures(b *Baseline, r *Run) []gateFailure {
	byTask := map[string][]*TaskResult{}
	for i := range r.Results {
		res := &r.Results[i]
		byTask[res.Task] = append(byTask[res.Task], res)
	}
	var out []gateFailure
	if trust := trustLabel(r); trust != "" {
		// Whatever its results, a run whose agent held raw browser access
		// proves nothing the gate protects.
		out = append(out, gateFailure{Evidence: "trust: " + trust + ": " + UnrestrictedNote})
	}
	for _, task := range b.Tasks {
		results := byTask[task]
		if len(results) == 0 {
			out = append(out, gateFailure{Task: task, Evidence: "covered by the baseline but absent from the run"})
			continue
		}
		for _, res := range results {
			if res.Outcome.Passed() && res.Drift() == "" {
				continue
			}
			f := gateFailure{Task: task, Outcome: res.Outcome, Clause: res.Failed}
			if len(results) > 1 {
				f.Attempt = res.Attempt
			}
			var why []string
			if res.Failed != nil {
				if ev := evidenceSummary(failingEvidence(res)); ev != "" {
					why = append(why, ev)
				}
			}
			if res.Reason != "" {
				why = append(why, bound(res.Reason))
			}
			if drift := res.Drift(); drift != "" {
				why = append(why, "replay drift: "+bound(drift))
			}
			f.Evidence = strings.Join(why, " | ")
			out = append(out, f)
		}
	}
	return out
}
