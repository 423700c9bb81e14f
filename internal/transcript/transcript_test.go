package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	testTaskDigest = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
	// digestURL is ArgsDigest(`{"url":"https://example.com/"}`).
	digestURL = "fc3bcafb91730693484452065cac4cc17786f2307976d83295ada192d2f86e8e"
	// digestEmpty is ArgsDigest(`{}`).
	digestEmpty = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
)

func testHeader() Header {
	return Header{
		Task:       "task-01-example-com-title",
		TaskDigest: testTaskDigest,
		Server:     "builtin",
		RecordedBy: RecordedBy("anthropic", "claude-sonnet-4-6"),
		Model:      "claude-sonnet-4-6",
		Created:    time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
	}
}

// Lines of a valid transcript, for building the malformed cases below.
const (
	headerLineText = `{"type":"header","schema":"contractbench.transcript/v1","task":"task-01","task_digest":"` + testTaskDigest + `","server":"builtin","recorded_by":"reference","model":"","created":"2026-11-21T10:00:00Z"}`
	call1Text      = `{"type":"call","seq":1,"tool":"navigate","args":{"url":"https://example.com/"},"args_digest_sha256":"` + digestURL + `","response_kind":"ok","response_bytes":120}`
	call2Text      = `{"type":"call","seq":2,"tool":"read_page","args":{},"args_digest_sha256":"` + digestEmpty + `","response_kind":"error","response_bytes":0}`
	finalText      = `{"type":"final","answer":"Example Domain"}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func TestRecorderRoundTrip(t *testing.T) {
	t.Parallel()
	rec := NewRecorder(testHeader())
	calls := []struct {
		tool    string
		args    string
		isError bool
		bytes   int
	}{
		{"navigate", `{ "url": "https://example.com/?q=<x>&y" }`, false, 1234},
		{"click", `{"selector":"a[href]","nth":1.0}`, true, 57},
		{"read_page", ``, false, 0},
	}
	for _, c := range calls {
		if err := rec.Call(c.tool, json.RawMessage(c.args), c.isError, c.bytes); err != nil {
			t.Fatalf("Call(%s): %v", c.tool, err)
		}
	}
	if err := rec.Final("Title: \"Example Domain\" <h1>"); err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "transcripts", "builtin", "task-01.jsonl")
	if err := rec.WriteFile(path); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	got, err := readFile(path)
	if err != nil {
		t.Fatalf("readFile: %v", err)
	}
	if err := VerifyDigests(got); err != nil {
		t.Errorf("VerifyDigests on a recorded transcript: %v", err)
	}

	want := rec.Transcript()
	if !got.Header.Created.Equal(want.Header.Created) {
		t.Errorf("created: got %v, want %v", got.Header.Created, want.Header.Created)
	}
	got.Header.Created, want.Header.Created = time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the transcript\n got %+v\nwant %+v", got, want)
	}

	wantCalls := []Call{
		{Seq: 1, Tool: "navigate", Args: json.RawMessage(`{"url":"https://example.com/?q=<x>&y"}`), ResponseKind: ResponseOK, ResponseBytes: 1234},
		{Seq: 2, Tool: "click", Args: json.RawMessage(`{"nth":1.0,"selector":"a[href]"}`), ResponseKind: ResponseError, ResponseBytes: 57},
		{Seq: 3, Tool: "read_page", Args: json.RawMessage(`{}`), ResponseKind: ResponseOK, ResponseBytes: 0},
	}
	for i, w := range wantCalls {
		c := got.Calls[i]
		if c.Seq != w.Seq || c.Tool != w.Tool || string(c.Args) != string(w.Args) || c.ResponseKind != w.ResponseKind || c.ResponseBytes != w.ResponseBytes {
			t.Errorf("call %d: got %+v (args %s), want %+v (args %s)", i+1, c, c.Args, w, w.Args)
		}
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"answer":"Title: \"Example Domain\" <h1>"`)) {
		t.Errorf("answer not written readably (no HTML escaping):\n%s", raw)
	}
	if n := bytes.Count(raw, []byte("\n")); n != 5 {
		t.Errorf("file has %d lines, want 5 (header, 3 calls, final):\n%s", n, raw)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the transcript (no temporary files left)", len(entries))
	}
}

