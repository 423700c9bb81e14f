package cli

import (
	"fmt"
	"slices"

	"contractbench/internal/runner"
)

// spendStop returns the error that ends a command whose run the limit
// stopped, nil when it did not.
func spendStop(l *runner.SpendLimit) error {
	spent, stopped := l.Stopped()
	if !stopped {
		return nil
	}
	return failed("%s", fmt.Sprintf("stopped at --max-total-usd %.2f: $%.4f spent; the next attempt could have passed the total (the report is marked incomplete; --resume it with a larger budget)", l.Total(), spent))
}

// spendLimit returns the limit --max-total-usd sets on the runs of plans
// (runner.NewSpendLimit checks it) and, before a paid run starts, prints
// what the runs may spend at most: attempts times each one's cap, over
// every plan (a server each).
func spendLimit(st *State, total float64, plans []*runner.Plan) (*runner.SpendLimit, error) {
	limit, err := runner.NewSpendLimit(total, plans...)
	if err != nil {
		return nil, planError(err)
	}
	if !slices.ContainsFunc(plans, (*runner.Plan).Paid) {
		return limit, nil
	}
	attempts, usd := 0, 0.0
	for _, p := range plans {
		attempts += p.Pending()
		usd += p.WorstCaseUSD()
	}
	fmt.Fprintf(st.Stderr, "worst-case spend: %d attempts (tasks × repeats", attempts)
	if len(plans) > 1 {
		fmt.Fprintf(st.Stderr, " × %d servers", len(plans))
	}
	fmt.Fprintf(st.Stderr, "), each capped at its max_usd: $%.2f in all", usd)
	if total > 0 && total < usd {
		fmt.Fprintf(st.Stderr, "; --max-total-usd stops it at $%.2f", total)
	}
	fmt.Fprintln(st.Stderr)
	return limit, nil
}
