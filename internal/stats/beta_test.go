package stats

import (
	"math"
	"testing"
)

// For integer a, b, I_x(a, b) = P(Y ≥ a) for Y ~ Bin(a+b−1, x)
// (Abramowitz and Stegun 26.5.24): an exact rational for rational x.
func TestRegIncBetaIntegerAgainstBinomialSums(t *testing.T) {
	cases := []struct {
		a, b     int
		num, den int64 // x = num/den
	}{
		{1, 1, 3, 10},
		{2, 3, 2, 5},
		{5, 5, 1, 2},
		{3, 12, 1, 4},
		{12, 3, 3, 4},
		{10, 20, 1, 4},
		{10, 20, 9, 10},
		{50, 60, 9, 20},
		{1, 100, 1, 100},
		{100, 1, 99, 100},
		{200, 300, 41, 100},
		{2, 999, 1, 1000},
		{700, 300, 7, 10},
	}
	for _, c := range cases {
		want := ratFloat(binomSumRat(c.a+c.b-1, c.a, c.a+c.b-1, c.num, c.den))
		got := regIncBeta(float64(c.a), float64(c.b), float64(c.num)/float64(c.den))
		if !near(got, want, 1e-11) {
			t.Errorf("RegIncBeta(%d, %d, %d/%d) = %.17g, want %.17g", c.a, c.b, c.num, c.den, got, want)
		}
	}
}

// Closed forms: I_x(a, 1) = x^a, I_x(1, b) = 1 − (1−x)^b,
// I_x(1/2, 1/2) = (2/π) arcsin √x.
func TestRegIncBetaClosedForms(t *testing.T) {
	for _, x := range []float64{1e-8, 0.01, 0.2, 0.5, 0.77, 0.999} {
		for _, a := range []float64{0.3, 1, 2.5, 17} {
			if got, want := regIncBeta(a, 1, x), math.Pow(x, a); !near(got, want, 1e-13) {
				t.Errorf("I_%v(%v, 1) = %.17g, want x^a = %.17g", x, a, got, want)
			}
			if got, want := regIncBeta(1, a, x), -math.Expm1(a*math.Log1p(-x)); !near(got, want, 1e-13) {
				t.Errorf("I_%v(1, %v) = %.17g, want 1-(1-x)^b = %.17g", x, a, got, want)
			}
		}
		if got, want := regIncBeta(0.5, 0.5, x), 2/math.Pi*math.Asin(math.Sqrt(x)); !near(got, want, 1e-13) {
			t.Errorf("I_%v(1/2, 1/2) = %.17g, want %.17g", x, got, want)
		}
	}
}

func TestRegIncBetaEdges(t *testing.T) {
	if regIncBeta(2, 3, 0) != 0 || regIncBeta(2, 3, 1) != 1 {
		t.Error("I_0 must be 0 and I_1 must be 1")
	}
	for _, c := range [][3]float64{{0, 1, 0.5}, {1, -1, 0.5}, {1, 1, -0.1}, {1, 1, 1.1}, {math.NaN(), 1, 0.5}, {1, 1, math.NaN()}} {
		if v := regIncBeta(c[0], c[1], c[2]); !math.IsNaN(v) {
			t.Errorf("RegIncBeta%v = %v, want NaN", c, v)
		}
	}
}

// betaQuantile inverts RegIncBeta; the check evaluates the tail at the
// returned x with exact binomial sums (integer a, b), so a wrong root
// cannot hide behind a matching wrong RegIncBeta.
func TestBetaQuantileInvertsBinomialTail(t *testing.T) {
	for _, c := range []struct{ p, a, b float64 }{
		{0.025, 1, 10}, {0.025, 3, 10}, {0.975, 4, 9}, {0.5, 5, 5}, {1e-6, 2, 50},
		{0.3, 30, 70}, {0.999, 200, 30}, {0.05, 1, 1}, {0.025, 81, 183}, {0.025, 1000, 1},
	} {
		x := betaQuantile(c.p, c.a, c.b)
		a, b := int(c.a), int(c.b)
		tail, _ := binomSumFloat(a+b-1, a, a+b-1, x).Float64()
		if !near(tail, c.p, 1e-10) {
			t.Errorf("BetaQuantile(%v, %v, %v) = %.17g where the exact tail is %.17g", c.p, c.a, c.b, x, tail)
		}
	}
	// Non-integer parameters, round trip.
	for _, c := range []struct{ p, a, b float64 }{{0.05, 0.5, 0.5}, {0.9, 2.5, 0.5}, {0.01, 15, 0.5}, {0.4, 0.2, 7}} {
		x := betaQuantile(c.p, c.a, c.b)
		if got := regIncBeta(c.a, c.b, x); !near(got, c.p, 1e-12) {
			t.Errorf("RegIncBeta(BetaQuantile(%v, %v, %v)) = %.17g", c.p, c.a, c.b, got)
		}
	}
	if betaQuantile(0, 2, 3) != 0 || betaQuantile(1, 2, 3) != 1 || !math.IsNaN(betaQuantile(-0.1, 2, 3)) {
		t.Error("BetaQuantile edges")
	}
}
