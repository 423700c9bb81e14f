package stats

import (
	"math"
	"testing"
)

// Three clusters of unequal size, worked by hand through cluster totals:
//
//	cluster  values      n_g  T_g   S_g = T_g − n_g ȳ
//	g1       1, 1, 0     3    2     2 − 3·5/9 =   3/9
//	g2       0, 0        2    0     0 − 2·5/9 = −10/9
//	g3       1, 0, 1, 1  4    3     3 − 4·5/9 =   7/9
//
// N = 9, ȳ = 5/9, Σ S_g² = (9 + 100 + 49)/81 = 158/81,
// V = G/(G−1) · Σ S_g²/N² = (3/2)(158/81)/81 = 237/6561, SE = √237/81.
// t_(0.975, 2) = 0.95/√(2·0.975·0.025) (the closed form for 2 df).
// Naive: Σ(y − ȳ)² = 5(4/9)² + 4(5/9)² = 180/81 = 20/9, s² = (20/9)/8 = 5/18,
// SE² = s²/9 = 5/162.
func TestClusteredMeanByHand(t *testing.T) {
	values := []float64{1, 1, 0, 0, 0, 1, 0, 1, 1}
	clusters := []string{"g1", "g1", "g1", "g2", "g2", "g3", "g3", "g3", "g3"}
	r, err := ClusteredMean(values, clusters, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	se := math.Sqrt(237) / 81
	tq := 0.95 / math.Sqrt(2*0.975*0.025)
	want := ClusteredResult{Mean: 5.0 / 9, SE: se, NaiveSE: math.Sqrt(5.0 / 162), Lo: 5.0/9 - tq*se, Hi: 5.0/9 + tq*se, N: 9, Clusters: 3, DF: 2}
	if !near(r.Mean, want.Mean, 1e-15) || !near(r.SE, want.SE, 1e-14) || !near(r.NaiveSE, want.NaiveSE, 1e-14) ||
		!near(r.Lo, want.Lo, 1e-12) || !near(r.Hi, want.Hi, 1e-12) || r.N != 9 || r.Clusters != 3 || r.DF != 2 {
		t.Errorf("got  %+v\nwant %+v", r, want)
	}
	// The same numbers with the observations shuffled and the clusters
	// renamed: the estimator depends only on the partition.
	r2, _ := ClusteredMean([]float64{1, 0, 1, 0, 1, 1, 0, 0, 1}, []string{"c", "b", "a", "b", "a", "c", "a", "c", "c"}, 0.95)
	if !near(r2.SE, se, 1e-14) {
		t.Errorf("SE after shuffling = %v, want %v", r2.SE, se)
	}
}

// Homogeneous clusters, four clusters of three equal values:
// (1,1,1), (0,0,0), (1,1,1), (0,0,0). ȳ = 1/2, S_g = ±3/2,
// V = (4/3)(4 · 9/4)/144 = 1/12; naive s² = 12(1/4)/11 = 3/11,
// SE² = (3/11)/12 = 1/44. The clustered SE is √(44/12) ≈ 1.91 times the
// naive one: twelve values carry the information of four.
func TestClusteredExceedsNaiveForHomogeneousClusters(t *testing.T) {
	values := []float64{1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0}
	clusters := []string{"a", "a", "a", "b", "b", "b", "c", "c", "c", "d", "d", "d"}
	r, err := ClusteredMean(values, clusters, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.SE, math.Sqrt(1.0/12), 1e-14) || !near(r.NaiveSE, math.Sqrt(1.0/44), 1e-14) {
		t.Errorf("SE = %v, naive = %v; want √(1/12), √(1/44)", r.SE, r.NaiveSE)
	}
	if r.SE <= 1.5*r.NaiveSE {
		t.Errorf("clustered SE %v does not exceed the naive %v", r.SE, r.NaiveSE)
	}
}

// With one value per cluster, G = N and V = N/(N−1) · Σe²/N² = s²/N: CR1
// reduces to the naive standard error, and the interval to the one-sample
// t interval.
func TestClusteredSingletonsIsNaive(t *testing.T) {
	values := []float64{0.2, 0.9, 0.4, 0.4, 1, 0, 0.7}
	clusters := []string{"1", "2", "3", "4", "5", "6", "7"}
	r, err := ClusteredMean(values, clusters, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.SE, r.NaiveSE, 1e-14) || r.DF != 6 {
		t.Errorf("SE %v, naive %v, df %d", r.SE, r.NaiveSE, r.DF)
	}
	if want := r.Mean + tQuantile(0.95, 6)*r.NaiveSE; !near(r.Hi, want, 1e-14) {
		t.Errorf("Hi = %v, want the t interval's %v", r.Hi, want)
	}
}

func TestClusteredPairedDiff(t *testing.T) {
	a := []float64{1, 1, 0, 1, 2.0 / 3, 0}
	b := []float64{0, 1, 0, 1, 1.0 / 3, 1}
	clusters := []string{"x", "x", "y", "y", "z", "z"}
	r, err := ClusteredPairedDiff(a, b, clusters, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	// d = (1, 0, 0, 0, 1/3, −1): mean 1/18; S_x = 1 − 2/18 = 16/18,
	// S_y = −2/18, S_z = −2/3 − 2/18 = −14/18; Σ S² = 456/324;
	// V = (3/2)(456/324)/36.
	if want := math.Sqrt(1.5 * 456.0 / 324 / 36); !near(r.Mean, 1.0/18, 1e-14) || !near(r.SE, want, 1e-14) {
		t.Errorf("got mean %v SE %v, want 1/18 and %v", r.Mean, r.SE, want)
	}
	if _, err := ClusteredPairedDiff(a, b[:3], clusters, 0.95); err == nil {
		t.Error("runs of different lengths accepted")
	}
}

func TestClusteredErrors(t *testing.T) {
	if _, err := ClusteredMean([]float64{1, 2}, []string{"a", "a"}, 0.95); err == nil {
		t.Error("one cluster accepted")
	}
	if _, err := ClusteredMean([]float64{1, 2}, []string{"a"}, 0.95); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := ClusteredMean([]float64{1, math.NaN()}, []string{"a", "b"}, 0.95); err == nil {
		t.Error("NaN accepted")
	}
	if _, err := ClusteredMean([]float64{1, 2}, []string{"a", "b"}, 0); err == nil {
		t.Error("level 0 accepted")
	}
}
