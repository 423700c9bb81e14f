// Package spare measures time as a busy machine gives it: wall time during
// which a processor was free, as the kernel's count of idle time tells it. A bound on how long to wait for
// the browser (a frame, a page's clock, a page going quiet) that counts
// spare time holds on a quiet machine exactly as it would in wall time,
// and stretches on a machine whose processors are all taken, by the run's
// own tasks or by someone else's work: there the browser was late for
// want of a processor, and a wait for it should not run out sooner than it
// would have on a quiet machine. However busy the machine, a bound of d
// passes after at most four times d of wall time, so a wait for
// something that never comes still ends.
//
// Spare time is read from the kernel's count of idle processor time
// (/proc/stat, idle and iowait), so it is the time of the machine the
// harness runs on; where there is no such count (not Linux) it is wall
// time.
package spare

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"time"
)

// stretch is how far a bound may stretch on a machine with no processor
// free: a bound of d passes after at most stretch×d of wall time.
const stretch = 4

// Clock measures spare time from the moment it was started.
type Clock struct {
	wall time.Time
	idle time.Duration
	ok   bool // the kernel counts idle time
}

// Start starts a clock.
func Start() Clock {
	idle, ok := readIdle()
	return Clock{wall: now(), idle: idle, ok: ok}
}

// Elapsed is the spare time since the clock started: the idle time of the
// machine's processors since then, added up, but no more than the wall
// time (one processor free all along) and no less than the wall time
// divided by stretch.
func (c Clock) Elapsed() time.Duration {
	wall := now().Sub(c.wall)
	if !c.ok {
		return wall
	}
	idle, ok := readIdle()
	if !ok {
		return wall
	}
	return max(min(wall, idle-c.idle), wall/stretch)
}

// Left is how much of a bound of d is left, zero once it has passed.
// Spare time never passes faster than wall time, so a wait of Left never
// waits past the bound.
func (c Clock) Left(d time.Duration) time.Duration {
	return max(d-c.Elapsed(), 0)
}

// WithTimeout returns a context that ends with parent, or once d of spare
// time has passed; then its Err is context.Canceled and its Cause
// context.DeadlineExceeded.
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	c := Start()
	go func() {
		for {
			left := c.Left(d)
			if left == 0 {
				cancel(context.DeadlineExceeded)
				return
			}
			t := time.NewTimer(max(left, minWait))
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}

// minWait is the least WithTimeout waits before it reads the clock again:
// the kernel counts idle time in ticks of 10 ms.
const minWait = 10 * time.Millisecond

// The clock's sources; tests replace them.
var (
	now      = time.Now
	readIdle = procStatIdle
)

// userHZ is the unit of /proc/stat's times, fixed by the kernel's ABI.
const userHZ = 100

// procStatIdle reads how long the machine's processors have been idle,
// all of them together, since it started: /proc/stat's idle and iowait (a
// processor waiting for I/O was free to run anything else).
func procStatIdle() (time.Duration, bool) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	fields := bytes.Fields(line)
	// cpu user nice system idle iowait ...
	if len(fields) < 6 || string(fields[0]) != "cpu" {
		return 0, false
	}
	var ticks uint64
	for _, f := range fields[4:6] {
		v, err := strconv.ParseUint(string(f), 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / userHZ, true
}
