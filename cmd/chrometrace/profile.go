package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"
)

// event is a complete event of a trace ("ph": "X"): its start and
// length in wall time, and its length in the thread's CPU time (tdur),
// all in microseconds.
type event struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	Tdur float64 `json:"tdur"`
	Args struct {
		Name    string `json:"name"`     // of a process or thread ("M" events)
		SrcFunc string `json:"src_func"` // where a task was posted from
		Mojo    struct {
			Interface string `json:"mojo_interface_tag"` // a message's, between processes
		} `json:"chrome_mojo_event_info"`
	} `json:"args"`
}

// where names a thread of a kind of process: "Renderer", "CrRendererMain".
type where struct{ process, thread string }

// profile is what a trace says about CPU time: each kind of process and
// thread's, in the tasks it ran, and each named event's own.
type profile struct {
	threads map[where]time.Duration
	self    map[where]map[string]time.Duration
}

// readProfile reads a JSON trace (an array of events).
func readProfile(r io.Reader) (*profile, error) {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("not a JSON trace (an array of events)")
	}
	processes := map[int]string{}
	threads := map[[2]int]string{}
	timed := map[[2]int][]event{}
	for dec.More() {
		var e event
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("event %d: %w", len(timed), err)
		}
		switch {
		case e.Ph == "M" && e.Name == "process_name":
			processes[e.Pid] = e.Args.Name
		case e.Ph == "M" && e.Name == "thread_name":
			threads[[2]int{e.Pid, e.Tid}] = e.Args.Name
		case e.Ph == "X" && e.Tdur > 0:
			k := [2]int{e.Pid, e.Tid}
			timed[k] = append(timed[k], e)
		}
	}
	p := &profile{threads: map[where]time.Duration{}, self: map[where]map[string]time.Duration{}}
	for k, events := range timed {
		w := where{cmp.Or(processes[k[0]], "?"), cmp.Or(threads[k], "?")}
		if p.self[w] == nil {
			p.self[w] = map[string]time.Duration{}
		}
		p.add(w, events)
	}
	return p, nil
}

// add counts one thread's events: the outermost ones are its CPU time,
// and each one's own time is its CPU time less that of the events
// directly inside it.
func (p *profile) add(w where, events []event) {
	slices.SortFunc(events, func(a, b event) int {
		return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur))
	})
	us := func(v float64) time.Duration { return time.Duration(v * float64(time.Microsecond)) }
	type open struct {
		end, cpu, inner float64
		name            string
	}
	var stack []open
	pop := func() {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p.self[w][o.name] += us(max(o.cpu-o.inner, 0))
		if len(stack) > 0 {
			stack[len(stack)-1].inner += o.cpu
		} else {
			p.threads[w] += us(o.cpu)
		}
	}
	for _, e := range events {
		for len(stack) > 0 && stack[len(stack)-1].end <= e.Ts {
			pop()
		}
		name := e.Name
		switch {
		case e.Args.SrcFunc != "":
			name += " (posted by " + e.Args.SrcFunc + ")"
		case e.Args.Mojo.Interface != "":
			name += " (" + e.Args.Mojo.Interface + ")"
		}
		stack = append(stack, open{end: e.Ts + e.Dur, cpu: e.Tdur, name: name})
	}
	for len(stack) > 0 {
		pop()
	}
}

// write prints the threads by CPU time, and the top events by own time.
func (p *profile) write(out io.Writer, top int) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	var total time.Duration
	for _, d := range p.threads {
		total += d
	}
	fmt.Fprintf(tw, " CPU s\tshare\tprocess\tthread\n")
	for _, w := range sortedKeys(p.threads) {
		d := p.threads[w]
		fmt.Fprintf(tw, "%6.2f\t%4.0f%%\t%s\t%s\n", d.Seconds(), 100*float64(d)/float64(max(total, 1)), w.process, w.thread)
	}
	fmt.Fprintf(tw, "%6.2f\t\tall\t\n\n", total.Seconds())
	type named struct {
		w    where
		name string
	}
	self := map[named]time.Duration{}
	for w, events := range p.self {
		for name, d := range events {
			self[named{w, name}] = d
		}
	}
	fmt.Fprintf(tw, " own s\t\tprocess\tthread\tevent\n")
	for i, k := range sortedKeys(self) {
		if i == top {
			break
		}
		fmt.Fprintf(tw, "%6.3f\t\t%s\t%s\t%s\n", self[k].Seconds(), k.w.process, k.w.thread, k.name)
	}
	tw.Flush()
}

// sortedKeys returns m's keys, the largest value first (then by key, for
// a stable order).
func sortedKeys[K comparable](m map[K]time.Duration) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b K) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)))
	})
	return keys
}
