package stats

import (
	"math"
	"testing"
)

// Newcombe (1998b), "Improved confidence intervals for the difference
// between binomial proportions based on paired data", Statistics in
// Medicine 17:2635–2650: the method 10 limits of its worked examples,
// cells (e, f, g, h), θ = (f − g)/n, 95%, to 4 decimals. 35 of the 36
// limits agree with the formula to the printed 4 decimals; the lower limit
// of (1, 97, 1, 1) is printed 0.8736 where the formula gives 0.873672, one
// unit in the last place, and is checked to that.
var newcombe1998b = []struct {
	e, f, g, h int
	lo, hi     float64
	tol        float64 // 0 means half a unit in the 4th decimal
}{
	{36, 12, 2, 0, 0.0569, 0.3404, 0},
	{20, 12, 2, 16, 0.0562, 0.3292, 0},
	{18, 12, 2, 18, 0.0562, 0.3290, 0},
	{36, 14, 0, 0, 0.1528, 0.4167, 0},
	{35, 14, 0, 1, 0.1461, 0.4175, 0},
	{18, 14, 0, 18, 0.1441, 0.3963, 0},
	{2, 97, 1, 0, 0.8721, 0.9854, 0},
	{1, 97, 1, 1, 0.8736, 0.9850, 1e-4},
	{0, 29, 1, 0, 0.6666, 0.9882, 0},
	{2, 98, 0, 0, 0.9178, 0.9945, 0},
	{1, 98, 0, 1, 0.9171, 0.9916, 0},
	{0, 30, 0, 0, 0.8395, 1, 0},
	{54, 0, 0, 0, -0.0664, 0.0664, 0},
	{53, 0, 0, 1, -0.0729, 0.0729, 0},
	{30, 0, 0, 24, -0.0358, 0.0358, 0},
	{29, 0, 0, 25, -0.0354, 0.0354, 0},
	{28, 0, 0, 26, -0.0352, 0.0352, 0},
	{27, 0, 0, 27, -0.0351, 0.0351, 0},
}

func TestPairedDiffNewcombe1998b(t *testing.T) {
	for _, c := range newcombe1998b {
		tab := PairedCounts{Both: c.e, OnlyA: c.f, OnlyB: c.g, None: c.h}
		diff, lo, hi := PairedDiff(tab, Z95)
		n := float64(c.e + c.f + c.g + c.h)
		if want := float64(c.f-c.g) / n; diff != want {
			t.Errorf("%v: diff = %v, want %v", tab, diff, want)
		}
		tol := c.tol
		if tol == 0 {
			tol = 0.5e-4
		}
		if math.Abs(lo-c.lo) > tol || math.Abs(hi-c.hi) > tol {
			t.Errorf("PairedDiff(%v) = [%.5f, %.5f], want [%.4f, %.4f]", tab, lo, hi, c.lo, c.hi)
		}
	}
}

// Fagerland, Lydersen and Laake (2017), Statistical Analysis of
// Contingency Tables, ch. 8, complete response before and after
// consolidation therapy (Cavo et al. 2012): table (59, 6, 16, 80), Newcombe
// square-and-add interval −0.0621 (−0.1186 to −0.0046); R:
// contingencytables::Newcombe_square_and_add_CI_paired_2x2(cavo_2012).
func TestPairedDiffCavo(t *testing.T) {
	diff, lo, hi := PairedDiff(PairedCounts{59, 6, 16, 80}, Z95)
	if math.Abs(diff-(-0.0621)) > 0.5e-4 || math.Abs(lo-(-0.1186)) > 0.5e-4 || math.Abs(hi-(-0.0046)) > 0.5e-4 {
		t.Errorf("PairedDiff(59, 6, 16, 80) = %.5f [%.5f, %.5f], want -0.0621 [-0.1186, -0.0046]", diff, lo, hi)
	}
}

// With φ̂ = 0 the interval is Newcombe's hybrid score interval for
// independent proportions on the two margins (Newcombe 1998, "Interval
// estimation for the difference between independent proportions",
// Statistics in Medicine 17:873–890, method 10), computed here from two
// Wilson intervals; and swapping the runs mirrors it.
func TestPairedDiffStructure(t *testing.T) {
	// e·h − f·g = 2·4 − 3·1 = 5 ≤ n/2 = 5, so φ̂ = 0.
	tab := PairedCounts{Both: 2, OnlyA: 3, OnlyB: 1, None: 4}
	diff, lo, hi := PairedDiff(tab, Z95)
	l1, u1 := Wilson95(5, 10)
	l2, u2 := Wilson95(3, 10)
	wantLo := 0.2 - math.Hypot(0.5-l1, u2-0.3)
	wantHi := 0.2 + math.Hypot(u1-0.5, 0.3-l2)
	if math.Abs(diff-0.2) > 1e-15 || math.Abs(lo-wantLo) > 1e-14 || math.Abs(hi-wantHi) > 1e-14 {
		t.Errorf("PairedDiff(%v) = %v [%v, %v], want 0.2 [%v, %v]", tab, diff, lo, hi, wantLo, wantHi)
	}
	for _, c := range newcombe1998b {
		d1, lo1, hi1 := PairedDiff(PairedCounts{c.e, c.f, c.g, c.h}, Z95)
		d2, lo2, hi2 := PairedDiff(PairedCounts{c.e, c.g, c.f, c.h}, Z95)
		if d1 != -d2 || math.Abs(lo1+hi2) > 1e-15 || math.Abs(hi1+lo2) > 1e-15 {
			t.Errorf("swapping the runs of %v does not mirror the interval", c)
		}
	}
	// Agreement narrows the interval: the same margins with more
	// concordant pairs.
	_, loI, hiI := PairedDiff(PairedCounts{Both: 10, OnlyA: 20, OnlyB: 10, None: 10}, Z95)
	_, loC, hiC := PairedDiff(PairedCounts{Both: 20, OnlyA: 10, OnlyB: 0, None: 20}, Z95)
	if hiC-loC >= hiI-loI {
		t.Errorf("correlated runs give width %v, not less than %v", hiC-loC, hiI-loI)
	}
	if d, lo, hi := PairedDiff(PairedCounts{}, Z95); d != 0 || lo != -1 || hi != 1 {
		t.Error("no tasks must give 0 in [-1, 1]")
	}
	if d, _, _ := PairedDiff(PairedCounts{Both: -1}, Z95); !math.IsNaN(d) {
		t.Error("a negative cell must give NaN")
	}
}

func TestCountPairs(t *testing.T) {
	a := []bool{true, true, true, false, false, true}
	b := []bool{true, false, false, true, false, true}
	got, err := CountPairs(a, b)
	if err != nil || got != (PairedCounts{Both: 2, OnlyA: 2, OnlyB: 1, None: 1}) {
		t.Errorf("CountPairs = %+v, %v", got, err)
	}
	if got.N() != 6 {
		t.Errorf("N = %v", got.N())
	}
	if _, err := CountPairs(a, b[:2]); err == nil {
		t.Error("CountPairs accepted runs of different lengths")
	}
}
