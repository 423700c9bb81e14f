package runner

import (
	"sync"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// Paid reports whether the plan's agent calls a paid model API, so that
// its attempts spend up to their MaxUSD.
func (p *Plan) Paid() bool { return p.spec.Agent.paid() }

func (a Agent) paid() bool { return a.Name == llm.NameAnthropic || a.Name == llm.NameOpenAI }

// repeatable says a rerun of the agent decides the same: it runs neither
// a model nor an outside command. Its failed task rerun with TraceOn shows
// its steps, so TraceAuto spares a large run of it the thumbnails, a fifth
// of a replayed task's processor time (docs/benchmarks/browser.md).
func (a Agent) repeatable() bool { return a.Exec == nil && !a.paid() }

// SpendLimit holds a run, or several run one after another, to a total
// budget: an attempt starts only when what was spent, plus the cap of
// every attempt still running, plus its own cap, stays within the total.
// So the total is never passed, whatever the models do; the price is that
// the last attempts it could have afforded on average may not start.
type SpendLimit struct {
	total float64 // 0: no limit

	mu       sync.Mutex
	spent    float64
	reserved float64
	stopped  bool
}

// NewSpendLimit returns the limit of total USD over the runs of plans, no
// limit when total is zero or less. A total below the largest cap of one
// attempt of a paid plan, which could start none, is refused.
func NewSpendLimit(total float64, plans ...*Plan) (*SpendLimit, error) {
	largest := 0.0
	for _, p := range plans {
		if p.Paid() {
			largest = max(largest, p.LargestMaxUSD())
		}
	}
	if total > 0 && total < largest {
		return nil, fieldErrorf("{max_total_usd} %.2f is below the $%.2f cap of one attempt: no attempt could start", total, largest)
	}
	return &SpendLimit{total: max(total, 0)}, nil
}

// Total is the limit's total, 0 for none.
func (l *SpendLimit) Total() float64 { return l.total }

// Hooks returns the hooks that hold the run of plan to the limit.
func (l *SpendLimit) Hooks(plan *Plan) Hooks {
	if l.total <= 0 {
		return Hooks{}
	}
	return Hooks{
		Admit: func(t *suite.Task) bool {
			l.mu.Lock()
			defer l.mu.Unlock()
			c := plan.MaxUSD(t)
			if l.stopped || l.spent+l.reserved+c > l.total+1e-9 {
				l.stopped = true
				return false
			}
			l.reserved += c
			return true
		},
		TaskDone: func(t *suite.Task, res *report.TaskResult, _ *transcript.Recorder) {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.reserved -= plan.MaxUSD(t)
			l.spent += res.USD
		},
	}
}

// Stopped reports whether the limit stopped a run, and what the runs it
// held spent.
func (l *SpendLimit) Stopped() (spent float64, stopped bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.spent, l.stopped
}
