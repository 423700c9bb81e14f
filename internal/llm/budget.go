package llm

import (
	"fmt"
	"sync"
)

// The per-task caps. They are the defaults and also the hard ceiling: a task
// spec may lower any of them (Caps.Lower) and nothing may raise one. This is
// the only place they are defined.
const (
	// MaxTokensPerTurn is sent as max_tokens with every request.
	MaxTokensPerTurn = 4096
	// MaxToolIterations bounds the tool calls of one task.
	MaxToolIterations = 50
	// maxUSD bounds what one task may spend, computed from each
	// response's usage and the price table.
	maxUSD = 0.50
)

// Cap names, as they appear in BudgetExceededError and in task specs.
const (
	CapMaxTokensPerTurn  = "max_tokens_per_turn"
	CapMaxToolIterations = "max_tool_iterations"
	CapMaxUSD            = "max_usd"
)

// Caps is a set of budget caps. In an override, a zero field means "keep
// the current cap".
type Caps struct {
	MaxTokensPerTurn  int     `json:"max_tokens_per_turn,omitempty" yaml:"max_tokens_per_turn,omitempty"`
	MaxToolIterations int     `json:"max_tool_iterations,omitempty" yaml:"max_tool_iterations,omitempty"`
	MaxUSD            float64 `json:"max_usd,omitempty" yaml:"max_usd,omitempty"`
}

// DefaultCaps returns the default caps, which are also the ceiling.
func DefaultCaps() Caps {
	return Caps{MaxTokensPerTurn: MaxTokensPerTurn, MaxToolIterations: MaxToolIterations, MaxUSD: maxUSD}
}

// Lower returns c with each non-zero cap of override applied. Raising a cap
// above c, or a negative cap, is an error naming the cap: budgets are
// configurable per task but never bypassable.
func (c Caps) Lower(override Caps) (Caps, error) {
	out := c
	if v := override.MaxTokensPerTurn; v != 0 {
		if err := lowerCheck(CapMaxTokensPerTurn, float64(v), float64(c.MaxTokensPerTurn), "%g"); err != nil {
			return c, err
		}
		out.MaxTokensPerTurn = v
	}
	if v := override.MaxToolIterations; v != 0 {
		if err := lowerCheck(CapMaxToolIterations, float64(v), float64(c.MaxToolIterations), "%g"); err != nil {
			return c, err
		}
		out.MaxToolIterations = v
	}
	if v := override.MaxUSD; v != 0 {
		if err := lowerCheck(CapMaxUSD, v, c.MaxUSD, "%.2f"); err != nil {
			return c, err
		}
		out.MaxUSD = v
	}
	return out, nil
}

func lowerCheck(name string, v, limit float64, verb string) error {
	if v < 0 {
		return fmt.Errorf("budget: %s "+verb+" is negative", name, v)
	}
	if v > limit {
		return fmt.Errorf("budget: %s "+verb+" would raise the cap of "+verb+"; caps can be lowered, never raised", name, v, limit)
	}
	return nil
}

// BudgetExceededError reports the first cap a task went past. The runner
// turns it into the budget_exceeded result.
type BudgetExceededError struct {
	Cap   string  // one of the Cap* names
	Limit float64 // the cap
	Seen  float64 // the value that went past it
}

func (e *BudgetExceededError) Error() string {
	switch e.Cap {
	case CapMaxUSD:
		return fmt.Sprintf("budget exceeded: %s: spent %s, cap %s", e.Cap, FormatUSD(e.Seen), FormatUSD(e.Limit))
	case CapMaxTokensPerTurn:
		return fmt.Sprintf("budget exceeded: %s: a turn produced %g output tokens, cap %g", e.Cap, e.Seen, e.Limit)
	default:
		return fmt.Sprintf("budget exceeded: %s: %g tool calls, cap %g", e.Cap, e.Seen, e.Limit)
	}
}

// FormatUSD formats dollars for reports: four decimals, since one task
// typically costs fractions of a cent to a few cents.
func FormatUSD(v float64) string { return fmt.Sprintf("$%.4f", v) }

// Budget tracks one task's spending against its caps. It is safe for
// concurrent use.
type Budget struct {
	caps   Caps
	prices *Prices

	mu        sync.Mutex
	usage     Usage
	usd       float64
	toolCalls int
}

// NewBudget starts a budget with caps, which must not exceed the ceiling
// (zero fields take the default), priced with prices.
func NewBudget(caps Caps, prices *Prices) (*Budget, error) {
	c, err := DefaultCaps().Lower(caps)
	if err != nil {
		return nil, err
	}
	if prices == nil {
		return nil, fmt.Errorf("budget: no price table")
	}
	return &Budget{caps: c, prices: prices}, nil
}

// Caps returns the caps in force.
func (b *Budget) Caps() Caps { return b.caps }

// Charge adds one response's usage, priced for model. It returns a
// *BudgetExceededError once the task's spend passes MaxUSD or the turn's
// output passes MaxTokensPerTurn, and an *UnknownModelError when model has
// no price. The usage is counted either way, so reports show what was
// really spent.
func (b *Budget) Charge(model string, u Usage) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.usage = b.usage.Add(u)
	if !u.IsZero() {
		price, err := b.prices.Lookup(model)
		if err != nil {
			return err
		}
		b.usd += price.Cost(u)
	}
	if u.OutputTokens > int64(b.caps.MaxTokensPerTurn) {
		// The API enforces max_tokens itself; an OpenAI-compatible
		// server might not, and the cap must hold regardless.
		return b.exceed(CapMaxTokensPerTurn, float64(b.caps.MaxTokensPerTurn), float64(u.OutputTokens))
	}
	if b.usd > b.caps.MaxUSD {
		return b.exceed(CapMaxUSD, b.caps.MaxUSD, b.usd)
	}
	return nil
}

// CountToolCall counts one tool call about to be executed and returns a
// *BudgetExceededError when it would be one more than MaxToolIterations.
func (b *Budget) CountToolCall() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.toolCalls++
	if b.toolCalls > b.caps.MaxToolIterations {
		return b.exceed(CapMaxToolIterations, float64(b.caps.MaxToolIterations), float64(b.toolCalls))
	}
	return nil
}

// exceed returns the error for a cap passed.
func (b *Budget) exceed(name string, limit, seen float64) error {
	return &BudgetExceededError{Cap: name, Limit: limit, Seen: seen}
}

// Usage returns the tokens counted so far.
func (b *Budget) Usage() Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.usage
}

// USD returns the dollars spent so far.
func (b *Budget) USD() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.usd
}

// Price returns what usage costs for model by the budget's price table,
// without charging it.
func (b *Budget) Price(model string, u Usage) (float64, error) {
	price, err := b.prices.Lookup(model)
	if err != nil {
		return 0, err
	}
	return price.Cost(u), nil
}

// ChargeReported adds the totals an outside agent reported for its task:
// its tokens and what it says they cost. Only max_usd applies: the
// harness never sees an outside agent's turns, so max_tokens_per_turn is
// the agent's own to honour. Like Charge, it counts the usage either way.
func (b *Budget) ChargeReported(u Usage, usd float64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.usage = b.usage.Add(u)
	b.usd += usd
	if b.usd > b.caps.MaxUSD {
		return b.exceed(CapMaxUSD, b.caps.MaxUSD, b.usd)
	}
	return nil
}
