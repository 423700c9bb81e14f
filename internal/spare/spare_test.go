package spare

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// fake replaces the clock's sources for one test: the wall clock and the
// idle count move only when the test says.
type fake struct {
	wall time.Time
	idle time.Duration
	ok   bool
}

func useFake(t *testing.T) *fake {
	f := &fake{wall: time.Unix(1e9, 0), ok: true}
	oldNow, oldIdle := now, readIdle
	now = func() time.Time { return f.wall }
	readIdle = func() (time.Duration, bool) { return f.idle, f.ok }
	t.Cleanup(func() { now, readIdle = oldNow, oldIdle })
	return f
}

// pass moves the wall clock by wall and the machine's idle count by idle
// (all processors together).
func (f *fake) pass(wall, idle time.Duration) {
	f.wall = f.wall.Add(wall)
	f.idle += idle
}

func TestElapsedIsWallTimeWithAProcessorFree(t *testing.T) {
	cases := []struct {
		name       string
		wall, idle time.Duration
		want       time.Duration
	}{
		{"two processors idle", time.Second, 2 * time.Second, time.Second},
		{"one processor idle", time.Second, time.Second, time.Second},
		{"a quarter of the time free", 4 * time.Second, 2 * time.Second, 2 * time.Second},
		{"no processor free: the wall time divided by stretch", 4 * time.Second, 0, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := useFake(t)
			c := Start()
			f.pass(tc.wall, tc.idle)
			if got := c.Elapsed(); got != tc.want {
				t.Errorf("Elapsed = %v, want %v", got, tc.want)
			}
			if got, want := c.Left(3*time.Second), max(3*time.Second-tc.want, 0); got != want {
				t.Errorf("Left(3s) = %v, want %v", got, want)
			}
		})
	}
}

func TestWithoutAnIdleCountSpareTimeIsWallTime(t *testing.T) {
	f := useFake(t)
	f.ok = false
	c := Start()
	f.pass(3*time.Second, 0)
	if got := c.Elapsed(); got != 3*time.Second {
		t.Errorf("Elapsed = %v, want the wall time, 3s", got)
	}
}

// TestWithTimeoutStretchesOnABusyMachine: with no processor free, a bound
// passes after stretch times its wall time, never sooner, and says it
// passed; the wall clock here is the real one, so only the lower bound is
// checked.
func TestWithTimeoutStretchesOnABusyMachine(t *testing.T) {
	oldIdle := readIdle
	readIdle = func() (time.Duration, bool) { return time.Hour, true }
	t.Cleanup(func() { readIdle = oldIdle })
	const d = 20 * time.Millisecond
	start := time.Now()
	ctx, cancel := WithTimeout(context.Background(), d)
	defer cancel()
	<-ctx.Done()
	if took := time.Since(start); took < stretch*d {
		t.Errorf("the bound passed after %v of wall time, want at least %v", took, stretch*d)
	}
	if !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		t.Errorf("Cause = %v, want context.DeadlineExceeded", context.Cause(ctx))
	}
}

func TestWithTimeoutEndsWithItsParentAndItsCancel(t *testing.T) {
	parent, stop := context.WithCancel(context.Background())
	ctx, cancel := WithTimeout(parent, time.Hour)
	defer cancel()
	stop()
	<-ctx.Done()
	if !errors.Is(context.Cause(ctx), context.Canceled) {
		t.Errorf("Cause = %v after the parent ended, want context.Canceled", context.Cause(ctx))
	}
	ctx, cancel = WithTimeout(context.Background(), time.Hour)
	cancel()
	<-ctx.Done()
	if !errors.Is(context.Cause(ctx), context.Canceled) {
		t.Errorf("Cause = %v after cancel, want context.Canceled", context.Cause(ctx))
	}
}

func TestTheKernelsIdleCount(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/stat is Linux's")
	}
	a, ok := procStatIdle()
	if !ok || a <= 0 {
		t.Fatalf("procStatIdle = %v, %v; want a positive count", a, ok)
	}
	time.Sleep(50 * time.Millisecond)
	if b, _ := procStatIdle(); b < a {
		t.Errorf("the idle count went back, from %v to %v", a, b)
	}
}
