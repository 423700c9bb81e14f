package stats

import "fmt"

func checkPassK(n, c, k int) error {
	if n < 1 || c < 0 || c > n {
		return fmt.Errorf("stats: %d successes in %d attempts is not a valid record", c, n)
	}
	if k < 1 || k > n {
		return fmt.Errorf("stats: k = %d needs 1 ≤ k ≤ n = %d", k, n)
	}
	return nil
}

// PassAtK returns the unbiased estimate of pass@k, the probability that at
// least one of k attempts at a task passes, from n ≥ k attempts of which c
// passed (Chen et al. 2021, "Evaluating Large Language Models Trained on
// Code", arXiv:2107.03374, eq. 1):
//
//	pass@k = 1 − C(n−c, k)/C(n, k) = 1 − Π_{j=0}^{k−1} (n−c−j)/(n−j),
//
// computed as the product, which forms no factorial; it is 1 when
// n − c < k. pass@1 = c/n. It returns an error unless 0 ≤ c ≤ n and
// 1 ≤ k ≤ n.
func PassAtK(n, c, k int) (float64, error) {
	if err := checkPassK(n, c, k); err != nil {
		return 0, err
	}
	if n-c < k {
		return 1, nil
	}
	prod := 1.0
	for j := range k {
		prod *= float64(n-c-j) / float64(n-j)
	}
	return 1 - prod, nil
}

// PassHatK returns the unbiased estimate of pass^k, the probability that
// all of k attempts at a task pass, from n ≥ k attempts of which c passed
// (Yao et al. 2024, "τ-bench: A Benchmark for Tool-Agent-User Interaction
// in Real-World Domains", arXiv:2406.12045):
//
//	pass^k = C(c, k)/C(n, k) = Π_{j=0}^{k−1} (c−j)/(n−j),
//
// computed as the product; it is 0 when c < k. pass^1 = c/n. It returns an
// error unless 0 ≤ c ≤ n and 1 ≤ k ≤ n.
func PassHatK(n, c, k int) (float64, error) {
	if err := checkPassK(n, c, k); err != nil {
		return 0, err
	}
	if c < k {
		return 0, nil
	}
	prod := 1.0
	for j := range k {
		prod *= float64(c-j) / float64(n-j)
	}
	return prod, nil
}

// MeanPassAtK returns the mean of PassAtK over tasks, the suite's pass@k.
// Each task is estimated from its own attempts, so tasks may have different
// numbers of attempts as long as each has at least k. It returns an error
// for no tasks or for a task PassAtK rejects.
func MeanPassAtK(tasks []TaskAttempts, k int) (float64, error) {
	return meanOver(tasks, k, PassAtK)
}

// MeanPassHatK returns the mean of PassHatK over tasks, the suite's pass^k,
// under the same rules as MeanPassAtK.
func MeanPassHatK(tasks []TaskAttempts, k int) (float64, error) {
	return meanOver(tasks, k, PassHatK)
}

func meanOver(tasks []TaskAttempts, k int, f func(n, c, k int) (float64, error)) (float64, error) {
	if len(tasks) == 0 {
		return 0, fmt.Errorf("stats: no tasks")
	}
	sum := 0.0
	for i, t := range tasks {
		v, err := f(t.Attempts, t.Passed, k)
		if err != nil {
			return 0, fmt.Errorf("task %d: %w", i, err)
		}
		sum += v
	}
	return sum / float64(len(tasks)), nil
}