func TestWriteFileReplacesAtomically(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte("old content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := &Transcript{Header: testHeader(), Calls: []Call{{Seq: 1, Tool: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`), ArgsDigest: digestEmpty, ResponseKind: ResponseOK}}}
	err := WriteFile(path, bad)
	var mismatch *DigestMismatchError
	if !errors.As(err, &mismatch) || mismatch.Seq != 1 {
		t.Fatalf("WriteFile with a wrong digest: error %v, want a *DigestMismatchError at seq 1", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old content\n" {
		t.Errorf("a refused write changed the file to %q", b)
	}

	if err := rehash(bad); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, bad); err != nil {
		t.Fatalf("WriteFile after Rehash: %v", err)
	}
	got, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Calls[0].ArgsDigest != digestURL {
		t.Errorf("rehashed digest %s, want %s", got.Calls[0].ArgsDigest, digestURL)
	}
}

func TestReadValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		wantCalls int
		wantFinal bool
	}{
		{"header only", lines(headerLineText), 0, false},
		{"header and final", lines(headerLineText, finalText), 0, true},
		{"calls and final", lines(headerLineText, call1Text, call2Text, finalText), 2, true},
		{"calls without final", lines(headerLineText, call1Text), 1, false},
		{"no trailing newline", headerLineText + "\n" + finalText, 0, true},
		{"CRLF line ends", headerLineText + "\r\n" + call1Text + "\r\n", 1, false},
		{"empty answer", lines(headerLineText, `{"type":"final","answer":""}`), 0, true},
		{"recorded by openai", lines(strings.Replace(strings.Replace(headerLineText, `"reference"`, `"openai:gpt-4.1"`, 1), `"model":""`, `"model":"gpt-4.1"`, 1)), 0, false},
		{"fields in any order", lines(headerLineText, `{"response_bytes":120,"response_kind":"ok","args_digest_sha256":"`+digestURL+`","args":{"url":"https://example.com/"},"tool":"navigate","seq":1,"type":"call"}`), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Read(strings.NewReader(tt.in), "t.jsonl")
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if len(got.Calls) != tt.wantCalls || (got.Final != nil) != tt.wantFinal {
				t.Errorf("got %d calls, final %v; want %d calls, final %v", len(got.Calls), got.Final != nil, tt.wantCalls, tt.wantFinal)
			}
		})
	}
}

