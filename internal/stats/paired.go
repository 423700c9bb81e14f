package stats

import (
	"errors"
	"math"
)

// PairedCounts is the 2×2 table of two runs, A and B, over the same tasks,
// one outcome (pass or fail) per task in each run. In the notation of
// Newcombe (1998b) the cells are e, f, g, h; OnlyA and OnlyB are
// McNemar's b and c.
type PairedCounts struct {
	Both  int // e: passed in A and in B
	OnlyA int // f: passed in A, failed in B
	OnlyB int // g: failed in A, passed in B
	None  int // h: failed in both
}

// CountPairs builds the table from per-task outcomes: a[i] and b[i] tell
// whether task i passed in run A and in run B. It returns an error when the
// slices differ in length.
func CountPairs(a, b []bool) (PairedCounts, error) {
	if len(a) != len(b) {
		return PairedCounts{}, errors.New("stats: runs A and B have different numbers of tasks")
	}
	var t PairedCounts
	for i := range a {
		switch {
		case a[i] && b[i]:
			t.Both++
		case a[i]:
			t.OnlyA++
		case b[i]:
			t.OnlyB++
		default:
			t.None++
		}
	}
	return t, nil
}

// N returns the number of tasks.
func (t PairedCounts) N() int { return t.Both + t.OnlyA + t.OnlyB + t.None }

// PairedDiff returns the difference of pass rates θ = p_A − p_B = (f−g)/n
// of two runs over the same n tasks with Newcombe's hybrid score interval
// for paired data at the normal quantile z (Newcombe 1998b, "Improved
// confidence intervals for the difference between binomial proportions
// based on paired data", Statistics in Medicine 17:2635–2650, method 10).
// With (l1, u1) and (l2, u2) the Wilson intervals of p_A = (e+f)/n and
// p_B = (e+g)/n,
//
//	lo = θ − √((p_A−l1)² − 2φ̂(p_A−l1)(u2−p_B) + (u2−p_B)²)
//	hi = θ + √((p_B−l2)² − 2φ̂(p_B−l2)(u1−p_A) + (u1−p_A)²)
//
// where φ̂ = C/√((e+f)(g+h)(e+g)(f+h)) is the correlation of the paired
// outcomes, with the continuity-corrected numerator C = eh−fg−n/2 when
// eh−fg > n/2, C = 0 when 0 ≤ eh−fg ≤ n/2 and C = eh−fg when eh−fg < 0;
// φ̂ = 0 when a margin is empty.
//
// Why this interval: it is closed-form; it stays inside [−1, 1] and is not
// degenerate when b or c is 0, unlike the Wald interval; it accounts for
// the pairing through φ̂, so agreement between the runs narrows it; and
// its coverage is close to nominal down to small n (Newcombe 1998b;
// Fagerland, Lydersen and Laake 2014, "Recommended tests and confidence
// intervals for paired binomial proportions", Statistics in Medicine
// 33:2850–2875, recommend it alongside Tango's score interval, which needs
// an iterative solve). With n = 0 it returns (0, −1, 1); for a negative
// cell or z not positive, NaN.
func PairedDiff(t PairedCounts, z float64) (diff, lo, hi float64) {
	e, f, g, h := t.Both, t.OnlyA, t.OnlyB, t.None
	if e < 0 || f < 0 || g < 0 || h < 0 || !(z > 0) || math.IsInf(z, 0) {
		return math.NaN(), math.NaN(), math.NaN()
	}
	n := t.N()
	if n == 0 {
		return 0, -1, 1
	}
	nf := float64(n)
	pA, pB := float64(e+f)/nf, float64(e+g)/nf
	l1, u1 := Wilson(e+f, n, z)
	l2, u2 := Wilson(e+g, n, z)
	phi := 0.0
	if marg := float64(e+f) * float64(g+h) * float64(e+g) * float64(f+h); marg > 0 {
		// eh − fg in float64: the products can pass the int range only
		// for tables far larger than any benchmark.
		cross := float64(e)*float64(h) - float64(f)*float64(g)
		var c float64
		switch {
		case cross > nf/2:
			c = cross - nf/2
		case cross >= 0:
			c = 0
		default:
			c = cross
		}
		phi = c / math.Sqrt(marg)
	}
	diff = float64(f-g) / nf
	dl1, du2 := pA-l1, u2-pB
	dl2, du1 := pB-l2, u1-pA
	delta := math.Sqrt(math.Max(0, dl1*dl1-2*phi*dl1*du2+du2*du2))
	eps := math.Sqrt(math.Max(0, dl2*dl2-2*phi*dl2*du1+du1*du1))
	return diff, math.Max(-1, diff-delta), math.Min(1, diff+eps)
}
