package agenttest

import (
	"testing"

	"contractbench/internal/llm"
)

// NewBudget returns a budget with caps, priced by the embedded table; it
// fails the test when either cannot be made.
func NewBudget(t testing.TB, caps llm.Caps) *llm.Budget {
	t.Helper()
	prices, err := llm.DefaultPrices()
	if err != nil {
		t.Fatal(err)
	}
	b, err := llm.NewBudget(caps, prices)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
