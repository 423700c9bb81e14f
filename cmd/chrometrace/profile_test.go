package main

import (
	"strings"
	"testing"
	"time"
)

// A thread runs two tasks; the first holds a layout that holds a paint.
// Each event's own time is its CPU time less the events directly inside
// it; the thread's time is its outermost events'.
const trace = `[
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Renderer"}},
{"ph":"M","name":"thread_name","pid":1,"tid":7,"args":{"name":"CrRendererMain"}},
{"ph":"X","name":"RunTask","pid":1,"tid":7,"ts":1000,"dur":1000,"tdur":900,"args":{"src_func":"Accept"}},
{"ph":"X","name":"Layout","pid":1,"tid":7,"ts":1100,"dur":500,"tdur":400},
{"ph":"X","name":"Paint","pid":1,"tid":7,"ts":1200,"dur":100,"tdur":100},
{"ph":"X","name":"Receive mojo message","pid":1,"tid":7,"ts":3000,"dur":300,"tdur":300,"args":{"chrome_mojo_event_info":{"mojo_interface_tag":"blink.mojom.DevToolsSession"}}},
{"ph":"X","name":"Idle","pid":1,"tid":7,"ts":4000,"dur":300,"tdur":0},
{"ph":"X","name":"Draw","pid":2,"tid":3,"ts":1000,"dur":50,"tdur":50}
]`

func TestAProfileCountsEachEventsOwnTime(t *testing.T) {
	p, err := readProfile(strings.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	main := where{"Renderer", "CrRendererMain"}
	if got := p.threads[main]; got != 1200*time.Microsecond {
		t.Errorf("the thread's time = %v, want 1.2ms (its two outermost events)", got)
	}
	if got := p.threads[where{"?", "?"}]; got != 50*time.Microsecond {
		t.Errorf("an unnamed thread's time = %v, want 50µs", got)
	}
	want := map[string]time.Duration{
		"RunTask (posted by Accept)": 500 * time.Microsecond,
		"Layout":                     300 * time.Microsecond,
		"Paint":                      100 * time.Microsecond,
		"Receive mojo message (blink.mojom.DevToolsSession)": 300 * time.Microsecond,
	}
	for name, d := range want {
		if got := p.self[main][name]; got != d {
			t.Errorf("own time of %s = %v, want %v", name, got, d)
		}
	}
	if len(p.self[main]) != len(want) {
		t.Errorf("events of the thread = %v, want only %d (an event with no CPU time is left out)", p.self[main], len(want))
	}
	var out strings.Builder
	p.write(&out, 2)
	if !strings.Contains(out.String(), "Renderer") || strings.Count(out.String(), "\n") != 8 {
		t.Errorf("the tables:\n%s", out.String())
	}
}

func TestATraceThatIsNotOne(t *testing.T) {
	for _, bad := range []string{"", "{", `[{"ph":"X","ts":"soon"}]`} {
		if _, err := readProfile(strings.NewReader(bad)); err == nil {
			t.Errorf("readProfile(%q) = nil error, want one", bad)
		}
	}
}
