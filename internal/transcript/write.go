package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Write encodes t as JSONL. It refuses a transcript that Read would reject
// or whose digests do not match, so that nothing this package writes is
// drift by construction. Args are written in canonical form, which makes a
// recording byte-for-byte reproducible.
func Write(w io.Writer, t *Transcript) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Answers and args are read by people in review; "<" should stay "<".
	enc.SetEscapeHTML(false)

	if err := checkHeader(t.Header); err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	if t.Header.Created.IsZero() {
		return errors.New("write transcript: header: created is not set")
	}
	for i, c := range t.Calls {
		if err := checkCall(c, i+1); err != nil {
			return fmt.Errorf("write transcript: %w", err)
		}
	}
	if err := VerifyDigests(t); err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	if err := enc.Encode(headerLine{
		Type:       "header",
		Schema:     transcriptSchema,
		Task:       t.Header.Task,
		TaskDigest: t.Header.TaskDigest,
		Server:     t.Header.Server,
		RecordedBy: t.Header.RecordedBy,
		Model:      t.Header.Model,
		Created:    t.Header.Created.Format(time.RFC3339),
	}); err != nil {
		return fmt.Errorf("write transcript: header: %w", err)
	}
	for _, c := range t.Calls {
		args, err := canonicalJSON(c.Args)
		if err != nil {
			return fmt.Errorf("write transcript: seq %d: args: %w", c.Seq, err)
		}
		seq, n := c.Seq, c.ResponseBytes
		if err := enc.Encode(callLine{
			Type:          "call",
			Seq:           &seq,
			Tool:          c.Tool,
			Args:          args,
			ArgsDigest:    c.ArgsDigest,
			ResponseKind:  string(c.ResponseKind),
			ResponseBytes: &n,
			ThinkMS:       thinkMS(c.Think),
		}); err != nil {
			return fmt.Errorf("write transcript: seq %d: %w", c.Seq, err)
		}
	}
	if t.Final != nil {
		answer := t.Final.Answer
		if err := enc.Encode(finalLine{Type: "final", Answer: &answer, ThinkMS: thinkMS(t.Final.Think)}); err != nil {
			return fmt.Errorf("write transcript: final: %w", err)
		}
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	return nil
}

// WriteFile writes t to path atomically: the bytes go to a temporary file in
// the same directory, which is renamed over path only once complete, so a
// crash never leaves a half-written transcript that a later replay would
// misread. Missing parent directories are created.
func WriteFile(path string, t *Transcript) error {
	var buf bytes.Buffer
	if err := Write(&buf, t); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write transcript: %w", err)
	}
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write transcript %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write transcript: %w", err)
	}
	return nil
}
