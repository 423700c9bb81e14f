package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"contractbench/internal/llm"
	"contractbench/internal/transcript"
)

// waitsOf returns the waits of the first turns turns of an attempt paced
// by pace over p.
func waitsOf(pace Pace, p llm.Provider, task string, attempt, turns int) []time.Duration {
	cfg := &config{Spec: &Spec{Pace: &pace}}
	pp := cfg.pacedProvider(p, task, attempt)
	var out []time.Duration
	for turn := range turns {
		out = append(out, pp.next(turn))
	}
	return out
}

// A jittered pace is drawn from the seed, the task and the attempt: the
// same three wait the same, another attempt or seed waits otherwise, and
// every wait lies within the jitter of the pace.
func TestPaceJitterIsSeeded(t *testing.T) {
	pace := Pace{Fixed: 3 * time.Second, Jitter: time.Second, Seed: 7}
	a := waitsOf(pace, nil, "task-a", 1, 50)
	if b := waitsOf(pace, nil, "task-a", 1, 50); !slices.Equal(a, b) {
		t.Errorf("the same seed, task and attempt waited %v, then %v", a, b)
	}
	for _, other := range [][]time.Duration{
		waitsOf(pace, nil, "task-a", 2, 50),
		waitsOf(pace, nil, "task-b", 1, 50),
		waitsOf(Pace{Fixed: 3 * time.Second, Jitter: time.Second, Seed: 8}, nil, "task-a", 1, 50),
	} {
		if slices.Equal(a, other) {
			t.Errorf("another attempt, task or seed waited the same %v", a)
		}
	}
	for _, d := range a {
		if d < 2*time.Second || d > 4*time.Second {
			t.Errorf("a wait of %s, outside 3s ± 1s", d)
		}
	}
	for _, d := range waitsOf(Pace{Fixed: 100 * time.Millisecond, Jitter: time.Second, Seed: 1}, nil, "t", 1, 200) {
		if d < 0 {
			t.Fatalf("a wait of %s: a jittered wait never goes below zero", d)
		}
	}
}

// A model's run recorded through the runner keeps each turn's think time:
// the first call of a turn carries the time from the request to the reply,
// the turn's other calls zero, the final answer its own turn's; the
// transcript written and read back says the same, and a paced replay of
// it waits those times, turn by turn.
func TestRecordedThinkTimesPaceTheReplay(t *testing.T) {
	var clock time.Time
	model := &steppingModel{clock: &clock, think: []time.Duration{1500 * time.Millisecond, 2 * time.Second, 700 * time.Millisecond}}
	rec := transcript.NewRecorder(transcript.Header{Task: "t", TaskDigest: "sha256:" + strings.Repeat("a", 64), Server: "builtin",
		RecordedBy: transcript.RecordedBy(llm.NameAnthropic, "m"), Model: "m", Created: time.Unix(0, 0)})
	p := &timed{Provider: model, rec: rec, now: func() time.Time { return clock }}
	ctx := context.Background()
	// Turn 1 asks for two calls, turn 2 for one, turn 3 answers.
	for turn, calls := range []int{2, 1, 0} {
		if _, err := p.Next(ctx, llm.Request{}); err != nil {
			t.Fatal(err)
		}
		for range calls {
			if err := rec.Call("navigate", json.RawMessage(`{}`), false, 10); err != nil {
				t.Fatal(err)
			}
		}
		if turn == 2 {
			if err := rec.Final("done"); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := transcript.Write(&buf, rec.Transcript()); err != nil {
		t.Fatal(err)
	}
	written := buf.String()
	tr, err := transcript.Read(&buf, "recorded")
	if err != nil {
		t.Fatal(err)
	}
	if !transcript.HasThinkTimes(tr) {
		t.Fatalf("the transcript read back has no think times:\n%s", written)
	}
	want := []time.Duration{1500 * time.Millisecond, 0, 2 * time.Second, 700 * time.Millisecond}
	got := waitsOf(Pace{Recorded: true}, llm.NewReplay(tr, tr.Header.TaskDigest), "t", 1, 4)
	if !slices.Equal(got, want) {
		t.Errorf("the paced replay waits %v; want the recorded %v", got, want)
	}
	// A reference transcript records none, and a replay of it paced by
	// the recording waits nothing.
	ref := &transcript.Transcript{Calls: []transcript.Call{{Seq: 1}}, Final: &transcript.Final{}}
	if transcript.HasThinkTimes(ref) {
		t.Error("a transcript without think_ms says it has think times")
	}
	if got := waitsOf(Pace{Recorded: true}, llm.NewReplay(ref, ""), "t", 1, 2); !slices.Equal(got, []time.Duration{0, 0}) {
		t.Errorf("a replay without think times waits %v; want nothing", got)
	}
}

// steppingModel answers at once, moving clock on by its think times in
// turn.
type steppingModel struct {
	clock *time.Time
	think []time.Duration
	turn  int
}

func (m *steppingModel) Name() string  { return llm.NameAnthropic }
func (m *steppingModel) Model() string { return "m" }
func (m *steppingModel) Next(context.Context, llm.Request) (llm.Response, error) {
	*m.clock = m.clock.Add(m.think[m.turn])
	m.turn++
	return llm.Response{}, nil
}
