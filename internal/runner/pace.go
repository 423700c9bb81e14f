package runner

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"contractbench/internal/llm"
	"contractbench/internal/transcript"
)

// Pace is how long a replayed agent waits before each model turn, as the
// model it replays would have thought: a run at a model's rhythm without
// a model. The wait is the agent's time: it lies between tool calls, in
// the task's duration and in none of its calls' durations, as a model's
// reply would.
type Pace struct {
	// Recorded waits each turn's think time as the transcript recorded
	// it (transcript.HasThinkTimes); a turn without one waits nothing.
	Recorded bool
	// Fixed is the wait before each turn when Recorded is false.
	Fixed time.Duration
	// Jitter adds to each wait a uniform offset in [-Jitter, +Jitter]
	// (a wait never goes below zero), drawn from Seed, the task's ID and
	// the attempt: the same run waits the same.
	Jitter time.Duration
	Seed   uint64
}

// On reports whether p waits at all.
func (p Pace) On() bool { return p.Recorded || p.Fixed > 0 || p.Jitter > 0 }

// String is the pace as a report states it: "recorded", "3s" or
// "3s ±500ms, seed 1"; "" when p waits nothing.
func (p Pace) String() string {
	if !p.On() {
		return ""
	}
	s := p.Fixed.String()
	if p.Recorded {
		s = "recorded think times"
	}
	if p.Jitter > 0 {
		s += fmt.Sprintf(" ±%s, seed %d", p.Jitter, p.Seed)
	}
	return s
}

// thinkTimes is what a provider that replays a recording offers to pace
// it by its recorded think times (llm.Replay does).
type thinkTimes interface {
	ThinkTime(turn int) (time.Duration, bool)
}

// paced is a provider that waits before each of its turns.
type paced struct {
	llm.Provider
	pace Pace
	rng  *rand.Rand
	wait func(context.Context, time.Duration) error
	turn int
}

// pacedProvider returns p waiting before each turn as the run's pace
// says, for attempt attempt of task task.
func (cfg *config) pacedProvider(p llm.Provider, task string, attempt int) *paced {
	h := fnv.New64a()
	h.Write([]byte(task))
	return &paced{Provider: p, pace: *cfg.Pace, rng: rand.New(rand.NewPCG(cfg.Pace.Seed^h.Sum64(), uint64(attempt))), wait: cfg.Wait}
}

// next is how long turn waits.
func (p *paced) next(turn int) time.Duration {
	d := p.pace.Fixed
	if p.pace.Recorded {
		d = 0
		if tt, ok := p.Provider.(thinkTimes); ok {
			d, _ = tt.ThinkTime(turn)
		}
	}
	if j := p.pace.Jitter; j > 0 {
		d += time.Duration(p.rng.Int64N(int64(2*j)+1)) - j
	}
	return max(d, 0)
}

// Next waits the turn's pace, then asks the provider. A run stopped or a
// task timed out during the wait ends the turn with the context's error.
func (p *paced) Next(ctx context.Context, req llm.Request) (llm.Response, error) {
	d := p.next(p.turn)
	p.turn++
	if err := p.wait(ctx, d); err != nil {
		return llm.Response{}, err
	}
	return p.Provider.Next(ctx, req)
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// timed is a model's provider whose turns' think times go into the
// transcript being recorded: from each request to its reply.
type timed struct {
	llm.Provider
	rec *transcript.Recorder
	now func() time.Time
}

// Next asks the provider and records how long it took.
func (t *timed) Next(ctx context.Context, req llm.Request) (llm.Response, error) {
	start := t.now()
	resp, err := t.Provider.Next(ctx, req)
	t.rec.Think(t.now().Sub(start))
	return resp, err
}

// agentProvider is the provider the agent loop of the task drives: the
// task's own, paced when the run paces its replays, and timed into the
// transcript when it is a model's whose run is recorded.
func (r *taskRun) agentProvider(rec *transcript.Recorder) llm.Provider {
	p := r.provider
	switch p.Name() {
	case llm.NameAnthropic, llm.NameOpenAI:
		if rec != nil {
			p = &timed{Provider: p, rec: rec, now: r.cfg.Now}
		}
	case llm.NameReplay:
		if r.cfg.Pace != nil && r.cfg.Pace.On() {
			p = r.cfg.pacedProvider(p, r.task.ID, r.attempt)
		}
	}
	return p
}
