package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A model's run keeps each turn's think time: the first call of a turn
// carries it, the turn's other calls zero, the final answer its own. The
// file says think_ms on every line after the header, and reads back the
// same.
func TestThinkTimesRoundTrip(t *testing.T) {
	rec := NewRecorder(testHeader())
	rec.Think(1234 * time.Millisecond)
	for _, tool := range []string{"navigate", "read_page"} {
		if err := rec.Call(tool, json.RawMessage(`{}`), false, 10); err != nil {
			t.Fatal(err)
		}
	}
	rec.Think(2 * time.Second)
	if err := rec.Final("done"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, rec.Transcript()); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for i, want := range []string{"", `"think_ms":1234`, `"think_ms":0`, `"think_ms":2000`} {
		if line := strings.Split(text, "\n")[i]; !strings.Contains(line, want) {
			t.Errorf("line %d %s; want %s", i+1, line, want)
		}
	}
	got, err := Read(&buf, "think")
	if err != nil {
		t.Fatal(err)
	}
	if !HasThinkTimes(got) || *got.Calls[0].Think != 1234*time.Millisecond || *got.Calls[1].Think != 0 || *got.Final.Think != 2*time.Second {
		t.Errorf("read back %+v, %+v; want 1.234s, 0 and 2s", got.Calls, got.Final)
	}
}

// A transcript recorded without think times (a reference's, or one from
// before they were kept) says none, writes none, and is still read.
func TestNoThinkTimes(t *testing.T) {
	got, err := Read(strings.NewReader(lines(headerLineText, call1Text, finalText)), "old")
	if err != nil {
		t.Fatal(err)
	}
	if HasThinkTimes(got) {
		t.Error("a transcript without think_ms says it has think times")
	}
	rec := NewRecorder(testHeader())
	if err := rec.Call("navigate", nil, false, 1); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, rec.Transcript()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "think_ms") {
		t.Errorf("a recorder never told a think time wrote one:\n%s", buf.String())
	}
}

// A negative think time is not a time.
func TestNegativeThinkTimeRefused(t *testing.T) {
	line := strings.Replace(call1Text, `"response_bytes":120`, `"response_bytes":120,"think_ms":-5`, 1)
	_, err := Read(strings.NewReader(lines(headerLineText, line)), "neg")
	if err == nil || !strings.Contains(err.Error(), "think_ms -5 is negative") {
		t.Errorf("Read = %v; want think_ms -5 refused", err)
	}
}
