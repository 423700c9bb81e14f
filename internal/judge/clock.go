package judge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"

	"contractbench/internal/cdpconn"
	"contractbench/internal/problem"
	"contractbench/internal/spare"
)

// advance runs the active page's clock ahead with
// Emulation.setVirtualTimePolicy: the timers the page set fire at once, in
// order, and its clock waits while the page fetches. The clock runs in
// steps until nothing has changed in the page (no change to its DOM, no
// new document, none of its requests in flight) for Options.Advance of
// its own time, the horizon, counted from the first reading: the first step is
// the whole horizon, and each next one runs to a horizon after the latest
// change. A page that never stops changing (a clock, a carousel) runs to
// a minute of its time (advanceLimit), and then on in steps of at most
// quietFor until it has been still for quietFor (at most
// quietSteps of them), so that the final reading is not taken in the
// middle of a change. Options.AdvanceMax bounds the whole in the machine's
// spare time (internal/spare: wall time a processor was free for). A
// dialog that opens meanwhile is dismissed, as Observe dismisses one still
// showing, and the clock goes on.
//
// It returns how far the clock ran and why it stopped. Afterwards the
// page's clock stands still; the judge reads the page, and nothing else
// runs in it.
func (j *Judge) advance(ctx context.Context) (time.Duration, string, error) {
	if j.opts.Advance <= 0 {
		return 0, "", nil
	}
	horizon := j.opts.Advance
	limit := max(advanceLimit, horizon)
	clock := spare.Start()
	v, err := j.activePage(ctx)
	if err != nil {
		return 0, "", err
	}
	// still is how long the page has been still, in its own time, since
	// the first reading.
	var ran, still time.Duration
	for extra := 0; ; {
		var step time.Duration
		switch {
		case still >= horizon:
			return ran, fmt.Sprintf("nothing changed for the horizon, %d ms of the page's time", horizon.Milliseconds()), nil
		case ran >= limit && (still >= quietFor || extra == quietSteps):
			return ran, fmt.Sprintf("the page kept changing to the limit, %d ms of its time", limit.Milliseconds()), nil
		case ran >= limit:
			step = quietFor - still
			extra++
		default:
			step = min(horizon-still, limit-ran)
		}
		if clock.Left(j.opts.AdvanceMax) == 0 {
			return ran, j.outOfTime(ran, ""), nil
		}
		r, err := j.runClock(ctx, v, step, clock)
		if err != nil {
			return ran + r.ran, "", err
		}
		if !r.whole {
			return ran + r.ran, j.outOfTime(ran+r.ran, r.waiting), nil
		}
		if err := j.dismissDialogs(ctx); err != nil {
			return ran + r.ran, "", err
		}
		next, err := j.activePage(ctx)
		if err != nil {
			return ran + r.ran, "", err
		}
		if next.page != v.page {
			ran, still = ran+r.ran, 0
			v = next
			continue
		}
		// The page's own clock says how far it ran: after its script
		// navigated, Chromium spends part of a budget without moving it.
		took := min(r.ran, millis(next.state.Now-v.state.Now))
		ran += took
		if r.pending {
			still = 0
		} else {
			still = min(still+took, millis(next.state.Now-next.state.MutatedAt))
		}
		v = next
	}
}

// millis is a span of a page's clock, in milliseconds, to the nearest
// millisecond and never negative.
func millis(ms float64) time.Duration {
	return time.Duration(max(ms, 0) * float64(time.Millisecond)).Round(time.Millisecond)
}

// quietSteps bounds the steps that advance takes past advanceLimit to
// reach a moment when the page is still.
const quietSteps = 4

// outOfTime says that the clock stopped at Options.AdvanceMax, and what
// the page was waiting on then, if anything.
func (j *Judge) outOfTime(ran time.Duration, waiting string) string {
	s := fmt.Sprintf("the bound of %s of the machine's spare time, after %d ms of the page's time", j.opts.AdvanceMax, ran.Milliseconds())
	if waiting != "" {
		s += ", with " + waiting
	}
	return s
}

// clockRun is what one step of the page's clock did.
type clockRun struct {
	// ran is how far the clock ran: the step, when it was run whole.
	ran   time.Duration
	whole bool
	// pending reports that the page had requests in flight when the step
	// ended.
	pending bool
	// waiting lists the page's requests in flight when the step was cut
	// short.
	waiting string
}

