package judge

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"contractbench/internal/contract"

	"github.com/chromedp/chromedp"
)

// How far the judge runs a page's clock after the agent stops: until
// nothing has changed in the page for the horizon, within a limit of the
// page's time and a bound of the machine's spare time.

// gradeWith is gradeOn with a judge tuned by opts.
func gradeWith(t *testing.T, opts Options, url, contractYAML string, act func(tab context.Context)) graded {
	t.Helper()
	pc, err := contract.Parse([]byte(contractYAML))
	if err != nil {
		t.Fatalf("contract: %v", err)
	}
	j := attach(t, opts)
	tab := openTab(t)
	j.MarkToolCall()
	navigate(t, tab, url)
	if act != nil {
		act(tab)
	}
	// The bounds under test are the judge's own; a loaded machine must not
	// fail the test.
	ctx, cancel := bounded(t)
	defer cancel()
	v, obs, err := j.Grade(ctx, pc, nil)
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	return graded{v, obs}
}

// startNow calls the page's start function, as the agent's last act. The
// judge's first reading follows within a few seconds at most; the timers
// below are longer.
func startNow(t *testing.T) func(tab context.Context) {
	return func(tab context.Context) {
		t.Helper()
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool]("start(), true")); err != nil {
			t.Fatalf("starting the page's timer: %v", err)
		}
	}
}

// settled returns the observation's Settling, failing the test without it.
func (g graded) settled(t *testing.T) *contract.Settling {
	t.Helper()
	if g.obs.Settling == nil {
		t.Fatalf("the observation has no settling:\n%s", g.explain())
	}
	return g.obs.Settling
}

// flipAfter is a page that shows "Payment accepted" and, ms after start()
// (in the page's time), replaces it by "Payment declined".
func flipAfter(ms int) string {
	return fmt.Sprintf(`<p id="m">Payment accepted</p><script>function start() { setTimeout(() => { document.getElementById('m').textContent = 'Payment declined' }, %d) }</script>`, ms)
}

// TestLateChangesAreSeen: a confirmation that a timer replaces seconds
// after the agent stopped, later than the old fixed 5 s, is transient.
func TestLateChangesAreSeen(t *testing.T) {
	srv := site(t, map[string]any{
		"/7s":  flipAfter(7000),
		"/25s": flipAfter(25000),
	})
	for _, page := range []string{"/7s", "/25s"} {
		t.Run(page, func(t *testing.T) {
			g := gradeOn(t, srv.URL+page, textContract("#m", "Payment accepted"), startNow(t))
			if g.v.Passed {
				t.Fatalf("a confirmation replaced %s after the agent stopped passed:\n%s", page[1:], g.explain())
			}
			if !strings.Contains(g.v.Unstable, "transient") {
				t.Errorf("Unstable = %q, want it to say the state was transient", g.v.Unstable)
			}
			s := g.settled(t)
			// The clock ran to a horizon after the change.
			if s.AdvancedMS < defaultAdvance.Milliseconds() {
				t.Errorf("the clock ran %d ms, less than the horizon", s.AdvancedMS)
			}
			if !strings.Contains(s.Stopped, "nothing changed for the horizon") {
				t.Errorf("Stopped = %q, want the horizon", s.Stopped)
			}
		})
	}
}

// TestAStillPageRunsOneHorizon: on a page where nothing happens the clock
// runs the horizon once, and the observation says so.
func TestAStillPageRunsOneHorizon(t *testing.T) {
	srv := site(t, map[string]any{"/": `<p id="m">Payment accepted</p>`})
	g := gradeOn(t, srv.URL+"/", textContract("#m", "Payment accepted"), nil)
	if !g.v.Passed {
		t.Fatalf("a still page failed:\n%s", g.explain())
	}
	s := g.settled(t)
	if s.AdvancedMS != defaultAdvance.Milliseconds() {
		t.Errorf("AdvancedMS = %d, want the horizon, %d", s.AdvancedMS, defaultAdvance.Milliseconds())
	}
	want := fmt.Sprintf("nothing changed for the horizon, %d ms of the page's time", defaultAdvance.Milliseconds())
	if s.Stopped != want {
		t.Errorf("Stopped = %q, want %q", s.Stopped, want)
	}
}

