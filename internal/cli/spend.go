package cli

import (
	"fmt"
	"sync"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// paid reports whether agent calls a paid model API.
func paid(agent string) bool { return agent == llm.NameAnthropic || agent == llm.NameOpenAI }

// spendLimit holds a run, or several (compare), to a total budget: an
// attempt starts only when what was spent, plus the cap of every attempt
// still running, plus its own cap, stays within the total. So the total
// is never passed, whatever the models do; the price is that the last
// attempts it could have afforded on average may not start.
type spendLimit struct {
	total float64 // 0: no limit

	mu       sync.Mutex
	spent    float64
	reserved float64
	stopped  bool
}

// hooks returns the hooks that hold plan's run to the limit.
func (l *spendLimit) hooks(plan *runner.Plan) runner.Hooks {
	if l == nil || l.total <= 0 {
		return runner.Hooks{}
	}
	return runner.Hooks{
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

// stop returns the error that ends a command whose run the limit stopped,
// nil when it did not.
func (l *spendLimit) stop() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		return nil
	}
	return failed("%s", fmt.Sprintf("stopped at --max-total-usd %.2f: $%.4f spent; the next attempt could have passed the total (the report is marked incomplete; --resume it with a larger budget)", l.total, l.spent))
}

// worstCase prints, before a paid run starts, what it may spend at most:
// attempts times each one's cap, over every plan (a server each). A total
// budget below the largest cap of one attempt, which could start none, is
// refused.
func worstCase(st *State, agent string, plans []*runner.Plan, limit *spendLimit) error {
	if !paid(agent) {
		return nil
	}
	attempts, usd, largest := 0, 0.0, 0.0
	for _, p := range plans {
		attempts += p.Pending()
		usd += p.WorstCaseUSD()
		largest = max(largest, p.LargestMaxUSD())
	}
	if limit.total > 0 && limit.total < largest {
		return usagef("--max-total-usd %.2f is below the $%.2f cap of one attempt: no attempt could start", limit.total, largest)
	}
	fmt.Fprintf(st.Stderr, "worst-case spend: %d attempts (tasks × repeats", attempts)
	if len(plans) > 1 {
		fmt.Fprintf(st.Stderr, " × %d servers", len(plans))
	}
	fmt.Fprintf(st.Stderr, "), each capped at its max_usd: $%.2f in all", usd)
	if limit.total > 0 && limit.total < usd {
		fmt.Fprintf(st.Stderr, "; --max-total-usd stops it at $%.2f", limit.total)
	}
	fmt.Fprintln(st.Stderr)
	return nil
}
