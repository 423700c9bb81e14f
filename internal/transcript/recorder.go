package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Recorder accumulates a transcript while a task runs. The agent loop calls
// Call after every tool call and Final once with the answer; the runner then
// writes the file with WriteFile. A Recorder is safe for concurrent use.
type Recorder struct {
	mu sync.Mutex
	t  Transcript
	// timed says that Think has been called: from then on every call and
	// the final answer carry a think time, think the next one's.
	timed bool
	think time.Duration
}

// NewRecorder starts a transcript with header h. The header is checked when
// the transcript is written, so a recorder can be created before every
// header field is final.
func NewRecorder(h Header) *Recorder {
	return &Recorder{t: Transcript{Header: h}}
}

// Think records the model's think time of the turn whose reply comes
// next: from its request to its reply. The first call that reply asks
// for (or its final answer) carries it, the turn's other calls zero.
// A recorder that is never told a think time records none, as a
// reference solution's or an outside agent's transcript.
func (r *Recorder) Think(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timed, r.think = true, max(d, 0)
}

// taken returns the think time the next line carries, nil when the
// recorder keeps none, and leaves zero for the lines after it.
func (r *Recorder) taken() *time.Duration {
	if !r.timed {
		return nil
	}
	d := r.think
	r.think = 0
	return &d
}

// Call records the next tool call: its tool, its arguments (a JSON object;
// empty means {}), whether the tool answered with an error, and the size of
// the response in bytes. Arguments are stored in canonical form with their
// digest.
func (r *Recorder) Call(tool string, args json.RawMessage, isError bool, responseBytes int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	seq := len(r.t.Calls) + 1
	if r.t.Final != nil {
		return fmt.Errorf("record call %d (%s): transcript already has its final answer", seq, tool)
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	canonical, err := canonicalJSON(args)
	if err != nil {
		return fmt.Errorf("record call %d (%s): args: %w", seq, tool, err)
	}
	digest, err := ArgsDigest(canonical)
	if err != nil {
		return fmt.Errorf("record call %d (%s): args: %w", seq, tool, err)
	}
	kind := ResponseOK
	if isError {
		kind = ResponseError
	}
	c := Call{
		Seq:           seq,
		Tool:          tool,
		Args:          canonical,
		ArgsDigest:    digest,
		ResponseKind:  kind,
		ResponseBytes: responseBytes,
	}
	if err := checkCall(c, seq); err != nil {
		return fmt.Errorf("record call %d: %w", seq, err)
	}
	c.Think = r.taken()
	r.t.Calls = append(r.t.Calls, c)
	return nil
}

// Final records the agent's final answer. It may be called once.
func (r *Recorder) Final(answer string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.t.Final != nil {
		return errors.New("record final answer: transcript already has one")
	}
	r.t.Final = &Final{Answer: answer, Think: r.taken()}
	return nil
}

// Transcript returns a copy of what has been recorded so far.
func (r *Recorder) Transcript() *Transcript {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := Transcript{Header: r.t.Header}
	t.Calls = make([]Call, len(r.t.Calls))
	for i, c := range r.t.Calls {
		c.Args = append(json.RawMessage(nil), c.Args...)
		c.Think = copyDuration(c.Think)
		t.Calls[i] = c
	}
	if r.t.Final != nil {
		f := *r.t.Final
		f.Think = copyDuration(f.Think)
		t.Final = &f
	}
	return &t
}

// WriteFile writes the transcript recorded so far to path, atomically (see
// the package-level WriteFile).
func (r *Recorder) WriteFile(path string) error {
	return WriteFile(path, r.Transcript())
}

// copyDuration returns a copy of *d (nil for nil).
func copyDuration(d *time.Duration) *time.Duration {
	if d == nil {
		return nil
	}
	v := *d
	return &v
}