// TestPagesThatNeverStopSettle: a page that changes for ever (a clock
// ticking every second and a carousel turning every 3 s, or an animation
// driven by a 16 ms timer) still settles, and what stays on it passes.
func TestPagesThatNeverStopSettle(t *testing.T) {
	srv := site(t, map[string]any{
		"/clock": `<p id="m">Payment accepted</p><p id="clock"></p>` +
			`<div id="slides"><div>One</div><div hidden>Two</div><div hidden>Three</div></div>` +
			`<script>setInterval(() => { document.getElementById('clock').textContent = new Date().toLocaleTimeString() }, 1000);` +
			`let shown = 0; setInterval(() => { const s = document.getElementById('slides').children; s[shown].hidden = true; shown = (shown + 1) % s.length; s[shown].hidden = false }, 3000)</script>`,
		"/busy": `<p id="m">Payment accepted</p><div id="box" style="position:relative;width:20px;height:20px;background:#c00"></div>` +
			`<script>let x = 0; setInterval(() => { x = (x + 1) % 300; document.getElementById('box').style.left = x + 'px' }, 16)</script>`,
	})
	// Real time bounds the run only where the machine is too slow for the
	// limit of the page's time; here the bound is far away, so the run
	// always ends at the limit.
	far := Options{AdvanceMax: time.Minute}
	for _, page := range []string{"/clock", "/busy"} {
		t.Run(page, func(t *testing.T) {
			g := gradeWith(t, far, srv.URL+page, textContract("#m", "Payment accepted"), nil)
			if !g.v.Passed {
				t.Fatalf("the static text of a page that never stops changing failed:\n%s", g.explain())
			}
			s := g.settled(t)
			if s.AdvancedMS < advanceLimit.Milliseconds() {
				t.Errorf("the clock ran %d ms, less than the limit", s.AdvancedMS)
			}
			if !strings.HasPrefix(s.Stopped, "the page kept changing to the limit") {
				t.Errorf("Stopped = %q, want the limit", s.Stopped)
			}
		})
	}
	t.Run("within the default bounds", func(t *testing.T) {
		for _, page := range []string{"/clock", "/busy"} {
			g := gradeOn(t, srv.URL+page, textContract("#m", "Payment accepted"), nil)
			if !g.v.Passed {
				t.Errorf("%s: the static text failed:\n%s", page, g.explain())
			}
			if s := g.settled(t); s.Stopped == "" || s.AdvancedMS == 0 {
				t.Errorf("%s: the observation does not say how far the clock ran and why it stopped: %+v", page, *s)
			}
		}
	})
}

// TestTheClockStopsAtTheBoundOfRealTime: a page whose clock waits on a
// request that never answers stops at the bound of spare time, and the
// observation says what it waited on.
func TestTheClockStopsAtTheBoundOfRealTime(t *testing.T) {
	release := make(chan struct{})
	srv := site(t, map[string]any{
		"/": `<p id="m">Payment accepted</p><script>function start() { setTimeout(() => fetch('/hang'), 10000) }</script>`,
		"/hang": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}),
	})
	t.Cleanup(func() { close(release) })
	g := gradeWith(t, Options{AdvanceMax: time.Second}, srv.URL+"/", textContract("#m", "Payment accepted"), startNow(t))
	s := g.settled(t)
	if !strings.HasPrefix(s.Stopped, "the bound of 1s of the machine's spare time") || !strings.Contains(s.Stopped, "/hang") {
		t.Errorf("Stopped = %q, want the bound of spare time, with /hang in flight", s.Stopped)
	}
	// The clock ran to the request, at most 10 s after start(), and
	// waited there.
	if s.AdvancedMS == 0 || s.AdvancedMS > 10000 {
		t.Errorf("AdvancedMS = %d, want the time to the request, at most 10000 ms", s.AdvancedMS)
	}
}

// TestTheClockRunsOnWherePagesHoldItBack: neither a dialog, nor an event
// stream the page keeps open, nor a navigation keeps the judge from seeing
// a change later on.
func TestTheClockRunsOnWherePagesHoldItBack(t *testing.T) {
	release := make(chan struct{})
	srv := site(t, map[string]any{
		"/dialog": `<p id="m">Payment accepted</p><script>function start() { setTimeout(() => alert('Please wait'), 4000); setTimeout(() => { document.getElementById('m').textContent = 'Payment declined' }, 7000) }</script>`,
		"/stream": `<p id="m">Payment accepted</p><script>new EventSource('/events'); function start() { setTimeout(() => { document.getElementById('m').textContent = 'Payment declined' }, 7000) }</script>`,
		"/events": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}),
		"/redirect":   `<p id="m">Payment accepted</p><script>setTimeout(() => { location.href = '/processing' }, 20000); function start() {}</script>`,
		"/processing": `<p id="m">Payment accepted</p><script>setTimeout(() => { document.getElementById('m').textContent = 'Payment declined' }, 7000)</script>`,
	})
	t.Cleanup(func() { close(release) })
	for _, page := range []string{"/dialog", "/stream", "/redirect"} {
		t.Run(page, func(t *testing.T) {
			g := gradeOn(t, srv.URL+page, textContract("#m", "Payment accepted"), startNow(t))
			if g.v.Passed {
				t.Fatalf("a confirmation replaced seconds later passed:\n%s", g.explain())
			}
			if s := g.settled(t); !strings.Contains(s.Stopped, "nothing changed for the horizon") {
				t.Errorf("Stopped = %q, want the horizon", s.Stopped)
			}
		})
	}
}
