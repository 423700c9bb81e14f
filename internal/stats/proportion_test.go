package stats

import (
	"math"
	"math/big"
	"testing"
)

// Newcombe (1998a), "Two-sided confidence intervals for the single
// proportion: comparison of seven methods", Statistics in Medicine
// 17:857–872: method 3 (Wilson, no continuity correction) and method 5
// (Clopper-Pearson) for its four worked examples, to 4 decimals.
var newcombe1998a = []struct {
	k, n          int
	wLo, wHi      float64
	exactLo, exHi float64
}{
	{81, 263, 0.2553, 0.3662, 0.2527, 0.3676},
	{15, 148, 0.0624, 0.1605, 0.0578, 0.1617},
	{0, 20, 0, 0.1611, 0, 0.1684},
	{1, 29, 0.0061, 0.1718, 0.0009, 0.1776},
}

func TestWilsonPublished(t *testing.T) {
	for _, c := range newcombe1998a {
		lo, hi := Wilson95(c.k, c.n)
		if math.Abs(lo-c.wLo) > 0.5e-4 || math.Abs(hi-c.wHi) > 0.5e-4 {
			t.Errorf("Wilson95(%d, %d) = [%.5f, %.5f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.wLo, c.wHi)
		}
	}
	// The 95% intervals printed in this project's golden reports
	// (internal/report/testdata), to 3 decimals.
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{7, 10, 0.397, 0.892}, {5, 9, 0.267, 0.811}, {1, 5, 0.036, 0.624}} {
		lo, hi := Wilson95(c.k, c.n)
		if math.Abs(lo-c.lo) > 0.5e-3 || math.Abs(hi-c.hi) > 0.5e-3 {
			t.Errorf("Wilson95(%d, %d) = [%.4f, %.4f], want [%.3f, %.3f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// The Wilson bounds are the roots of (n + z²)p² − (2k + z²)p + k²/n = 0,
// solved here in 256-bit floats as a quadratic.
func TestWilsonIsTheScoreQuadraticRoots(t *testing.T) {
	for _, z := range []float64{1, Z95, 2.5758293035489004} {
		for _, c := range [][2]int{{1, 1}, {0, 7}, {3, 7}, {7, 7}, {13, 40}, {81, 263}, {999, 1000}, {4321, 10000}} {
			k, n := c[0], c[1]
			f := func(v float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(v) }
			zz := f(z)
			zz.Mul(zz, zz)
			a := new(big.Float).Add(f(float64(n)), zz)
			b := new(big.Float).Add(f(float64(2*k)), zz)
			cc := new(big.Float).Quo(f(float64(k*k)), f(float64(n)))
			disc := new(big.Float).Mul(b, b)
			disc.Sub(disc, new(big.Float).Mul(f(4), new(big.Float).Mul(a, cc)))
			if disc.Sign() < 0 {
				disc.SetInt64(0)
			}
			root := new(big.Float).Sqrt(disc)
			twoA := new(big.Float).Mul(f(2), a)
			wlo, _ := new(big.Float).Quo(new(big.Float).Sub(b, root), twoA).Float64()
			whi, _ := new(big.Float).Quo(new(big.Float).Add(b, root), twoA).Float64()
			lo, hi := Wilson(k, n, z)
			if math.Abs(lo-wlo) > 1e-14 || math.Abs(hi-whi) > 1e-14 {
				t.Errorf("Wilson(%d, %d, %v) = [%.17g, %.17g], roots [%.17g, %.17g]", k, n, z, lo, hi, wlo, whi)
			}
		}
	}
}

func TestWilsonEdges(t *testing.T) {
	if lo, hi := Wilson95(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson95(0, 0) = [%v, %v], want [0, 1]", lo, hi)
	}
	for _, c := range [][2]int{{-1, 3}, {4, 3}, {1, -2}} {
		if lo, _ := Wilson95(c[0], c[1]); !math.IsNaN(lo) {
			t.Errorf("Wilson95%v = %v, want NaN", c, lo)
		}
	}
}

func TestClopperPearsonPublished(t *testing.T) {
	for _, c := range newcombe1998a {
		lo, hi := ClopperPearson(c.k, c.n, 0.95)
		if math.Abs(lo-c.exactLo) > 0.5e-4 || math.Abs(hi-c.exHi) > 0.5e-4 {
			t.Errorf("ClopperPearson(%d, %d) = [%.5f, %.5f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.exactLo, c.exHi)
		}
	}
}

// R: binom.test(3, 12)$conf.int = 0.05486064 0.57185846. The reference is
// recomputed here by bisection on the exact binomial tails in 256-bit
// floats: P(X ≥ 3 | 12, lo) = 0.025 and P(X ≤ 3 | 12, hi) = 0.025.
func TestClopperPearsonBinomTest(t *testing.T) {
	lo, hi := ClopperPearson(3, 12, 0.95)
	refLo := bisect(func(x float64) float64 { v, _ := binomSumFloat(12, 3, 12, x).Float64(); return v - 0.025 }, 0, 1)
	refHi := bisect(func(x float64) float64 { v, _ := binomSumFloat(12, 0, 3, x).Float64(); return v - 0.025 }, 0, 1)
	if math.Abs(lo-refLo) > 1e-13 || math.Abs(hi-refHi) > 1e-13 {
		t.Errorf("ClopperPearson(3, 12) = [%.15f, %.15f], bisection [%.15f, %.15f]", lo, hi, refLo, refHi)
	}
	if math.Abs(refLo-0.05486064) > 5e-9 || math.Abs(refHi-0.57185846) > 5e-9 {
		t.Errorf("bisection [%.10f, %.10f] disagrees with binom.test", refLo, refHi)
	}
}

// Each bound solves its defining tail equation, checked with exact
// binomial sums at the returned value; at k = 0 and k = n the bounds have
// closed forms, 1 − (α/2)^(1/n) and (α/2)^(1/n).
func TestClopperPearsonDefiningEquations(t *testing.T) {
	for _, level := range []float64{0.9, 0.95, 0.99} {
		half := (1 - level) / 2
		for _, c := range [][2]int{{0, 1}, {1, 1}, {0, 10}, {1, 10}, {5, 10}, {10, 10}, {7, 31}, {40, 300}, {299, 300}} {
			k, n := c[0], c[1]
			lo, hi := ClopperPearson(k, n, level)
			if k == 0 && lo != 0 || k == n && hi != 1 {
				t.Errorf("ClopperPearson(%d, %d) = [%v, %v] must reach the boundary", k, n, lo, hi)
			}
			if k > 0 {
				tail, _ := binomSumFloat(n, k, n, lo).Float64()
				if !near(tail, half, 1e-9) {
					t.Errorf("level %v: P(X ≥ %d | %d, %.17g) = %.17g, want %v", level, k, n, lo, tail, half)
				}
			}
			if k < n {
				tail, _ := binomSumFloat(n, 0, k, hi).Float64()
				if !near(tail, half, 1e-9) {
					t.Errorf("level %v: P(X ≤ %d | %d, %.17g) = %.17g, want %v", level, k, n, hi, tail, half)
				}
			}
			if k == 0 {
				if want := 1 - math.Pow(half, 1/float64(n)); !near(hi, want, 1e-13) {
					t.Errorf("ClopperPearson(0, %d) upper = %.17g, want %.17g", n, hi, want)
				}
			}
			if k == n {
				if want := math.Pow(half, 1/float64(n)); !near(lo, want, 1e-13) {
					t.Errorf("ClopperPearson(%d, %d) lower = %.17g, want %.17g", n, n, lo, want)
				}
			}
			// The exact interval contains the Wilson interval's centre
			// region: it is never narrower on both sides.
			wlo, whi := Wilson(k, n, normalQuantile(1-(1-level)/2))
			if lo > wlo && hi < whi {
				t.Errorf("ClopperPearson(%d, %d) = [%v, %v] lies inside Wilson [%v, %v]", k, n, lo, hi, wlo, whi)
			}
		}
	}
	if lo, hi := ClopperPearson(0, 0, 0.95); lo != 0 || hi != 1 {
		t.Error("ClopperPearson(0, 0) must be [0, 1]")
	}
	if lo, _ := ClopperPearson(3, 2, 0.95); !math.IsNaN(lo) {
		t.Error("ClopperPearson(3, 2) must be NaN")
	}
	if lo, _ := ClopperPearson(1, 2, 1); !math.IsNaN(lo) {
		t.Error("level 1 must give NaN")
	}
}
