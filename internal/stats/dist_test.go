package stats

import (
	"math"
	"testing"
)

func TestNormalQuantile(t *testing.T) {
	// Tabulated quantiles; R: qnorm(p) printed with digits = 17.
	for _, c := range []struct{ p, z float64 }{
		{0.5, 0},
		{0.8, 0.8416212335729143},
		{0.95, 1.6448536269514722},
		{0.975, 1.959963984540054},
		{0.995, 2.5758293035489004},
		{0.025, -1.959963984540054},
	} {
		if got := normalQuantile(c.p); math.Abs(got-c.z) > 1e-14 {
			t.Errorf("NormalQuantile(%v) = %.17g, want %.17g", c.p, got, c.z)
		}
	}
	// Round trip through NormalCDF, which uses math.Erfc, not Erfinv.
	for _, p := range []float64{1e-10, 1e-4, 0.01, 0.3, 0.6, 0.99, 0.999999} {
		if got := normalCDF(normalQuantile(p)); !near(got, p, 1e-13) {
			t.Errorf("NormalCDF(NormalQuantile(%v)) = %.17g", p, got)
		}
	}
	if math.Abs(normalQuantile(0.975)-Z95) > 1e-15 {
		t.Errorf("NormalQuantile(0.975) = %.17g, want Z95", normalQuantile(0.975))
	}
	if !math.IsNaN(normalQuantile(1.5)) {
		t.Error("invalid probabilities must give NaN")
	}
}

// tDensity is Student's t density, written out for the integration check.
func tDensity(u, df float64) float64 {
	a, _ := math.Lgamma((df + 1) / 2)
	b, _ := math.Lgamma(df / 2)
	return math.Exp(a-b-0.5*math.Log(df*math.Pi)) * math.Pow(1+u*u/df, -(df+1)/2)
}

// simpsonTCDF integrates the t density from 0 to x by Simpson's rule:
// a route to F(x) that does not use the incomplete beta function.
func simpsonTCDF(x, df float64) float64 {
	const n = 20000
	h := x / n
	s := tDensity(0, df) + tDensity(x, df)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * tDensity(float64(i)*h, df)
	}
	return 0.5 + s*h/3
}

func TestTQuantile(t *testing.T) {
	// Closed forms (e.g. Hill 1970, CACM 13:617): ν = 1, tan(π(p−½));
	// ν = 2, (2p−1)/√(2p(1−p)); ν = 4, with a = 4p(1−p) and
	// q = cos(arccos(√a)/3)/√a, t = 2√(q−1) for p > ½.
	for _, p := range []float64{0.6, 0.9, 0.975, 0.995, 0.9999} {
		cases := []struct {
			df, want float64
		}{
			{1, math.Tan(math.Pi * (p - 0.5))},
			{2, (2*p - 1) / math.Sqrt(2*p*(1-p))},
			{4, func() float64 {
				a := 4 * p * (1 - p)
				q := math.Cos(math.Acos(math.Sqrt(a))/3) / math.Sqrt(a)
				return 2 * math.Sqrt(q-1)
			}()},
		}
		for _, c := range cases {
			if got := tQuantile(p, c.df); !near(got, c.want, 1e-11) {
				t.Errorf("TQuantile(%v, %v) = %.15g, want %.15g", p, c.df, got, c.want)
			}
			if got := tQuantile(1-p, c.df); !near(got, -c.want, 1e-10) {
				t.Errorf("TQuantile(%v, %v) = %.15g, want %.15g", 1-p, c.df, got, -c.want)
			}
		}
	}
	// Tabulated values; R: qt(p, df).
	for _, c := range []struct{ p, df, want float64 }{
		{0.975, 3, 3.182446305284263},
		{0.975, 5, 2.570581835636314},
		{0.975, 10, 2.228138851986273},
		{0.975, 30, 2.042272456301238},
		{0.995, 10, 3.169272672616951},
	} {
		if got := tQuantile(c.p, c.df); !near(got, c.want, 1e-10) {
			t.Errorf("TQuantile(%v, %v) = %.15g, want %.15g", c.p, c.df, got, c.want)
		}
	}
	// F(TQuantile(p)) = p with F integrated numerically.
	for _, c := range []struct{ p, df float64 }{{0.975, 3}, {0.975, 7}, {0.9, 12}, {0.995, 40}, {0.8, 2.5}} {
		x := tQuantile(c.p, c.df)
		if got := simpsonTCDF(x, c.df); math.Abs(got-c.p) > 1e-10 {
			t.Errorf("∫ density to TQuantile(%v, %v) = %.15g", c.p, c.df, got)
		}
		if got := TCDF(x, c.df); math.Abs(got-c.p) > 1e-13 {
			t.Errorf("TCDF(TQuantile(%v, %v)) = %.15g", c.p, c.df, got)
		}
	}
	// Large df tends to the normal quantile.
	if got := tQuantile(0.975, 1e7); math.Abs(got-Z95) > 1e-6 {
		t.Errorf("TQuantile(0.975, 1e7) = %.15g, want about Z95", got)
	}
	if tQuantile(0.5, 3) != 0 || !math.IsInf(tQuantile(1, 3), 1) || !math.IsNaN(tQuantile(0.9, 0)) {
		t.Error("TQuantile edges")
	}
}
