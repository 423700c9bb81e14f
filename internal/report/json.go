package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
// compared or re-graded. It rejects unknown fields, a schema_version other
// than SchemaVersion and unknown outcomes. The summary is recomputed by
// whoever needs it, never trusted from the file.
func ReadJSON(rd io.Reader) (*Run, error) {
	var doc struct {
		Run
		Summary json.RawMessage `json:"summary"`
	}
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("report json: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("report json: unexpected data after the report")
	}
	r := &doc.Run
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("report json: schema_version: %d is not the supported %d", r.SchemaVersion, SchemaVersion)
	}
	for i, res := range r.Results {
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