// runClock runs the clock of v's page step ahead, and waits until it has
// or until Options.AdvanceMax of clock has passed, when it stops the clock
// wherever it is.
//
// The page's clock waits while the page fetches. A clock that stands still
// with none of the page's requests in flight that the judge waits for
// (the page keeps an event stream open, or Chromium left the clock paused
// after a navigation) runs on without waiting for requests.
func (j *Judge) runClock(ctx context.Context, v *pageView, step time.Duration, clock spare.Clock) (clockRun, error) {
	p := v.page
	var r clockRun
	from, last := v.state.Now, v.state.Now
	ranSince := func(now float64) time.Duration {
		return min(millis(now-from), step)
	}
	policy := emulation.VirtualTimePolicyPauseIfNetworkFetchesPending
	done, err := j.runFor(ctx, p, policy, step)
	for frozen := 0; ; {
		if err != nil {
			if j.isClosed(p) {
				r.whole = true // the step ends with the page
				return r, nil
			}
			return r, fmt.Errorf("running the clock of %s ahead: %w", v.state.URL, err)
		}
		select {
		case <-done:
			r.ran, r.whole = step, true
			j.mu.Lock()
			pending, _ := j.rec.busy(p.id)
			j.mu.Unlock()
			r.pending = len(pending) > 0
			return r, nil
		case <-time.After(min(settlePoll, clock.Left(j.opts.AdvanceMax))):
		case <-ctx.Done():
			return r, ctx.Err()
		}
		if err := j.dismissDialogs(ctx); err != nil {
			return r, err
		}
		if j.isClosed(p) {
			r.ran, r.whole = ranSince(last), true
			return r, nil
		}
		now, read := j.pageClock(ctx, p)
		if read {
			r.ran = ranSince(now)
		}
		j.mu.Lock()
		pending, _ := j.rec.busy(p.id)
		j.mu.Unlock()
		if clock.Left(j.opts.AdvanceMax) == 0 {
			if err := j.stopClock(ctx, p); err != nil {
				return r, err
			}
			if now, read := j.pageClock(ctx, p); read {
				r.ran = ranSince(now)
			}
			if len(pending) > 0 {
				r.waiting = fmt.Sprintf("%d requests in flight (%s)", len(pending), problem.Bound(strings.Join(pending, ", "), 200))
			}
			return r, nil
		}
		if read && now == last && len(pending) == 0 {
			frozen++
		} else {
			frozen = 0
		}
		if read {
			last = now
		}
		if frozen == frozenPolls && policy != emulation.VirtualTimePolicyAdvance {
			policy = emulation.VirtualTimePolicyAdvance
			done, err = j.runFor(ctx, p, policy, max(step-ranSince(now), time.Millisecond))
		}
	}
}

// frozenPolls is how many times in a row runClock must find the page's
// clock standing still, with nothing in flight, to run it on regardless.
const frozenPolls = 2

// runFor sets p's clock running for budget of its time under policy, and
// returns a channel that is closed once it has run that far
// (Emulation.virtualTimeBudgetExpired).
func (j *Judge) runFor(ctx context.Context, p *pageState, policy emulation.VirtualTimePolicy, budget time.Duration) (<-chan struct{}, error) {
	done := make(chan struct{})
	j.mu.Lock()
	p.advanced = done
	j.mu.Unlock()
	_, err := cdpconn.Send(ctx, j.conn, p.session, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: policy,
		Budget: new(float64(budget) / float64(time.Millisecond)),
	})
	return done, err
}

// stopClock stops p's clock where it is. A dialog that just opened would
// hold the command until it closes, so it is sent first, and the dialog
// dismissed after it. A page whose script does not let go of its thread
// for Options.SettleMax is left as it is.
func (j *Judge) stopClock(ctx context.Context, p *pageState) error {
	j.mu.Lock()
	p.advanced = nil
	j.mu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, j.opts.SettleMax)
	defer cancel()
	reply := j.conn.Start(wctx, p.session, emulation.SetVirtualTimePolicy.Method, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPause,
	})
	if err := j.dismissDialogs(ctx); err != nil {
		return err
	}
	err := reply.Wait(wctx, nil)
	switch {
	case err == nil, j.isClosed(p):
		return nil
	case ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded):
		return nil
	}
	return fmt.Errorf("stopping the page's clock: %w", err)
}

// pageClock reads p's clock, in milliseconds (js/page_state.js); false
// when the page cannot answer now (it is between documents, or busy
// past pageClockWait).
func (j *Judge) pageClock(ctx context.Context, p *pageState) (float64, bool) {
	ctx, cancel := context.WithTimeout(ctx, pageClockWait)
	defer cancel()
	w, err := j.view(ctx, p)
	if err != nil {
		return 0, false
	}
	return w.state.Now, true
}

// pageClockWait bounds each reading of a page's clock while it runs.
const pageClockWait = 500 * time.Millisecond
