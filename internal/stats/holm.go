package stats

import (
	"cmp"
	"math"
	"slices"
)

// HolmAdjust returns the Holm-adjusted p-values of a family of tests, in
// the order given (Holm 1979, "A simple sequentially rejective multiple
// test procedure", Scandinavian Journal of Statistics 6:65–70). With the
// m p-values sorted ascending, p(1) ≤ … ≤ p(m), the adjusted value of the
// i-th is
//
//	max over j ≤ i of min(1, (m − j + 1) · p(j)),
//
// and rejecting every hypothesis whose adjusted p-value is below α keeps
// the chance of any false rejection in the family at most α, whatever the
// tests' dependence (as R's p.adjust(p, "holm")). A NaN counts as 1.
func HolmAdjust(p []float64) []float64 {
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	val := func(i int) float64 {
		if math.IsNaN(p[i]) {
			return 1
		}
		return p[i]
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(val(a), val(b)) })
	out := make([]float64, m)
	running := 0.0
	for rank, i := range order {
		running = math.Max(running, math.Min(1, float64(m-rank)*val(i)))
		out[i] = running
	}
	return out
}
