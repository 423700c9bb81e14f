package llm

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
)

func TestCapsLower(t *testing.T) {
	t.Parallel()
	def := DefaultCaps()
	tests := []struct {
		name     string
		override Caps
		want     Caps
		wantErr  string
	}{
		{"zero override keeps everything", Caps{}, def, ""},
		{"lower every cap", Caps{MaxTokensPerTurn: 1024, MaxToolIterations: 10, MaxUSD: 0.05}, Caps{1024, 10, 0.05}, ""},
		{"lower one cap", Caps{MaxToolIterations: 5}, Caps{MaxTokensPerTurn, 5, maxUSD}, ""},
		{"equal is not a raise", def, def, ""},
		{"raise tokens", Caps{MaxTokensPerTurn: 8192}, def, "max_tokens_per_turn 8192 would raise the cap of 4096; caps can be lowered, never raised"},
		{"raise iterations", Caps{MaxToolIterations: 51}, def, "max_tool_iterations 51 would raise the cap of 50"},
		{"raise dollars", Caps{MaxUSD: 1}, def, "max_usd 1.00 would raise the cap of 0.50"},
		{"negative", Caps{MaxUSD: -0.1}, def, "max_usd -0.10 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := def.Lower(tt.override)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Lower(%+v): error %v, want %q", tt.override, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Lower(%+v) = %+v, %v; want %+v", tt.override, got, err, tt.want)
			}
		})
	}

	// Lowering twice: the second override is judged against the first.
	low, err := def.Lower(Caps{MaxToolIterations: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := low.Lower(Caps{MaxToolIterations: 20}); err == nil {
		t.Error("raising a lowered cap back up was accepted")
	}
}

func TestNewBudgetRefusesRaisedCaps(t *testing.T) {
	t.Parallel()
	prices := mustPrices(t)
	if _, err := NewBudget(Caps{MaxUSD: 5}, prices); err == nil || !strings.Contains(err.Error(), "never raised") {
		t.Errorf("NewBudget with max_usd 5: error %v, want a refusal", err)
	}
	b, err := NewBudget(Caps{}, prices)
	if err != nil {
		t.Fatal(err)
	}
	if b.Caps() != DefaultCaps() {
		t.Errorf("zero caps became %+v, want the defaults", b.Caps())
	}
}

func TestBudgetCaps(t *testing.T) {
	t.Parallel()
	// claude-sonnet-4-6: $3 input, $15 output per million tokens.
	tests := []struct {
		name    string
		caps    Caps
		run     func(b *Budget) error
		wantCap string
		limit   float64
		seen    float64
	}{
		{
			name: "tool iterations: the 51st call",
			caps: Caps{},
			run: func(b *Budget) error {
				for i := 0; i < MaxToolIterations; i++ {
					if err := b.CountToolCall(); err != nil {
						return errors.New("cap hit early: " + err.Error())
					}
				}
				return b.CountToolCall()
			},
			wantCap: CapMaxToolIterations, limit: 50, seen: 51,
		},
		{
			name: "lowered tool iterations",
			caps: Caps{MaxToolIterations: 2},
			run: func(b *Budget) error {
				b.CountToolCall()
				b.CountToolCall()
				return b.CountToolCall()
			},
			wantCap: CapMaxToolIterations, limit: 2, seen: 3,
		},
		{
			name: "dollars: crossing $0.50 over several turns",
			caps: Caps{},
			run: func(b *Budget) error {
				// 100k input tokens cost $0.30 a turn: fine once, over
				// the cap on the second.
				if err := b.Charge("claude-sonnet-4-6", Usage{InputTokens: 100_000}); err != nil {
					return errors.New("cap hit early: " + err.Error())
				}
				return b.Charge("claude-sonnet-4-6", Usage{InputTokens: 100_000})
			},
			wantCap: CapMaxUSD, limit: 0.5, seen: 0.6,
		},
		{
			name: "dollars: cache tokens count",
			caps: Caps{MaxUSD: 0.01},
			run: func(b *Budget) error {
				// 10k cache writes at $3.75/M = $0.0375.
				return b.Charge("claude-sonnet-4-6", Usage{CacheWriteTokens: 10_000})
			},
			wantCap: CapMaxUSD, limit: 0.01, seen: 0.0375,
		},
		{
			name: "tokens per turn: a server ignoring max_tokens",
			caps: Caps{MaxTokensPerTurn: 1000},
			run: func(b *Budget) error {
				return b.Charge("claude-sonnet-4-6", Usage{OutputTokens: 1001})
			},
			wantCap: CapMaxTokensPerTurn, limit: 1000, seen: 1001,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := NewBudget(tt.caps, mustPrices(t))
			if err != nil {
				t.Fatal(err)
			}
			err = tt.run(b)
			var exceeded *BudgetExceededError
			if !errors.As(err, &exceeded) {
				t.Fatalf("error %v, want a *BudgetExceededError", err)
			}
			if exceeded.Cap != tt.wantCap || exceeded.Limit != tt.limit || math.Abs(exceeded.Seen-tt.seen) > 1e-9 {
				t.Errorf("exceeded %+v, want cap %s limit %g seen %g", exceeded, tt.wantCap, tt.limit, tt.seen)
			}
			if !strings.HasPrefix(err.Error(), "budget exceeded: "+tt.wantCap) {
				t.Errorf("message %q does not name the cap", err)
			}
		})
	}
}

