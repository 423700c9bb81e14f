package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// transcriptSchema is the format version every header carries. A reader meeting any
// other value refuses the file rather than guessing at its meaning.
const transcriptSchema = "contractbench.transcript/v1"

// RecordedByReference marks a transcript written from a task's scripted
// reference solution rather than from a model's run.
const RecordedByReference = "reference"

// recordingProviders are the providers whose runs may be recorded; a header's
// recorded_by is "<provider>:<model>" for one of them.
// "exec" is an outside agent run with --agent exec.
var recordingProviders = []string{"anthropic", "openai", "exec"}

// RecordedBy returns the recorded_by value for a run of model through
// provider, e.g. "anthropic:claude-sonnet-4-6".
func RecordedBy(provider, model string) string { return provider + ":" + model }

// ResponseKind says whether a tool call answered with a result or with a
// tool error.
type ResponseKind string

// The two response kinds a call line may carry.
const (
	ResponseOK    ResponseKind = "ok"
	ResponseError ResponseKind = "error"
)

// Header is the first line of a transcript: which task, spec and server the
// calls were recorded against, and who recorded them.
type Header struct {
	Task string
	// TaskDigest is "sha256:<hex>" over the canonical task spec (see
	// TaskDigest). Replay compares it with the current spec's digest.
	TaskDigest string
	// Server names the MCP tool server the calls were made to ("builtin",
	// or a peer's name).
	Server string
	// RecordedBy is RecordedByReference or RecordedBy(provider, model).
	RecordedBy string
	// Model is the model that chose the calls; empty for a reference
	// transcript.
	Model   string
	Created time.Time
}

// Call is one recorded tool call. Seq counts from 1 in call order.
type Call struct {
	Seq  int
	Tool string
	// Args is the call's arguments, a JSON object.
	Args json.RawMessage
	// ArgsDigest is ArgsDigest(Args) as recorded: lowercase hex SHA-256.
	ArgsDigest    string
	ResponseKind  ResponseKind
	ResponseBytes int
	// Think is the model's think time before the call: from the request
	// of the turn that asked for it to the model's reply, retries
	// included. A turn that asked for several calls records its time on
	// the first and zero on the others. Nil when the transcript records
	// no think times: a reference solution, an outside agent, or a model's
	// run recorded before think times were kept (line field think_ms).
	Think *time.Duration
}

// Final is the agent's final answer, the last line of a finished transcript.
type Final struct {
	Answer string
	// Think is the model's think time before the answer, as Call.Think.
	Think *time.Duration
}

// HasThinkTimes reports whether t records the think time of every turn:
// of every call and of the final answer (when it has one). Only
// transcripts recorded from a model's run since think times were kept
// do; a replay can wait them (run --pace recorded).
func HasThinkTimes(t *Transcript) bool {
	return !slices.ContainsFunc(t.Calls, func(c Call) bool { return c.Think == nil }) && (t.Final == nil || t.Final.Think != nil)
}

// Transcript is one parsed transcript file. Final is nil when the recorded
// run ended without an answer.
type Transcript struct {
	Header Header
	Calls  []Call
	Final  *Final
}

// ParseError reports a transcript that is not well formed. Line is 1-based;
// 0 means the problem concerns the file as a whole.
type ParseError struct {
	Name string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Name, e.Msg)
}

// DigestMismatchError reports a call whose recorded args digest is not the
// digest of its recorded args: the file was edited after it was written.
type DigestMismatchError struct {
	Seq      int
	Recorded string
	Computed string
}

func (e *DigestMismatchError) Error() string {
	return fmt.Sprintf("args digest mismatch at seq %d: recorded %s, args digest to %s", e.Seq, e.Recorded, e.Computed)
}

// VerifyDigests checks every call's recorded digest against its args and
// returns a *DigestMismatchError for the first call that does not match.
func VerifyDigests(t *Transcript) error {
	for _, c := range t.Calls {
		got, err := ArgsDigest(c.Args)
		if err != nil {
			return fmt.Errorf("seq %d: args: %w", c.Seq, err)
		}
		if got != c.ArgsDigest {
			return &DigestMismatchError{Seq: c.Seq, Recorded: c.ArgsDigest, Computed: got}
		}
	}
	return nil
}

var (
	taskDigestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	argsDigestRE = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// checkHeader reports what is wrong with h, the created time aside (its
// textual form is checked where it is parsed).
func checkHeader(h Header) error {
	switch {
	case h.Task == "":
		return errors.New("header: task is missing")
	case !taskDigestRE.MatchString(h.TaskDigest):
		return fmt.Errorf("header: task_digest %q is not \"sha256:\" followed by 64 lowercase hex digits", h.TaskDigest)
	case h.Server == "":
		return errors.New("header: server is missing")
	}
	if h.RecordedBy == RecordedByReference {
		return nil
	}
	provider, model, ok := strings.Cut(h.RecordedBy, ":")
	if !ok || model == "" || !slices.Contains(recordingProviders, provider) {
		return fmt.Errorf("header: recorded_by %q is neither %q nor \"<provider>:<model>\" with provider one of %s",
			h.RecordedBy, RecordedByReference, strings.Join(recordingProviders, ", "))
	}
	if h.Model != model {
		return fmt.Errorf("header: model %q differs from the model in recorded_by %q", h.Model, h.RecordedBy)
	}
	return nil
}

// checkCall reports what is wrong with c as the call expected at seq want.
// The digest's form is checked here; its value is VerifyDigests' business.
func checkCall(c Call, want int) error {
	switch {
	case c.Seq != want:
		return fmt.Errorf("call: seq %d out of order, want %d", c.Seq, want)
	case c.Tool == "":
		return errors.New("call: tool is missing")
	case !isJSONObject(c.Args):
		return fmt.Errorf("call: args must be a JSON object, got %s", describeJSON(c.Args))
	case !argsDigestRE.MatchString(c.ArgsDigest):
		return fmt.Errorf("call: args_digest_sha256 %q is not 64 lowercase hex digits", c.ArgsDigest)
	case c.ResponseKind != ResponseOK && c.ResponseKind != ResponseError:
		return fmt.Errorf("call: response_kind %q, want %q or %q", c.ResponseKind, ResponseOK, ResponseError)
	case c.ResponseBytes < 0:
		return fmt.Errorf("call: response_bytes %d is negative", c.ResponseBytes)
	case c.Think != nil && *c.Think < 0:
		return fmt.Errorf("call: think_ms %d is negative", c.Think.Milliseconds())
	}
	if _, err := canonicalJSON(c.Args); err != nil {
		return fmt.Errorf("call: args: %w", err)
	}
	return nil
}

func isJSONObject(v json.RawMessage) bool {
	s := strings.TrimSpace(string(v))
	return strings.HasPrefix(s, "{") && json.Valid(v)
}

// describeJSON names the kind of a JSON value for error messages.
func describeJSON(v json.RawMessage) string {
	s := strings.TrimSpace(string(v))
	switch {
	case s == "":
		return "nothing"
	case s == "null":
		return "null"
	case s[0] == '[':
		return "an array"
	case s[0] == '"':
		return "a string"
	case s == "true" || s == "false":
		return "a boolean"
	case s[0] == '{':
		return "invalid JSON"
	default:
		return "a number"
	}
}
