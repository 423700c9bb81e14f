package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// maxLineBytes bounds one transcript line. Tool arguments are small (a URL,
// a selector, a short script); a longer line is far more likely a corrupted
// file than a real call.
const maxLineBytes = 8 << 20

// The JSON shapes of the three line types. Required numbers are pointers so
// that a missing field is told apart from a zero.
type headerLine struct {
	Type       string `json:"type"`
	Schema     string `json:"schema"`
	Task       string `json:"task"`
	TaskDigest string `json:"task_digest"`
	Server     string `json:"server"`
	RecordedBy string `json:"recorded_by"`
	Model      string `json:"model"`
	Created    string `json:"created"`
}

type callLine struct {
	Type          string          `json:"type"`
	Seq           *int            `json:"seq"`
	Tool          string          `json:"tool"`
	Args          json.RawMessage `json:"args"`
	ArgsDigest    string          `json:"args_digest_sha256"`
	ResponseKind  string          `json:"response_kind"`
	ResponseBytes *int            `json:"response_bytes"`
	ThinkMS       *int64          `json:"think_ms,omitempty"`
}

type finalLine struct {
	Type    string  `json:"type"`
	Answer  *string `json:"answer"`
	ThinkMS *int64  `json:"think_ms,omitempty"`
}

// thinkOf returns the think time a line's think_ms gives (nil without
// one), refusing a negative one.
func thinkOf(ms *int64) (*time.Duration, error) {
	if ms == nil {
		return nil, nil
	}
	if *ms < 0 {
		return nil, fmt.Errorf("think_ms %d is negative", *ms)
	}
	d := time.Duration(*ms) * time.Millisecond
	return &d, nil
}

// thinkMS is the think_ms of a line for think time d (nil for none).
func thinkMS(d *time.Duration) *int64 {
	if d == nil {
		return nil
	}
	ms := d.Milliseconds()
	return &ms
}

// Read parses a transcript and checks that it is well formed. name is used
// in errors only. A malformed file yields a *ParseError saying name, line
// and what is wrong; a call whose digest does not match its args is not
// malformed (see VerifyDigests and the package doc).
func Read(r io.Reader, name string) (*Transcript, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var (
		t          Transcript
		haveHeader bool
		line       int
	)
	for sc.Scan() {
		line++
		if err := readLine(&t, &haveHeader, bytes.TrimSuffix(sc.Bytes(), []byte("\r"))); err != nil {
			return nil, &ParseError{Name: name, Line: line, Msg: err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{Name: name, Line: line + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLineBytes)}
		}
		return nil, fmt.Errorf("transcript %s: %w", name, err)
	}
	if !haveHeader {
		return nil, &ParseError{Name: name, Msg: "empty transcript: missing header"}
	}
	return &t, nil
}

// readLine checks one line against what came before it and adds it to t.
func readLine(t *Transcript, haveHeader *bool, b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return errors.New("empty line")
	}
	if t.Final != nil {
		return errors.New("content after the final line")
	}
	kind, err := lineType(b)
	if err != nil {
		return err
	}
	if kind != "header" && !*haveHeader {
		return fmt.Errorf("missing header: the first line is a %q line", kind)
	}
	switch kind {
	case "header":
		if *haveHeader {
			return errors.New("a second header line; the header comes once, first")
		}
		h, err := parseHeader(b)
		if err != nil {
			return err
		}
		t.Header = h
		*haveHeader = true
	case "call":
		c, err := parseCall(b, len(t.Calls)+1)
		if err != nil {
			return err
		}
		t.Calls = append(t.Calls, c)
	case "final":
		var fl finalLine
		if err := decodeStrict(b, &fl); err != nil {
			return fmt.Errorf("final: %w", err)
		}
		if fl.Answer == nil {
			return errors.New("final: answer is missing")
		}
		think, err := thinkOf(fl.ThinkMS)
		if err != nil {
			return fmt.Errorf("final: %w", err)
		}
		t.Final = &Final{Answer: *fl.Answer, Think: think}
	default:
		return fmt.Errorf("unknown line type %q, want header, call or final", kind)
	}
	return nil
}

// lineType checks that b is one JSON object without duplicate keys and
// returns its "type".
func lineType(b []byte) (string, error) {
	if !json.Valid(b) {
		return "", fmt.Errorf("not JSON: %v", syntaxError(b))
	}
	if !isJSONObject(b) {
		return "", fmt.Errorf("a line must be a JSON object, got %s", describeJSON(b))
	}
	// Duplicate keys would let two readers see two different lines; the
	// canonical encoder refuses them.
	if _, err := canonicalJSON(b); err != nil {
		return "", err
	}
	var probe struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return "", fmt.Errorf("type: %v", describeDecodeError(err))
	}
	if probe.Type == nil {
		return "", errors.New("type is missing")
	}
	return *probe.Type, nil
}

func parseHeader(b []byte) (Header, error) {
	var hl headerLine
	if err := decodeStrict(b, &hl); err != nil {
		return Header{}, fmt.Errorf("header: %w", err)
	}
	if hl.Schema != transcriptSchema {
		return Header{}, fmt.Errorf("header: schema %q, want %q", hl.Schema, transcriptSchema)
	}
	h := Header{
		Task:       hl.Task,
		TaskDigest: hl.TaskDigest,
		Server:     hl.Server,
		RecordedBy: hl.RecordedBy,
		Model:      hl.Model,
	}
	if err := checkHeader(h); err != nil {
		return Header{}, err
	}
	created, err := time.Parse(time.RFC3339, hl.Created)
	if err != nil {
		return Header{}, fmt.Errorf("header: created %q is not an RFC 3339 time", hl.Created)
	}
	h.Created = created
	return h, nil
}

func parseCall(b []byte, want int) (Call, error) {
	var cl callLine
	if err := decodeStrict(b, &cl); err != nil {
		return Call{}, fmt.Errorf("call: %w", err)
	}
	switch {
	case cl.Seq == nil:
		return Call{}, errors.New("call: seq is missing")
	case cl.Args == nil:
		return Call{}, errors.New("call: args is missing")
	case cl.ResponseBytes == nil:
		return Call{}, errors.New("call: response_bytes is missing")
	}
	think, err := thinkOf(cl.ThinkMS)
	if err != nil {
		return Call{}, fmt.Errorf("call: %w", err)
	}
	c := Call{
		Seq:           *cl.Seq,
		Tool:          cl.Tool,
		Args:          cl.Args,
		ArgsDigest:    cl.ArgsDigest,
		ResponseKind:  ResponseKind(cl.ResponseKind),
		ResponseBytes: *cl.ResponseBytes,
		Think:         think,
	}
	if err := checkCall(c, want); err != nil {
		return Call{}, err
	}
	return c, nil
}

// decodeStrict decodes one line into v, refusing fields v does not name.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describeDecodeError(err)
	}
	return nil
}

// describeDecodeError rewrites encoding/json's messages, which speak of Go
// types, in terms of the file's fields.
func describeDecodeError(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Errorf("field %q: got a JSON %s, want %s", typeErr.Field, typeErr.Value, jsonKind(typeErr.Type.Kind().String()))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return errors.New(msg)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int64":
		return "an integer"
	case "string":
		return "a string"
	}
	return "another type"
}