func TestReadMalformed(t *testing.T) {
	t.Parallel()
	replace := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			panic("test fixture does not contain " + old)
		}
		return strings.Replace(s, old, new, 1)
	}
	tests := []struct {
		name     string
		in       string
		wantLine int
		wantMsg  string
	}{
		{"empty file", "", 0, "empty transcript: missing header"},
		{"missing header", lines(call1Text), 1, `missing header: the first line is a "call" line`},
		{"final before header", lines(finalText), 1, `missing header: the first line is a "final" line`},
		{"second header", lines(headerLineText, call1Text, headerLineText), 3, "a second header line"},
		{"unknown type", lines(headerLineText, `{"type":"note","text":"hi"}`), 2, `unknown line type "note"`},
		{"type missing", lines(headerLineText, `{"seq":1}`), 2, "type is missing"},
		{"type not a string", lines(headerLineText, `{"type":7}`), 2, `field "type": got a JSON number`},
		{"not JSON", lines(headerLineText, `{"type":"call",`), 2, "not JSON"},
		{"not an object", lines(headerLineText, `[1,2]`), 2, "a line must be a JSON object, got an array"},
		{"empty line", lines(headerLineText, "", call1Text), 2, "empty line"},
		{"duplicate key", lines(headerLineText, replace(call1Text, `"seq":1,`, `"seq":1,"seq":1,`)), 2, `duplicate key "seq"`},
		{"unknown header field", lines(replace(headerLineText, `"server"`, `"extra":1,"server"`)), 1, `header: unknown field "extra"`},
		{"unknown call field", lines(headerLineText, replace(call1Text, `"tool"`, `"latency_ms":5,"tool"`)), 2, `call: unknown field "latency_ms"`},
		{"unknown final field", lines(headerLineText, `{"type":"final","answer":"x","score":1}`), 2, `final: unknown field "score"`},
		{"wrong schema", lines(replace(headerLineText, "transcript/v1", "transcript/v2")), 1, `schema "contractbench.transcript/v2"`},
		{"task missing", lines(replace(headerLineText, `"task":"task-01",`, ``)), 1, "header: task is missing"},
		{"task digest malformed", lines(replace(headerLineText, testTaskDigest, "md5:abc")), 1, `task_digest "md5:abc"`},
		{"server missing", lines(replace(headerLineText, `"server":"builtin",`, ``)), 1, "header: server is missing"},
		{"recorded_by unknown", lines(replace(headerLineText, `"reference"`, `"me"`)), 1, `recorded_by "me"`},
		{"recorded_by unknown provider", lines(replace(headerLineText, `"reference"`, `"acme:m1"`)), 1, `recorded_by "acme:m1"`},
		{"model disagrees with recorded_by", lines(replace(headerLineText, `"reference"`, `"anthropic:claude-sonnet-4-6"`)), 1, `model "" differs from the model in recorded_by`},
		{"created not RFC 3339", lines(replace(headerLineText, "2026-11-21T10:00:00Z", "21 Nov 2026")), 1, `created "21 Nov 2026" is not an RFC 3339 time`},
		{"seq starts at 2", lines(headerLineText, replace(call1Text, `"seq":1`, `"seq":2`)), 2, "seq 2 out of order, want 1"},
		{"seq repeats", lines(headerLineText, call1Text, replace(call2Text, `"seq":2`, `"seq":1`)), 3, "seq 1 out of order, want 2"},
		{"seq missing", lines(headerLineText, replace(call1Text, `"seq":1,`, ``)), 2, "call: seq is missing"},
		{"seq not a number", lines(headerLineText, replace(call1Text, `"seq":1`, `"seq":"1"`)), 2, `field "seq": got a JSON string, want an integer`},
		{"seq fractional", lines(headerLineText, replace(call1Text, `"seq":1`, `"seq":1.5`)), 2, `field "seq": got a JSON number 1.5, want an integer`},
		{"tool missing", lines(headerLineText, replace(call1Text, `"tool":"navigate",`, ``)), 2, "call: tool is missing"},
		{"args missing", lines(headerLineText, replace(call1Text, `"args":{"url":"https://example.com/"},`, ``)), 2, "call: args is missing"},
		{"args an array", lines(headerLineText, replace(call1Text, `{"url":"https://example.com/"}`, `["x"]`)), 2, "args must be a JSON object, got an array"},
		{"args null", lines(headerLineText, replace(call1Text, `{"url":"https://example.com/"}`, `null`)), 2, "args must be a JSON object, got null"},
		{"digest not hex", lines(headerLineText, replace(call1Text, digestURL, "xyz")), 2, `args_digest_sha256 "xyz" is not 64 lowercase hex digits`},
		{"digest uppercase", lines(headerLineText, replace(call1Text, digestURL, strings.ToUpper(digestURL))), 2, "is not 64 lowercase hex digits"},
		{"response kind unknown", lines(headerLineText, replace(call1Text, `"response_kind":"ok"`, `"response_kind":"timeout"`)), 2, `response_kind "timeout", want "ok" or "error"`},
		{"response bytes missing", lines(headerLineText, replace(call1Text, `,"response_bytes":120`, ``)), 2, "call: response_bytes is missing"},
		{"response bytes negative", lines(headerLineText, replace(call1Text, `"response_bytes":120`, `"response_bytes":-1`)), 2, "response_bytes -1 is negative"},
		{"final answer missing", lines(headerLineText, `{"type":"final"}`), 2, "final: answer is missing"},
		{"call after final", lines(headerLineText, finalText, call1Text), 3, "content after the final line"},
		{"second final", lines(headerLineText, finalText, finalText), 3, "content after the final line"},
		{"line too long", lines(headerLineText, `{"type":"final","answer":"`+strings.Repeat("x", maxLineBytes)+`"}`), 2, "line longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Read(strings.NewReader(tt.in), "task-01.jsonl")
			if err == nil {
				t.Fatalf("Read accepted a malformed transcript: %+v", got)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *ParseError", err, err)
			}
			if pe.Name != "task-01.jsonl" || pe.Line != tt.wantLine {
				t.Errorf("error at %s:%d, want task-01.jsonl:%d (%v)", pe.Name, pe.Line, tt.wantLine, err)
			}
			if !strings.Contains(pe.Msg, tt.wantMsg) {
				t.Errorf("error %q, want it to contain %q", err, tt.wantMsg)
			}
			prefix := "task-01.jsonl: "
			if tt.wantLine > 0 {
				prefix = "task-01.jsonl:" + strconv.Itoa(tt.wantLine) + ": "
			}
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
		})
	}
}

