package llm

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestDefaultPrices(t *testing.T) {
	t.Parallel()
	p := mustPrices(t)
	tests := []struct {
		model string
		want  Price
	}{
		{DefaultAnthropicModel, Price{Input: 3, Output: 15, CacheRead: 0.30, CacheWrite: 3.75}},
		{defaultOpenAIModel, Price{Input: 2.50, Output: 15, CacheRead: 0.25}},
		{"claude-haiku-4-5", Price{Input: 1, Output: 5, CacheRead: 0.10, CacheWrite: 1.25}},
		{"claude-haiku-4-5-20251001", Price{Input: 1, Output: 5, CacheRead: 0.10, CacheWrite: 1.25}}, // an alias
		{"gpt-4o-mini", Price{Input: 0.15, Output: 0.60, CacheRead: 0.075}},
	}
	for _, tt := range tests {
		got, err := p.Lookup(tt.model)
		if err != nil || got != tt.want {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", tt.model, got, err, tt.want)
		}
	}

	_, err := p.Lookup("claude-unknown-9")
	var unknown *UnknownModelError
	if !errors.As(err, &unknown) || unknown.Model != "claude-unknown-9" || !strings.Contains(err.Error(), "max_usd") {
		t.Errorf("Lookup of an unknown model: error %v, want an *UnknownModelError explaining why", err)
	}
	for m, price := range p.byModel {
		if price.check() != nil {
			t.Errorf("%s has an invalid price %+v", m, price)
		}
	}
}

func TestPriceCost(t *testing.T) {
	t.Parallel()
	p := Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	got := p.Cost(Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadTokens: 2_000_000, CacheWriteTokens: 400_000})
	want := 3 + 1.5 + 0.6 + 1.5
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("Cost = %v, want %v", got, want)
	}
}

func TestPricesWith(t *testing.T) {
	t.Parallel()
	base := mustPrices(t)
	extra := Price{Input: 2, Output: 10, CacheRead: 0.2, CacheWrite: 2.5}
	p, err := base.With("claude-sonnet-5", extra)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Lookup("claude-sonnet-5"); err != nil || got != extra {
		t.Errorf("Lookup after With = %+v, %v", got, err)
	}
	if _, err := base.Lookup("claude-sonnet-5"); err == nil {
		t.Error("With changed the table it was called on")
	}
	if _, err := base.With("free-model", Price{}); err == nil {
		t.Error("an all-zero price was accepted; it would switch the dollar cap off")
	}
	if _, err := base.With("", extra); err == nil {
		t.Error("a price without a model name was accepted")
	}
}

func TestParsePrice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		wantModel string
		want      Price
		wantErr   string
	}{
		{in: "m=1,2", wantModel: "m", want: Price{Input: 1, Output: 2}},
		{in: "claude-sonnet-5=2,10,0.2,2.5", wantModel: "claude-sonnet-5", want: Price{2, 10, 0.2, 2.5}},
		{in: " local = 0.01 , 0.02 , 0 ", wantModel: "local", want: Price{Input: 0.01, Output: 0.02}},
		{in: "m", wantErr: "want MODEL=INPUT,OUTPUT"},
		{in: "=1,2", wantErr: "want MODEL=INPUT,OUTPUT"},
		{in: "m=1", wantErr: "want 2 to 4 comma-separated numbers"},
		{in: "m=1,2,3,4,5", wantErr: "got 5"},
		{in: "m=1,x", wantErr: `"x" is not a number`},
		{in: "m=-1,2", wantErr: "input price -1"},
		{in: "m=0,0", wantErr: "both zero"},
		{in: "m=NaN,1", wantErr: "not a non-negative number"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			model, price, err := ParsePrice(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParsePrice(%q): error %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || model != tt.wantModel || price != tt.want {
				t.Errorf("ParsePrice(%q) = %q, %+v, %v; want %q, %+v", tt.in, model, price, err, tt.wantModel, tt.want)
			}
		})
	}
}

func TestParsePricesRejects(t *testing.T) {
	t.Parallel()
	const head = "schema: contractbench.prices/v1\nsource: s\nas_of: \"2026-01-01\"\n"
	tests := []struct {
		name, yaml, wantErr string
	}{
		{"empty", "", "empty price table"},
		{"wrong schema", "schema: v0\nsource: s\nas_of: x\nmodels: {}\n", `schema "v0"`},
		{"no provenance", "schema: contractbench.prices/v1\nmodels: {}\n", "as_of and source"},
		{"unknown field", head + "models:\n  m:\n    input: 1\n    output: 2\n    batch: 0.5\n", "field batch not found"},
		{"negative price", head + "models:\n  m:\n    input: -1\n    output: 2\n", "models.m: input price -1"},
		{"alias collides", head + "models:\n  a:\n    input: 1\n    output: 1\n  b:\n    aliases: [a]\n    input: 1\n    output: 1\n", `"a" is listed twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := parsePrices([]byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parsePrices: error %v, want %q", err, tt.wantErr)
			}
		})
	}
}
