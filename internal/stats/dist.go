package stats

import "math"

// Z95 is the standard normal quantile for a two-sided 95% interval,
// Φ⁻¹(0.975).
const Z95 = 1.959963984540054

// normalCDF returns Φ(x), the standard normal distribution function,
// as erfc(−x/√2)/2.
func normalCDF(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// normalQuantile returns Φ⁻¹(p), the p-quantile of the standard normal
// distribution. It starts from −√2 · erf⁻¹(1 − 2p) (math.Erfinv, Wichura
// 1988, algorithm AS 241), which loses relative precision in the far lower
// tail because 1 − 2p is rounded, and polishes it with two Halley steps on
// Φ(x) − p, with Φ from math.Erfc, which keeps its relative precision
// there (the refinement of Acklam's algorithm). The upper half is
// −Φ⁻¹(1 − p), 1 − p being exact for p ≥ 1/2. It returns ±Inf at p = 1
// and 0, and NaN outside [0, 1].
func normalQuantile(p float64) float64 {
	switch {
	case !(p >= 0 && p <= 1):
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p > 0.5:
		return -normalQuantile(1 - p)
	case p == 0.5:
		return 0
	}
	x := -math.Sqrt2 * math.Erfinv(1-2*p)
	for range 2 {
		e := normalCDF(x) - p
		u := e * math.Sqrt(2*math.Pi) * math.Exp(x*x/2)
		x -= u / (1 + x*u/2)
	}
	return x
}

// TCDF returns the distribution function of Student's t with df > 0
// degrees of freedom:
//
//	F(t) = 1 − I_(df/(df+t²))(df/2, 1/2)/2 for t ≥ 0,  F(−t) = 1 − F(t)
//
// (Abramowitz and Stegun 26.7.1 with 26.5.27).
func TCDF(t, df float64) float64 {
	if !(df > 0) || math.IsNaN(t) {
		return math.NaN()
	}
	if math.IsInf(t, 0) {
		if t > 0 {
			return 1
		}
		return 0
	}
	tail := 0.5 * regIncBeta(df/2, 0.5, df/(df+t*t))
	if t >= 0 {
		return 1 - tail
	}
	return tail
}

// tQuantile returns the p-quantile of Student's t with df > 0 degrees of
// freedom. For p > 1/2 it solves I_x(df/2, 1/2) = 2(1−p) with BetaQuantile
// and returns t = √(df (1−x)/x); the distribution is symmetric about 0.
// It returns ±Inf at p = 1 and 0, and NaN for invalid arguments.
func tQuantile(p, df float64) float64 {
	switch {
	case !(df > 0) || !(p >= 0 && p <= 1):
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	}
	q := p
	if p < 0.5 {
		q = 1 - p
	}
	x := betaQuantile(2*(1-q), df/2, 0.5)
	t := math.Sqrt(df * (1 - x) / x)
	if p < 0.5 {
		return -t
	}
	return t
}
