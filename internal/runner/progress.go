package runner

import (
	"fmt"
	"io"
	"sync"
)

// Progress shows where a run is on w: a line for each attempt done and,
// when live (w is a terminal), a line for the tool call under way,
// written over in place. Its Event is a run's Hooks.Progress; Clear
// erases the live line once the run has returned.
type Progress struct {
	w     io.Writer
	live  bool
	total int

	mu   sync.Mutex // the parallel tasks' events, one at a time
	done int
}

// NewProgress shows the progress of a run of total attempts on w.
func NewProgress(w io.Writer, total int, live bool) *Progress {
	return &Progress{w: w, live: live, total: total}
}

// Event shows e.
func (p *Progress) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Step {
	case "done":
		p.done++
		p.clear()
		r := e.Result
		fmt.Fprintf(p.w, "[%d/%d] %s: %s (%d ms, %d tool calls)\n", p.done, p.total, e.Task, r.Outcome, r.DurationMS, r.ToolCalls)
	case "call":
		if p.live {
			p.clear()
			fmt.Fprintf(p.w, "[%d/%d] %s: step %d %s (%.1fs)", p.done, p.total, e.Task, e.Seq, e.Tool, e.Elapsed.Seconds())
		}
	}
}

// Clear erases the live line; no event may come after it.
func (p *Progress) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

func (p *Progress) clear() {
	if p.live {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