// A well-formed call whose digest does not match its args is not a parse
// error: Read accepts it and VerifyDigests reports it with its seq, so that
// replay can call it drift.
func TestDigestMismatchIsNotAParseError(t *testing.T) {
	t.Parallel()
	edited := strings.Replace(call1Text, "https://example.com/", "https://wrong.example/", 1)
	tr, err := Read(strings.NewReader(lines(headerLineText, edited, call2Text, finalText)), "t.jsonl")
	if err != nil {
		t.Fatalf("Read rejected a hand-edited but well-formed transcript: %v", err)
	}
	err = VerifyDigests(tr)
	var mismatch *DigestMismatchError
	if !errors.As(err, &mismatch) {
		t.Fatalf("VerifyDigests: %v, want a *DigestMismatchError", err)
	}
	if mismatch.Seq != 1 || mismatch.Recorded != digestURL {
		t.Errorf("mismatch at seq %d recorded %s; want seq 1 recorded %s", mismatch.Seq, mismatch.Recorded, digestURL)
	}
	if !strings.Contains(err.Error(), "args digest mismatch at seq 1") {
		t.Errorf("error %q does not say where", err)
	}
}

func TestRecorderRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		do      func(r *Recorder) error
		wantErr string
	}{
		{"args not JSON", func(r *Recorder) error { return r.Call("navigate", json.RawMessage(`{url}`), false, 0) }, "record call 1 (navigate): args"},
		{"args not an object", func(r *Recorder) error { return r.Call("navigate", json.RawMessage(`"x"`), false, 0) }, "args must be a JSON object"},
		{"tool empty", func(r *Recorder) error { return r.Call("", nil, false, 0) }, "tool is missing"},
		{"negative bytes", func(r *Recorder) error { return r.Call("navigate", nil, false, -5) }, "negative"},
		{"call after final", func(r *Recorder) error {
			if err := r.Final("done"); err != nil {
				return err
			}
			return r.Call("navigate", nil, false, 0)
		}, "already has its final answer"},
		{"second final", func(r *Recorder) error {
			if err := r.Final("a"); err != nil {
				return err
			}
			return r.Final("b")
		}, "already has one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.do(NewRecorder(testHeader()))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestWriteRefusesBadHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		edit    func(h *Header)
		wantErr string
	}{
		{"no created time", func(h *Header) { h.Created = time.Time{} }, "created is not set"},
		{"no task", func(h *Header) { h.Task = "" }, "task is missing"},
		{"bad task digest", func(h *Header) { h.TaskDigest = "abc" }, "task_digest"},
		{"bad recorded_by", func(h *Header) { h.RecordedBy = "someone" }, "recorded_by"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := testHeader()
			tt.edit(&h)
			var buf bytes.Buffer
			err := Write(&buf, &Transcript{Header: h})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Write error %v, want one containing %q", err, tt.wantErr)
			}
			if buf.Len() != 0 {
				t.Errorf("a refused Write still wrote %q", buf.String())
			}
		})
	}
}

// FuzzRead checks that Read never panics and that whatever it accepts
// survives a write and a re-read unchanged.
func FuzzRead(f *testing.F) {
	f.Add(lines(headerLineText, call1Text, call2Text, finalText))
	f.Add(lines(headerLineText, call1Text))
	f.Add(lines(headerLineText, `{"type":"call","seq":1,"tool":"x","args":{"b":[1,{"a":"\u00e9"}]},"args_digest_sha256":"`+digestEmpty+`","response_kind":"ok","response_bytes":0}`))
	f.Add(lines(call1Text))
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		tr, err := Read(strings.NewReader(in), "fuzz.jsonl")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Read error %v is not a *ParseError", err)
			}
			return
		}
		if VerifyDigests(tr) != nil {
			if err := rehash(tr); err != nil {
				t.Fatalf("Rehash of an accepted transcript: %v", err)
			}
		}
		var first bytes.Buffer
		if err := Write(&first, tr); err != nil {
			t.Fatalf("Write of an accepted transcript: %v", err)
		}
		again, err := Read(bytes.NewReader(first.Bytes()), "rewritten.jsonl")
		if err != nil {
			t.Fatalf("Read of written transcript: %v\n%s", err, first.Bytes())
		}
		var second bytes.Buffer
		if err := Write(&second, again); err != nil {
			t.Fatalf("second Write: %v", err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("write is not stable:\n%s\n%s", first.Bytes(), second.Bytes())
		}
	})
}

// readFile reads and checks the transcript at path (transcripttest.ReadFile,
// which this package's own tests cannot import).
func readFile(path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// rehash sets every call's digest to that of its args
// (transcripttest.Rehash).
func rehash(t *Transcript) error {
	for i := range t.Calls {
		d, err := ArgsDigest(t.Calls[i].Args)
		if err != nil {
			return err
		}
		t.Calls[i].ArgsDigest = d
	}
	return nil
}
