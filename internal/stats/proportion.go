package stats

import "math"

// Wilson returns the Wilson score interval for k successes in n trials at
// the normal quantile z (Z95 for 95%):
//
//	(p̂ + z²/(2n) ± z √(p̂(1−p̂)/n + z²/(4n²))) / (1 + z²/n),  p̂ = k/n.
//
// Its bounds are the two p with (p̂ − p)² = z² p(1−p)/n, the values not
// rejected by the score test (Wilson 1927, "Probable inference, the law of
// succession, and statistical inference", JASA 22:209–212; Newcombe 1998,
// "Two-sided confidence intervals for the single proportion: comparison of
// seven methods", Statistics in Medicine 17:857–872, method 3). It stays in
// [0, 1] and is informative at k = 0 and k = n. With n = 0 it returns
// [0, 1]; with k outside [0, n] or z not positive, NaN.
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n == 0 && k == 0 {
		return 0, 1
	}
	if n < 0 || k < 0 || k > n || !(z > 0) || math.IsInf(z, 0) {
		return math.NaN(), math.NaN()
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, center-half), math.Min(1, center+half)
	// At k = 0 and k = n one bound is exactly the observed rate; the
	// formula gives it up to rounding.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// Wilson95 is Wilson at 95%: Wilson(k, n, Z95).
func Wilson95(k, n int) (lo, hi float64) {
	return Wilson(k, n, Z95)
}

// ClopperPearson returns the exact (Clopper-Pearson) interval for k
// successes in n trials at the confidence level (0.95 for 95%). With
// α = 1 − level, its bounds solve P(X ≥ k | lo) = α/2 and
// P(X ≤ k | hi) = α/2 for X ~ Bin(n, p), which through the beta
// distribution are
//
//	lo = B⁻¹(α/2; k, n−k+1)      (0 when k = 0)
//	hi = B⁻¹(1−α/2; k+1, n−k)    (1 when k = n)
//
// where B⁻¹(q; a, b) is the q-quantile of Beta(a, b), computed by
// betaQuantile (Clopper and Pearson 1934, "The use of confidence or
// fiducial limits illustrated in the case of the binomial", Biometrika
// 26:404–413). Its coverage is at least the level for every p, so it is
// wider than Wilson; R's binom.test(k, n)$conf.int gives the same
// interval. With n = 0 it returns [0, 1]; for invalid input, NaN.
func ClopperPearson(k, n int, level float64) (lo, hi float64) {
	if n == 0 && k == 0 && level > 0 && level < 1 {
		return 0, 1
	}
	if n < 0 || k < 0 || k > n || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	half := (1 - level) / 2
	kf, nf := float64(k), float64(n)
	lo, hi = 0, 1
	if k > 0 {
		lo = betaQuantile(half, kf, nf-kf+1)
	}
	if k < n {
		// 1 − B⁻¹(α/2; n−k, k+1) = B⁻¹(1−α/2; k+1, n−k), solved in the
		// small tail where the function has its full precision.
		hi = 1 - betaQuantile(half, nf-kf, kf+1)
	}
	return lo, hi
}