func TestBudgetAccounting(t *testing.T) {
	t.Parallel()
	b, err := NewBudget(Caps{}, mustPrices(t))
	if err != nil {
		t.Fatal(err)
	}
	turns := []Usage{
		{InputTokens: 2000, OutputTokens: 100, CacheWriteTokens: 1000},
		{InputTokens: 500, OutputTokens: 50, CacheReadTokens: 1000},
	}
	for _, u := range turns {
		if err := b.Charge("claude-sonnet-4-6", u); err != nil {
			t.Fatal(err)
		}
	}
	// (2500×3 + 150×15 + 1000×0.30 + 1000×3.75) / 1e6
	const want = (2500*3.0 + 150*15.0 + 1000*0.30 + 1000*3.75) / 1e6
	if got := b.USD(); math.Abs(got-want) > 1e-12 {
		t.Errorf("USD() = %v, want %v", got, want)
	}
	if got := b.Usage(); got != (Usage{InputTokens: 2500, OutputTokens: 150, CacheReadTokens: 1000, CacheWriteTokens: 1000}) {
		t.Errorf("Usage() = %+v", got)
	}

	// Replay's zero usage costs nothing whatever the model.
	if err := b.Charge("a-model-nobody-prices", Usage{}); err != nil {
		t.Errorf("zero usage of an unpriced model: %v", err)
	}
	var unknown *UnknownModelError
	if err := b.Charge("a-model-nobody-prices", Usage{InputTokens: 1}); !errors.As(err, &unknown) || unknown.Model != "a-model-nobody-prices" {
		t.Errorf("usage of an unpriced model: error %v, want an *UnknownModelError", err)
	}
}

func TestBudgetConcurrentUse(t *testing.T) {
	t.Parallel()
	b, err := NewBudget(Caps{}, mustPrices(t))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				b.CountToolCall()
				b.Charge("gpt-4.1-nano", Usage{InputTokens: 10})
			}
		}()
	}
	wg.Wait()
	if b.toolCalls != 100 || b.Usage().InputTokens != 1000 {
		t.Errorf("counted %d calls and %d tokens, want 100 and 1000", b.toolCalls, b.Usage().InputTokens)
	}
}

func TestFormatUSD(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{0: "$0.0000", 0.00042: "$0.0004", 0.5: "$0.5000", 1.23456: "$1.2346"} {
		if got := FormatUSD(in); got != want {
			t.Errorf("FormatUSD(%v) = %q, want %q", in, got, want)
		}
	}
}

func mustPrices(t *testing.T) *Prices {
	t.Helper()
	p, err := DefaultPrices()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
