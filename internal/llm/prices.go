package llm

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// pricesYAML is the one price table; see its header for units and sources.
//
//go:embed prices.yaml
var pricesYAML []byte

const pricesSchema = "contractbench.prices/v1"

// Price is what a model costs, in USD per million tokens of each kind.
type Price struct {
	Input      float64 `yaml:"input"`
	Output     float64 `yaml:"output"`
	CacheRead  float64 `yaml:"cache_read"`
	CacheWrite float64 `yaml:"cache_write"`
}

// Cost returns the dollars u costs at p.
func (p Price) Cost(u Usage) float64 {
	return (float64(u.InputTokens)*p.Input +
		float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadTokens)*p.CacheRead +
		float64(u.CacheWriteTokens)*p.CacheWrite) / 1e6
}

func (p Price) check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"input", p.Input}, {"output", p.Output}, {"cache_read", p.CacheRead}, {"cache_write", p.CacheWrite}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s price %v is not a non-negative number", f.name, f.v)
		}
	}
	if p.Input == 0 && p.Output == 0 {
		// A model that costs nothing would silently disable the max_usd
		// cap; a local model that is really free must say so with a
		// tiny price rather than by accident.
		return errors.New("input and output prices are both zero")
	}
	return nil
}

// Prices is a price table keyed by model name. It is immutable; With
// returns a new table.
type Prices struct {
	byModel map[string]Price
}

// UnknownModelError reports a model the price table does not list. Without
// a price the max_usd cap cannot be enforced, so such a model is refused.
type UnknownModelError struct {
	Model string
}

func (e *UnknownModelError) Error() string {
	return fmt.Sprintf("no price for model %q: the max_usd cap cannot be enforced without one; supply its price per million tokens", e.Model)
}

// DefaultPrices returns the embedded price table.
func DefaultPrices() (*Prices, error) {
	p, err := parsePrices(pricesYAML)
	if err != nil {
		return nil, fmt.Errorf("prices.yaml: %w", err)
	}
	return p, nil
}

type pricesFile struct {
	Schema string                `yaml:"schema"`
	Source string                `yaml:"source"`
	AsOf   string                `yaml:"as_of"`
	Models map[string]priceEntry `yaml:"models"`
}

type priceEntry struct {
	Aliases []string `yaml:"aliases"`
	Price   `yaml:",inline"`
}

func parsePrices(data []byte) (*Prices, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f pricesFile
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty price table")
		}
		return nil, err
	}
	if f.Schema != pricesSchema {
		return nil, fmt.Errorf("schema %q, want %q", f.Schema, pricesSchema)
	}
	if f.AsOf == "" || f.Source == "" {
		return nil, errors.New("as_of and source must say where the prices come from and when")
	}
	p := &Prices{byModel: make(map[string]Price)}
	for _, name := range slices.Sorted(maps.Keys(f.Models)) {
		e := f.Models[name]
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("models.%s: %w", name, err)
		}
		for _, n := range append([]string{name}, e.Aliases...) {
			if _, dup := p.byModel[n]; dup {
				return nil, fmt.Errorf("models.%s: %q is listed twice", name, n)
			}
			p.byModel[n] = e.Price
		}
	}
	return p, nil
}

// Lookup returns model's price or an *UnknownModelError.
func (p *Prices) Lookup(model string) (Price, error) {
	price, ok := p.byModel[model]
	if !ok {
		return Price{}, &UnknownModelError{Model: model}
	}
	return price, nil
}

// With returns a copy of p in which model costs price; the CLI's --price
// uses it for models the table does not list, or lists at an old price.
func (p *Prices) With(model string, price Price) (*Prices, error) {
	if model == "" {
		return nil, errors.New("price: no model name")
	}
	if err := price.check(); err != nil {
		return nil, fmt.Errorf("price for %s: %w", model, err)
	}
	out := &Prices{byModel: maps.Clone(p.byModel)}
	out.byModel[model] = price
	return out, nil
}

// ParsePrice parses a price given on the command line as
// MODEL=INPUT,OUTPUT[,CACHE_READ[,CACHE_WRITE]] in USD per million tokens,
// e.g. "claude-sonnet-5=2,10,0.2,2.5". Cache prices left out are zero.
func ParsePrice(s string) (model string, price Price, err error) {
	model, list, ok := strings.Cut(s, "=")
	model = strings.TrimSpace(model)
	if !ok || model == "" {
		return "", Price{}, fmt.Errorf("price %q: want MODEL=INPUT,OUTPUT[,CACHE_READ[,CACHE_WRITE]] in USD per million tokens", s)
	}
	parts := strings.Split(list, ",")
	if len(parts) < 2 || len(parts) > 4 {
		return "", Price{}, fmt.Errorf("price %q: want 2 to 4 comma-separated numbers after %q, got %d", s, model+"=", len(parts))
	}
	var v [4]float64
	for i, part := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil {
			return "", Price{}, fmt.Errorf("price %q: %q is not a number", s, part)
		}
		v[i] = f
	}
	price = Price{Input: v[0], Output: v[1], CacheRead: v[2], CacheWrite: v[3]}
	if err := price.check(); err != nil {
		return "", Price{}, fmt.Errorf("price %q: %w", s, err)
	}
	return model, price, nil
}
