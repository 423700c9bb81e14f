package runner

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestAdmissionAdmitsUpToItsSlots: set-ups beyond the slots wait for one
// to leave, and a waiting one gives up with its context.
func TestAdmissionAdmitsUpToItsSlots(t *testing.T) {
	t.Parallel()
	a := newAdmission(2, nil)
	ctx := context.Background()
	for range 2 {
		if err := a.enter(ctx); err != nil {
			t.Fatal(err)
		}
	}
	third := make(chan error, 1)
	go func() { third <- a.enter(ctx) }()
	select {
	case err := <-third:
		t.Fatalf("a third set-up was admitted beside two (err %v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	a.leave()
	if err := <-third; err != nil {
		t.Fatalf("the third set-up after one left: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := a.enter(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("enter with an ended context and no slot: %v, want context.Canceled", err)
	}
}

// TestAdmissionWaitsForMemory: with too little memory available a set-up
// waits while another runs, and is admitted once memory is there; alone,
// it is admitted whatever the memory, so a run never stops.
func TestAdmissionWaitsForMemory(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	free := uint64(memFloor - 1)
	a := newAdmission(8, func() (uint64, bool) {
		mu.Lock()
		defer mu.Unlock()
		return free, true
	})
	ctx := context.Background()
	if err := a.enter(ctx); err != nil {
		t.Fatalf("the first set-up, alone, on a machine short of memory: %v", err)
	}
	second := make(chan error, 1)
	go func() { second <- a.enter(ctx) }()
	select {
	case <-second:
		t.Fatal("a second set-up was admitted with too little memory available")
	case <-time.After(50 * time.Millisecond):
	}
	mu.Lock()
	free = memFloor
	mu.Unlock()
	if err := <-second; err != nil {
		t.Fatal(err)
	}
}

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	wakes []wake
}

type wake struct {
	at time.Time
	ch chan time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.wakes = append(c.wakes, wake{c.now.Add(d), ch})
	return ch
}

// advance moves the clock by d and wakes what waited up to then.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var left []wake
	for _, w := range c.wakes {
		if !w.at.After(c.now) {
			w.ch <- c.now
		} else {
			left = append(left, w)
		}
	}
	c.wakes = left
	c.mu.Unlock()
}

// waiting reports whether something waits on the clock.
func (c *fakeClock) waiting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.wakes) > 0
}

// settle waits until the context's watcher waits on the clock again, or
// has ended the context.
func settle(t *testing.T, c *fakeClock, ctx context.Context) {
	t.Helper()
	for range 1000 {
		if ctx.Err() != nil || c.waiting() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the watcher neither waits nor ended the context")
}

// TestProgressContextMeasuresProgress: a judge that keeps hearing from
// the browser goes on past any budget of idle time, however slow each
// step; one that hears nothing for idle ends with DeadlineExceeded; and
// limit bounds the whole.
func TestProgressContextMeasuresProgress(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	var mu sync.Mutex
	heard := clock.Now()
	hear := func() {
		mu.Lock()
		heard = clock.Now()
		mu.Unlock()
	}
	lastHeard := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return heard
	}
	ctx, cancel := progressContext(context.Background(), lastHeard, 20*time.Second, 10*time.Minute, clock.Now, clock.After)
	defer cancel()
	// Three minutes of slow steps, each answered within the idle bound.
	for range 12 {
		settle(t, clock, ctx)
		clock.advance(15 * time.Second)
		hear()
	}
	settle(t, clock, ctx)
	if err := ctx.Err(); err != nil {
		t.Fatalf("after 3 minutes of steps 15 s apart: %v, want the judge still going", err)
	}
	clock.advance(19 * time.Second)
	settle(t, clock, ctx)
	if err := ctx.Err(); err != nil {
		t.Fatalf("19 s after the last sign of progress: %v, want still going", err)
	}
	clock.advance(time.Second)
	settle(t, clock, ctx)
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("20 s after the last sign of progress: %v, want DeadlineExceeded", err)
	}
	<-ctx.Done()

	// A browser that never stops talking is bounded by limit.
	ctx2, cancel2 := progressContext(context.Background(), clock.Now, 20*time.Second, time.Minute, clock.Now, clock.After)
	defer cancel2()
	for range 5 {
		settle(t, clock, ctx2)
		clock.advance(15 * time.Second)
	}
	settle(t, clock, ctx2)
	if err := ctx2.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("past the limit: %v, want DeadlineExceeded", err)
	}

	// The parent's end is the context's.
	parent, stop := context.WithCancel(context.Background())
	ctx3, cancel3 := progressContext(parent, lastHeard, time.Minute, time.Hour, clock.Now, clock.After)
	defer cancel3()
	stop()
	<-ctx3.Done()
	if !errors.Is(ctx3.Err(), context.Canceled) {
		t.Errorf("after the parent's end: %v, want context.Canceled", ctx3.Err())
	}
}
