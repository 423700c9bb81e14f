package stats

import (
	"errors"
	"fmt"
	"math"
)

// ClusteredResult is a mean with its cluster-robust standard error and
// interval.
type ClusteredResult struct {
	// Mean is the plain mean of the N values.
	Mean float64
	// SE is the CR1 cluster-robust standard error of Mean.
	SE float64
	// NaiveSE is the standard error that treats the N values as
	// independent, s/√N with the sample standard deviation s (divisor
	// N−1); 0 when N < 2.
	NaiveSE float64
	// Lo and Hi bound Mean ± t(G−1) · SE.
	Lo, Hi float64
	// N is the number of values and Clusters the number G of distinct
	// clusters; DF = G − 1 is the degrees of freedom of the t quantile.
	N, Clusters, DF int
}

// ClusteredMean returns the mean of values with a cluster-robust interval,
// for tasks that come in clusters (instances of one template) and so are
// not independent: values[i] belongs to cluster clusters[i].
//
// The mean is the least-squares fit of values on a constant, and its CR1
// sandwich variance (Liang and Zeger 1986, Biometrika 73:13–22; Cameron and
// Miller 2015, "A practitioner's guide to cluster-robust inference",
// Journal of Human Resources 50:317–372, §II.C and §VI) is
//
//	V = G/(G−1) · (N−1)/(N−K) · Σ_g (Σ_{i∈g} (y_i − ȳ))² / N²,  K = 1,
//
// so the second factor is 1: the small-sample correction is G/(G−1). This
// is Stata's regress y, vce(cluster g) and R's
// sandwich::vcovCL(lm(y ~ 1), cluster = g, type = "HC1"). The interval is
// ȳ ± t_(1−α/2, G−1) · √V, with α = 1 − level and the t quantile with G−1
// degrees of freedom that Cameron and Miller recommend for few clusters.
// With one value per cluster SE equals NaiveSE.
//
// It returns an error when the slices differ in length, a value is not
// finite, there are fewer than two clusters, or the level is outside
// (0, 1).
func ClusteredMean(values []float64, clusters []string, level float64) (ClusteredResult, error) {
	if len(values) != len(clusters) {
		return ClusteredResult{}, errors.New("stats: values and clusters differ in length")
	}
	if !(level > 0 && level < 1) {
		return ClusteredResult{}, fmt.Errorf("stats: confidence level %v is not in (0, 1)", level)
	}
	n := len(values)
	sum := 0.0
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ClusteredResult{}, errors.New("stats: a value is not finite")
		}
		sum += v
	}
	index := map[string]int{}
	for _, c := range clusters {
		if _, ok := index[c]; !ok {
			index[c] = len(index)
		}
	}
	g := len(index)
	if g < 2 {
		return ClusteredResult{}, fmt.Errorf("stats: a clustered interval needs at least 2 clusters, have %d", g)
	}
	mean := sum / float64(n)
	score := make([]float64, g)
	ss := 0.0
	for i, v := range values {
		e := v - mean
		score[index[clusters[i]]] += e
		ss += e * e
	}
	meat := 0.0
	for _, s := range score {
		meat += s * s
	}
	nf, gf := float64(n), float64(g)
	v := gf / (gf - 1) * meat / (nf * nf)
	res := ClusteredResult{Mean: mean, SE: math.Sqrt(v), N: n, Clusters: g, DF: g - 1}
	if n >= 2 {
		res.NaiveSE = math.Sqrt(ss / (nf - 1) / nf)
	}
	t := tQuantile(1-(1-level)/2, float64(g-1))
	res.Lo, res.Hi = mean-t*res.SE, mean+t*res.SE
	return res, nil
}

// ClusteredPairedDiff returns the mean paired difference of two runs over
// the same tasks with a cluster-robust interval: a[i] and b[i] are task i's
// pass rates in A and B (0 or 1 for one attempt, the fraction passed for
// several) and clusters[i] its cluster. It is ClusteredMean of the
// differences a[i] − b[i], so pairing is kept and the clusters are those
// of the tasks. It returns an error when a and b differ in length, and
// whatever ClusteredMean returns.
func ClusteredPairedDiff(a, b []float64, clusters []string, level float64) (ClusteredResult, error) {
	if len(a) != len(b) {
		return ClusteredResult{}, errors.New("stats: runs A and B have different numbers of tasks")
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return ClusteredMean(d, clusters, level)
}
