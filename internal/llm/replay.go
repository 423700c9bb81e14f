package llm

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"contractbench/internal/transcript"
)

// DriftError says that a replay no longer matches its recording. The runner
// reports it as replay_drift; the remedy is to re-record the transcript. Seq
// is the recorded call concerned, 0 when the transcript as a whole is.
//
// Stale says that the recording could not be replayed at all: checked as a
// whole before its first call (task spec changed, a call edited by hand, a
// tool the server no longer offers), nothing of it ran, so the browser's
// final state says nothing about the agent.
type DriftError struct {
	Reason string
	Seq    int
	Stale  bool
}

func (e *DriftError) Error() string {
	if e.Seq > 0 {
		return fmt.Sprintf("replay drift at seq %d: %s", e.Seq, e.Reason)
	}
	return "replay drift: " + e.Reason
}

// maxResultQuote bounds how much of an unexpected tool result a DriftError
// quotes: enough to see why a call failed, not a page dump.
const maxResultQuote = 200

// replayer plays the model's part from a transcript: each Next checks the
// result of the call it emitted last against the recording, then emits the
// next recorded call; after the last call it emits the recorded final
// answer. The calls really run, so the browser ends where the recording
// says only if the web still behaves as it did.
type replayer struct {
	t          *transcript.Transcript
	taskDigest string

	mu      sync.Mutex
	emitted int  // calls emitted so far
	done    bool // the final answer was emitted
	checked bool // the transcript as a whole was checked
}

// NewReplay returns a provider replaying t for the task whose current spec
// digests to taskDigest. It costs nothing: every Usage is zero.
func NewReplay(t *transcript.Transcript, taskDigest string) Provider {
	return &replayer{t: t, taskDigest: taskDigest}
}

// Name implements Provider.
func (r *replayer) Name() string { return NameReplay }

// Model returns the model that made the recording (empty for a reference
// transcript).
func (r *replayer) Model() string { return r.t.Header.Model }

// ThinkTime returns the think time the recording gives turn (counting
// from 0: the turn of call turn+1, or of the final answer after the last
// call), and false when it records none for that turn (see
// transcript.HasThinkTimes).
func (r *replayer) ThinkTime(turn int) (time.Duration, bool) {
	var d *time.Duration
	switch {
	case turn >= 0 && turn < len(r.t.Calls):
		d = r.t.Calls[turn].Think
	case turn == len(r.t.Calls) && r.t.Final != nil:
		d = r.t.Final.Think
	}
	if d == nil {
		return 0, false
	}
	return *d, true
}

// callID returns the tool call ID replay gives recorded call seq.
func callID(seq int) string { return "call_" + strconv.Itoa(seq) }

// Next implements Provider. Drift is returned as a *DriftError; misuse (a
// request that does not answer the call just emitted, or a Next after the
// final answer) as a plain error.
func (r *replayer) Next(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return Response{}, errors.New("replay: the transcript's final answer was already given")
	}
	if !r.checked {
		if err := r.checkTranscript(req.Tools); err != nil {
			return Response{}, err
		}
		r.checked = true
	}
	if r.emitted > 0 {
		if err := r.checkResult(req); err != nil {
			return Response{}, err
		}
	}
	if r.emitted < len(r.t.Calls) {
		c := r.t.Calls[r.emitted]
		r.emitted++
		return Response{
			ToolCalls:  []ToolCall{{ID: callID(c.Seq), Name: c.Tool, Args: argsOrEmpty(c.Args)}},
			StopReason: "tool_use",
		}, nil
	}
	if r.t.Final == nil {
		return Response{}, &DriftError{Seq: len(r.t.Calls), Reason: "the recording ends without a final answer"}
	}
	r.done = true
	return Response{Text: r.t.Final.Answer, StopReason: "end_turn"}, nil
}

// checkTranscript reports drift that concerns the recording as a whole, at
// the first step, before any call runs: a task spec changed since
// recording, a hand-edited call, or a recorded tool the server no longer
// offers. Running half a task against a recording already known to be
// stale would only produce a confusing verdict.
func (r *replayer) checkTranscript(tools []Tool) error {
	h := r.t.Header
	if h.TaskDigest != r.taskDigest {
		return &DriftError{Stale: true, Reason: fmt.Sprintf("the transcript is stale: it was recorded for task digest %s, and what the task asks of the agent (instruction, start URL or allowed tools) now digests to %s; re-record it", h.TaskDigest, r.taskDigest)}
	}
	if err := transcript.VerifyDigests(r.t); err != nil {
		var mismatch *transcript.DigestMismatchError
		if errors.As(err, &mismatch) {
			return &DriftError{Seq: mismatch.Seq, Stale: true, Reason: fmt.Sprintf("args digest mismatch: the line says args_digest_sha256 %s, but its args hash to %s (the call was edited after recording)", mismatch.Recorded, mismatch.Computed)}
		}
		return fmt.Errorf("replay: %w", err)
	}
	offered := make(map[string]bool, len(tools))
	for _, t := range tools {
		offered[t.Name] = true
	}
	for _, c := range r.t.Calls {
		if !offered[c.Tool] {
			return &DriftError{Seq: c.Seq, Stale: true, Reason: fmt.Sprintf("recorded tool %q is not offered by the server", c.Tool)}
		}
	}
	return nil
}

// checkResult compares the result of the call emitted last with the
// recording.
func (r *replayer) checkResult(req Request) error {
	c := r.t.Calls[r.emitted-1]
	id := callID(c.Seq)
	var result *ToolResult
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == RoleUser {
		for i, res := range req.Messages[n-1].ToolResults {
			if res.CallID == id {
				result = &req.Messages[n-1].ToolResults[i]
				break
			}
		}
	}
	if result == nil {
		return fmt.Errorf("replay: the request does not end with the result of %s (seq %d, %s)", id, c.Seq, c.Tool)
	}
	got := transcript.ResponseOK
	if result.IsError {
		got = transcript.ResponseError
	}
	if got != c.ResponseKind {
		return &DriftError{Seq: c.Seq, Reason: fmt.Sprintf("%s answered %s, the recording says %s: %s", c.Tool, got, c.ResponseKind, quote(result.Content))}
	}
	return nil
}

// quote quotes the start of a tool result for a drift message, cut at a
// rune boundary.
func quote(s string) string {
	if len(s) > maxResultQuote {
		cut := maxResultQuote
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}
