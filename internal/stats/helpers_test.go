package stats

import (
	"math"
	"math/big"
)

// The helpers below compute reference values with math/big, exactly for
// rationals and with 256-bit floats otherwise, by routes that share no
// code with the package: sums of binomial terms, never the incomplete beta
// function.

const bigPrec = 256

// choose returns C(n, k) exactly.
func choose(n, k int64) *big.Int { return new(big.Int).Binomial(n, k) }

// ratFloat returns r as the nearest float64.
func ratFloat(r *big.Rat) float64 { f, _ := r.Float64(); return f }

// binomSumRat returns Σ_{j=lo}^{hi} C(n, j) x^j (1−x)^(n−j) exactly for
// x = num/den, summed over the common denominator den^n.
func binomSumRat(n, lo, hi int, num, den int64) *big.Rat {
	a, b := big.NewInt(num), big.NewInt(den-num)
	sum := new(big.Int)
	for j := lo; j <= hi; j++ {
		t := choose(int64(n), int64(j))
		t.Mul(t, new(big.Int).Exp(a, big.NewInt(int64(j)), nil))
		t.Mul(t, new(big.Int).Exp(b, big.NewInt(int64(n-j)), nil))
		sum.Add(sum, t)
	}
	return new(big.Rat).SetFrac(sum, new(big.Int).Exp(big.NewInt(den), big.NewInt(int64(n)), nil))
}

// binomSumFloat is binomSumRat for a float64 x, in 256-bit floats.
func binomSumFloat(n, lo, hi int, x float64) *big.Float {
	bx := new(big.Float).SetPrec(bigPrec).SetFloat64(x)
	by := new(big.Float).SetPrec(bigPrec).Sub(big.NewFloat(1).SetPrec(bigPrec), bx)
	sum := new(big.Float).SetPrec(bigPrec)
	for j := lo; j <= hi; j++ {
		t := new(big.Float).SetPrec(bigPrec).SetInt(choose(int64(n), int64(j)))
		t.Mul(t, floatPow(bx, j))
		t.Mul(t, floatPow(by, n-j))
		sum.Add(sum, t)
	}
	return sum
}

func floatPow(x *big.Float, e int) *big.Float {
	r := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for range e {
		r.Mul(r, x)
	}
	return r
}

// bisect returns the root in [lo, hi] of an increasing or decreasing f,
// to float64 resolution, by plain bisection.
func bisect(f func(float64) float64, lo, hi float64) float64 {
	flo := f(lo)
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if fm := f(mid); (fm < 0) == (flo < 0) {
			lo, flo = mid, fm
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// near reports whether got is within tol of want, relatively when want is
// not 0.
func near(got, want, tol float64) bool {
	if want == 0 {
		return math.Abs(got) <= tol
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}
