package runner

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// admission admits the run's task set-ups by what the machine can take,
// instead of all at once: a set-up (a browser context and its window,
// the judge, the start page loaded and settled, the tool server started)
// is the busiest moment of a task, and -j set-ups started together
// compete for the processors until each is slow enough to fail. At most
// slots set-ups run at once (Spec.Processors), and while another one runs
// a new one also waits for the machine to have memFloor of memory
// available. A set-up that waits is not yet the task's: its time is
// neither its set-up's nor its agent's.
type admission struct {
	slots int
	// avail says how much memory the machine has available, false when
	// it cannot tell (then memory admits everything).
	avail func() (uint64, bool)

	mu      sync.Mutex
	running int
	// changed is closed, and replaced, whenever a set-up leaves.
	changed chan struct{}
}

// memFloor is the memory a set-up needs to find available when another
// is still running: about what a task's browser context, renderers and
// tool server take (docs/benchmarks/capacity.md: 70 to 180 MiB a task),
// with room for the pages' own.
const memFloor = 512 << 20

func newAdmission(slots int, avail func() (uint64, bool)) *admission {
	return &admission{slots: max(slots, 1), avail: avail, changed: make(chan struct{})}
}

// enter waits until a set-up may start, or until ctx ends (its error
// then). Every enter that returns nil is followed by one leave.
func (a *admission) enter(ctx context.Context) error {
	for {
		a.mu.Lock()
		if a.running == 0 || (a.running < a.slots && a.memoryFor()) {
			a.running++
			a.mu.Unlock()
			return nil
		}
		changed := a.changed
		a.mu.Unlock()
		select {
		case <-changed:
		case <-time.After(admissionPoll): // memory can free up without a leave
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// admissionPoll is how often a set-up waiting for memory looks again.
const admissionPoll = 250 * time.Millisecond

// memoryFor reports whether the machine has memory for one more set-up.
func (a *admission) memoryFor() bool {
	if a.avail == nil {
		return true
	}
	n, ok := a.avail()
	return !ok || n >= memFloor
}

// leave ends a set-up admitted by enter.
func (a *admission) leave() {
	a.mu.Lock()
	a.running--
	close(a.changed)
	a.changed = make(chan struct{})
	a.mu.Unlock()
}

// memAvailable reads MemAvailable from /proc/meminfo; false where there
// is none (not Linux) or it cannot be read.
func memAvailable() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		v, ok := strings.CutPrefix(s.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		kib, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		return kib << 10, err == nil
	}
	return 0, false
}

// progressContext returns a context that ends with parent, or with
// context.DeadlineExceeded once nothing has been heard for idle: heard
// returns when the last sign of progress came (the browser's last message
// to the judge). It measures progress rather than a budget of wall time:
// on a machine so busy that every step of the judge is slow, the steps
// still answer and the judge goes on; a page that stopped answering ends
// it after idle. limit bounds the whole still, against a page that never
// stops talking and never answers. now and after are the clock (time.Now
// and time.After outside tests).
func progressContext(parent context.Context, heard func() time.Time, idle, limit time.Duration,
	now func() time.Time, after func(time.Duration) <-chan time.Time) (context.Context, context.CancelFunc) {
	ctx := &progressCtx{Context: parent, done: make(chan struct{})}
	stop := make(chan struct{})
	start := now()
	go func() {
		for {
			last := heard()
			if last.Before(start) {
				last = start
			}
			t := now()
			wait := min(idle-t.Sub(last), limit-t.Sub(start))
			if wait <= 0 {
				ctx.end(context.DeadlineExceeded)
				return
			}
			select {
			case <-after(wait):
			case <-parent.Done():
				ctx.end(parent.Err())
				return
			case <-stop:
				ctx.end(context.Canceled)
				return
			}
		}
	}()
	return ctx, sync.OnceFunc(func() { close(stop) })
}

// progressCtx is progressContext's context: its parent's values, its own
// end.
type progressCtx struct {
	context.Context
	done chan struct{}
	mu   sync.Mutex
	err  error
}

func (c *progressCtx) Done() <-chan struct{} { return c.done }

func (c *progressCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Deadline: none that a clock could tell in advance.
func (c *progressCtx) Deadline() (time.Time, bool) { return time.Time{}, false }

func (c *progressCtx) end(err error) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	close(c.done)
}
