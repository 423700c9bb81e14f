package runner

import (
	"strings"
	"testing"
	"time"

	"contractbench/internal/report"
)

// Progress writes a line for each attempt done; on a terminal it also
// shows the call under way on a line it writes over, and erases it before
// the next line and at the end.
func TestProgress(t *testing.T) {
	t.Parallel()
	done := &report.TaskResult{Outcome: report.OutcomePassed, DurationMS: 1200, ToolCalls: 3}
	events := []Event{
		{Task: "a", Step: "start"},
		{Task: "a", Step: "call", Seq: 1, Tool: "navigate", Elapsed: 1500 * time.Millisecond},
		{Task: "a", Step: "done", Result: done},
		{Task: "b", Step: "call", Seq: 2, Tool: "click", Elapsed: 250 * time.Millisecond},
	}
	for _, tc := range []struct {
		live bool
		want string
	}{
		{false, "[1/2] a: passed (1200 ms, 3 tool calls)\n"},
		{true, "\r\033[K[0/2] a: step 1 navigate (1.5s)" +
			"\r\033[K[1/2] a: passed (1200 ms, 3 tool calls)\n" +
			"\r\033[K[1/2] b: step 2 click (0.2s)" +
			"\r\033[K"},
	} {
		var out strings.Builder
		p := NewProgress(&out, 2, tc.live)
		for _, e := range events {
			p.Event(e)
		}
		p.Clear()
		if out.String() != tc.want {
			t.Errorf("live %v: wrote %q, want %q", tc.live, out.String(), tc.want)
		}
	}
}
