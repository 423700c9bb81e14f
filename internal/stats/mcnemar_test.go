package stats

import (
	"math"
	"math/big"
	"testing"
)

// mcnemarRat returns the exact two-sided and mid-p McNemar p-values as
// rationals: with n = b+c, m = min(b, c) and S = Σ_{i≤m} C(n, i),
// exact = min(1, 2S/2^n) and mid-p = min(1, (2S − C(n, m))/2^n).
func mcnemarRat(b, c int) (exact, mid *big.Rat) {
	n, m := b+c, min(b, c)
	one := big.NewRat(1, 1)
	if n == 0 {
		return one, one
	}
	s := new(big.Int)
	for i := 0; i <= m; i++ {
		s.Add(s, choose(int64(n), int64(i)))
	}
	pow := new(big.Int).Lsh(big.NewInt(1), uint(n))
	exact = new(big.Rat).SetFrac(new(big.Int).Lsh(s, 1), pow)
	mid = new(big.Rat).SetFrac(new(big.Int).Sub(new(big.Int).Lsh(s, 1), choose(int64(n), int64(m))), pow)
	if exact.Cmp(one) > 0 {
		exact = one
	}
	if mid.Cmp(one) > 0 {
		mid = one
	}
	return exact, mid
}

func TestMcNemarAgainstExactRationals(t *testing.T) {
	cases := [][2]int{
		{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 5}, {5, 0}, {1, 7}, {7, 1}, {2, 8}, {3, 9}, {4, 1},
		{6, 16}, {10, 10}, {10, 11}, {12, 30}, {40, 20}, {100, 130}, {300, 420}, {0, 60}, {500, 500}, {1000, 1100},
	}
	for _, c := range cases {
		exact, mid := mcnemarRat(c[0], c[1])
		if got, want := McNemarExact(c[0], c[1]), ratFloat(exact); !near(got, want, 1e-12) {
			t.Errorf("McNemarExact(%d, %d) = %.17g, want %.17g", c[0], c[1], got, want)
		}
		if got, want := McNemarMidP(c[0], c[1]), ratFloat(mid); !near(got, want, 1e-12) {
			t.Errorf("McNemarMidP(%d, %d) = %.17g, want %.17g", c[0], c[1], got, want)
		}
	}
}

func TestMcNemarPublished(t *testing.T) {
	cases := []struct {
		what     string
		b, c     int
		exactNum int64 // exact p-value = exactNum/2^(b+c), before the cap at 1
		midNum   int64
		exact    float64 // published or printed value
		mid      float64
		tol      float64
	}{
		// R: binom.test(3, 12)$p.value = 0.1459961
		// = 2(1+12+66+220)/4096 = 598/4096.
		{"binom.test(3, 12)", 3, 9, 598, 598 - 220, 0.1459961, 0.0922852, 5e-8},
		// Fagerland, Lydersen and Laake (2013), BMC Med Res Methodol 13:91,
		// airway hyper-responsiveness example (b = 1, c = 7): exact
		// conditional p = 0.070, mid-p = 0.039. Exactly 2·9/256 and
		// (18 − 8)/256.
		{"Fagerland 2013", 1, 7, 18, 10, 0.070, 0.039, 5e-4},
	}
	for _, c := range cases {
		pow := math.Ldexp(1, c.b+c.c)
		if got, want := McNemarExact(c.b, c.c), float64(c.exactNum)/pow; !near(got, want, 1e-14) || math.Abs(got-c.exact) > c.tol {
			t.Errorf("%s: McNemarExact(%d, %d) = %.10g, want %.10g (printed %v)", c.what, c.b, c.c, got, want, c.exact)
		}
		if got, want := McNemarMidP(c.b, c.c), float64(c.midNum)/pow; !near(got, want, 1e-14) || math.Abs(got-c.mid) > c.tol {
			t.Errorf("%s: McNemarMidP(%d, %d) = %.10g, want %.10g (printed %v)", c.what, c.b, c.c, got, want, c.mid)
		}
	}
}

func TestMcNemarProperties(t *testing.T) {
	for b := 0; b <= 30; b++ {
		for c := 0; c <= 30; c++ {
			p, mid := McNemarExact(b, c), McNemarMidP(b, c)
			if p != McNemarExact(c, b) {
				t.Fatalf("McNemarExact is not symmetric at (%d, %d)", b, c)
			}
			if mid > p || mid < p/2 || p > 1 {
				t.Fatalf("(%d, %d): exact %v, mid-p %v out of order", b, c, p, mid)
			}
		}
	}
	if !math.IsNaN(McNemarExact(-1, 2)) || !math.IsNaN(McNemarMidP(2, -1)) {
		t.Error("negative counts must give NaN")
	}
}
