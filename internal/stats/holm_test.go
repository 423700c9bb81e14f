package stats

import (
	"math"
	"testing"
)

func TestHolmAdjust(t *testing.T) {
	// R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm")
	// = 0.03 0.06 0.06 0.02
	got := HolmAdjust([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("adjusted p[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	// Capped at 1, and one test is not adjusted.
	if got := HolmAdjust([]float64{0.6, 0.7}); got[0] != 1 || got[1] != 1 {
		t.Errorf("HolmAdjust(0.6, 0.7) = %v, want 1, 1", got)
	}
	if got := HolmAdjust([]float64{0.02}); got[0] != 0.02 {
		t.Errorf("HolmAdjust(0.02) = %v", got)
	}
	if len(HolmAdjust(nil)) != 0 {
		t.Error("HolmAdjust(nil) is not empty")
	}
}
