package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"contractbench/internal/contract"
)

// jsonReport is the JSON form: the Run's fields, schema_version first, and
// then the Summary derived from them.
type jsonReport struct {
	*Run
	Summary Summary `json:"summary"`
}

// WriteJSON writes r as indented JSON with a trailing newline. Field order
// is fixed by the types and map keys are sorted, so equal runs give equal
// bytes (see reporttest.Normalize). Times are RFC 3339. HTML is not escaped: selectors
// and page text stay readable.
func WriteJSON(w io.Writer, r *Run) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(jsonReport{Run: r, Summary: Summarize(r)}); err != nil {
		return fmt.Errorf("report json: %w", err)
	}
	return nil
}

// ReadJSON decodes a Run written by WriteJSON, so a stored run can be
// compared, merged or re-graded; a report of schema_version 1 is upgraded.
// It rejects unknown fields, other schema versions and unknown outcomes.
// The summary is recomputed by whoever needs it, never trusted from the
// file.
func ReadJSON(rd io.Reader) (*Run, error) {
	var doc struct {
		Run
		Results []v1Result      `json:"results"`
		Summary json.RawMessage `json:"summary"`
	}
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	err := dec.Decode(&doc)
	// The decoder reads on past an unknown field, and a newer version's
	// fields are unknown here: its version is what to name.
	version := doc.SchemaVersion
	if version != SchemaVersion && version != 1 && (err == nil || version != 0) {
		return nil, fmt.Errorf("report json: schema_version: %d is not the supported %d (or 1, which is upgraded)", version, SchemaVersion)
	}
	if err != nil {
		return nil, fmt.Errorf("report json: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("report json: unexpected data after the report")
	}
	r := &doc.Run
	r.SchemaVersion, r.Results = SchemaVersion, make([]TaskResult, len(doc.Results))
	for i, old := range doc.Results {
		res := &r.Results[i]
		*res = old.TaskResult
		if version == 1 {
			*res = old.upgrade()
		} else if old.FailedPostcondition != "" || old.FailedPath != "" || old.FailedKind != "" || old.Drift != "" {
			return nil, fmt.Errorf("report json: results[%d]: failed_postcondition, failed_path, failed_kind and drift are fields of schema_version 1", i)
		}
		if !res.Outcome.Valid() {
			return nil, fmt.Errorf("report json: results[%d].outcome: unknown outcome %q", i, res.Outcome)
		}
		// Arguments come back as indented in the file; compact, they
		// are again the bytes the agent sent.
		for j, c := range res.Calls {
			if len(c.Args) > 0 {
				var b bytes.Buffer
				if err := json.Compact(&b, c.Args); err != nil {
					return nil, fmt.Errorf("report json: results[%d].calls[%d].args: %w", i, j, err)
				}
				res.Calls[j].Args = b.Bytes()
			}
		}
	}
	return r, nil
}

// v1Result is a result as schema_version 1 wrote it: the failed clause as a
// string beside its path and kind, the drift in a field of its own, and the
// rest of how the agent stopped and what tainted it only in the reason.
type v1Result struct {
	TaskResult
	FailedPostcondition string        `json:"failed_postcondition,omitempty"`
	FailedPath          string        `json:"failed_path,omitempty"`
	FailedKind          contract.Kind `json:"failed_kind,omitempty"`
	Drift               string        `json:"drift,omitempty"`
}

// upgrade returns the result as schema_version 2 records it, its outcome
// and reason as written. The failed clause is the one that version's views
// named, failed_postcondition. The stop and the taint are read back from
// the outcome, the drift and the reason, which it wrote from them with the
// sentences Decide still gives: the stop's words, the web misses, the
// taint, the trust label's sentence and the tamper signals, joined by "; ".
func (v v1Result) upgrade() TaskResult {
	r := v.TaskResult
	if v.FailedPostcondition != "" {
		path, kind, _ := strings.Cut(v.FailedPostcondition, " (")
		r.Failed = &Clause{Path: path, Kind: contract.Kind(strings.TrimSuffix(kind, ")"))}
	}
	rest := r.Reason
	for _, sig := range slices.Backward(TamperSignals(r.Observation)) {
		rest = cutReason(rest, tamperReason+sig)
	}
	rest = cutReason(rest, unrestrictedReason)
	if m := v1Taint.FindStringSubmatch(rest); m != nil {
		seq, _ := strconv.Atoi(m[2])
		r.Taint, rest = &Taint{Seq: seq, Tool: m[3], Why: m[4]}, strings.TrimSuffix(rest, m[0])
	}
	rest = cutReason(rest, "replay misses: "+strings.Join(r.WebMisses, ", "))
	r.Stop = Stop{Kind: StopAnswer}
	switch {
	case v.Drift != "":
		r.Stop = Stop{Kind: StopDrift, Error: v.Drift, Stale: rest == staleReason+v.Drift}
	case r.Outcome == OutcomeInterrupted:
		r.Stop.Kind = StopInterrupted
	case r.Outcome == OutcomeError:
		r.Stop = Stop{Kind: StopError, Error: rest}
	case r.Outcome == OutcomeTimeout || rest == timeoutReason:
		r.Stop.Kind = StopTimeout
	case r.Outcome == OutcomeBudgetExceeded || r.Outcome == OutcomeTainted && rest != r.Verdict().Why():
		r.Stop = Stop{Kind: StopBudget, Error: rest}
	}
	return r
}

// v1Taint is a taint's sentence at the end of a version 1 reason.
var v1Taint = regexp.MustCompile(`(^|; )call (\d+) used (.+?), which (.*): ` + taintedReason + `$`)

// cutReason returns reason without last when reason ends with that part.
func cutReason(reason, last string) string {
	if reason == last {
		return ""
	}
	return strings.TrimSuffix(reason, "; "+last)
}
