package stats

import (
	"errors"
	"fmt"
	"math"
)

// Plan states the assumptions under which MinDetectableDiff, TasksNeeded
// and PairedPower plan a paired comparison of run A against a baseline
// run B over the same tasks.
//
// One attempt of a task in A and one in B form a pair of binary outcomes
// with pass rates p_A = p_B + Δ and p_B = Baseline and phi correlation
// Corr, so that both pass with probability
//
//	p11 = p_A p_B + Corr · √(p_A(1−p_A) p_B(1−p_B)),
//
// clamped to the range the two rates allow, [max(0, p_A+p_B−1),
// min(p_A, p_B)]. The discordance rate is ψ = p_A + p_B − 2 p11 and the
// difference Δ = p10 − p01. Corr = 0 means the runs' outcomes on a task are
// independent (no benefit from pairing); two agents that find the same
// tasks hard have Corr > 0, and then fewer tasks suffice.
//
// With Repeats = k > 1 attempts per task in each run, the comparison is of
// mean per-task pass rates, and the variance of a task's mean difference is
// that of one attempt times f = (1 + (k−1)·AttemptCorr)/k, where
// AttemptCorr is the correlation between the differences of two attempts
// of the same task (the intraclass correlation; Kish 1965, Survey
// Sampling, design effect). AttemptCorr = 1 (a deterministic agent) makes
// repeats useless, AttemptCorr = 0 makes each repeat worth a new task.
type Plan struct {
	// Baseline is B's pass rate p_B, in (0, 1).
	Baseline float64
	// Corr is the phi correlation of A's and B's outcomes on a task, in
	// [−1, 1].
	Corr float64
	// Repeats is the number of attempts per task in each run; 0 means 1.
	Repeats int
	// AttemptCorr is the intraclass correlation of a task's paired
	// differences across attempts, in [0, 1]; used when Repeats > 1.
	AttemptCorr float64
	// Alpha is the two-sided significance level; 0 means 0.05.
	Alpha float64
	// Power is the probability of detecting the difference; 0 means 0.80.
	Power float64
}

// resolved returns p with its defaults filled in, or an error. The Power
// field is checked only when withPower is set.
func (p Plan) resolved(withPower bool) (Plan, error) {
	if p.Repeats == 0 {
		p.Repeats = 1
	}
	if p.Alpha == 0 {
		p.Alpha = 0.05
	}
	if p.Power == 0 {
		p.Power = 0.8
	}
	switch {
	case !(p.Baseline > 0 && p.Baseline < 1):
		return p, fmt.Errorf("stats: baseline rate %v is not in (0, 1)", p.Baseline)
	case !(p.Corr >= -1 && p.Corr <= 1):
		return p, fmt.Errorf("stats: correlation %v is not in [-1, 1]", p.Corr)
	case p.Repeats < 1:
		return p, fmt.Errorf("stats: %d repeats", p.Repeats)
	case !(p.AttemptCorr >= 0 && p.AttemptCorr <= 1):
		return p, fmt.Errorf("stats: attempt correlation %v is not in [0, 1]", p.AttemptCorr)
	case !(p.Alpha > 0 && p.Alpha < 1):
		return p, fmt.Errorf("stats: significance level %v is not in (0, 1)", p.Alpha)
	case withPower && !(p.Power > 0 && p.Power < 1):
		return p, fmt.Errorf("stats: power %v is not in (0, 1)", p.Power)
	}
	return p, nil
}

// discordance returns the discordance rate ψ of the plan's model for A's rate
// p_B + diff.
func (p Plan) discordance(diff float64) float64 {
	pa, pb := p.Baseline+diff, p.Baseline
	p11 := pa*pb + p.Corr*math.Sqrt(pa*(1-pa)*pb*(1-pb))
	p11 = math.Min(math.Max(p11, math.Max(0, pa+pb-1)), math.Min(pa, pb))
	return math.Max(pa+pb-2*p11, math.Abs(diff))
}

// factor returns f = (1 + (k−1)·AttemptCorr)/k.
func (p Plan) factor() float64 {
	k := float64(p.Repeats)
	return (1 + (k-1)*p.AttemptCorr) / k
}

// tasksFor returns the real-valued number of tasks of Connor's formula.
func (p Plan) tasksFor(diff float64) float64 {
	psi := p.discordance(diff)
	za := normalQuantile(1 - p.Alpha/2)
	zb := normalQuantile(p.Power)
	s := za*math.Sqrt(psi) + zb*math.Sqrt(math.Max(0, psi-diff*diff))
	return p.factor() * s * s / (diff * diff)
}

func (p Plan) checkDiff(diff float64) error {
	if diff == 0 || math.IsNaN(diff) || p.Baseline+diff < 0 || p.Baseline+diff > 1 {
		return fmt.Errorf("stats: difference %v is zero or takes the rate %v outside [0, 1]", diff, p.Baseline+diff)
	}
	return nil
}

// TasksNeeded returns the number of tasks N a paired comparison needs to
// detect a difference diff = p_A − p_B (either sign) with the plan's power
// at its two-sided significance level, under the model of Plan. It is
// Connor's sample size for McNemar's test (Connor 1987, "Sample size for
// testing differences in proportions for the paired-sample design",
// Biometrics 43:207–211, eq. 3), scaled by the repeat factor f:
//
//	N = ⌈ f · (z_(1−α/2) √ψ + z_(power) √(ψ − Δ²))² / Δ² ⌉.
//
// The formula is that of the asymptotic McNemar test. The exact test the
// reports use is conservative: at the differences of the planning table in
// docs/statistics.md its power is 0.75 to 0.78 instead of 0.80, and 10%
// more tasks restore 0.80 (ExactPairedPower computes it). It returns an
// error for an invalid plan, or a difference that is 0 or takes p_A
// outside [0, 1].
func TasksNeeded(diff float64, p Plan) (int, error) {
	p, err := p.resolved(true)
	if err != nil {
		return 0, err
	}
	if err := p.checkDiff(diff); err != nil {
		return 0, err
	}
	// The 1e-9 keeps a result that is an integer up to rounding from
	// being pushed to the next one.
	return int(math.Ceil(p.tasksFor(diff) - 1e-9)), nil
}

// PairedPower returns the power of the two-sided paired comparison of N
// tasks to detect diff = p_A − p_B under the model of Plan (its Power field
// is ignored): Connor's approximation
//
//	power = Φ((|Δ| √(N/f) − z_(1−α/2) √ψ) / √(ψ − Δ²)),
//
// which inverts TasksNeeded. It returns an error for an invalid plan,
// N < 1, or a difference TasksNeeded rejects.
func PairedPower(tasks int, diff float64, p Plan) (float64, error) {
	p, err := p.resolved(false)
	if err != nil {
		return 0, err
	}
	if tasks < 1 {
		return 0, errors.New("stats: power needs at least one task")
	}
	if err := p.checkDiff(diff); err != nil {
		return 0, err
	}
	psi := p.discordance(diff)
	za := normalQuantile(1 - p.Alpha/2)
	sd1 := math.Sqrt(math.Max(0, psi-diff*diff))
	num := math.Abs(diff)*math.Sqrt(float64(tasks)/p.factor()) - za*math.Sqrt(psi)
	if sd1 == 0 {
		if num > 0 {
			return 1, nil
		}
		return 0, nil
	}
	return normalCDF(num / sd1), nil
}

// MinDetectableDiff returns the smallest improvement Δ > 0 over the
// baseline (p_A = p_B + Δ) that a paired comparison of N tasks detects with
// the plan's power at its two-sided significance level, under the model of
// Plan: the smallest Δ with TasksNeeded(Δ) ≤ N before rounding up, found by
// a scan in steps of 0.001 and bisection to 1e-9. With Repeats = k the
// answer is that of k = 1 at N/f tasks. It returns an error for an invalid
// plan or N < 1, and when no Δ ≤ 1 − p_B is detectable with N tasks.
func MinDetectableDiff(tasks int, p Plan) (float64, error) {
	p, err := p.resolved(true)
	if err != nil {
		return 0, err
	}
	if tasks < 1 {
		return 0, errors.New("stats: a comparison needs at least one task")
	}
	n := float64(tasks)
	top := 1 - p.Baseline
	prev := 0.0
	for step := 1; ; step++ {
		d := math.Min(float64(step)*0.001, top)
		if p.tasksFor(d) <= n {
			lo, hi := prev, d
			for hi-lo > 1e-9 {
				mid := (lo + hi) / 2
				if mid > 0 && p.tasksFor(mid) <= n {
					hi = mid
				} else {
					lo = mid
				}
			}
			return hi, nil
		}
		if d >= top {
			return 0, fmt.Errorf("stats: no improvement over the baseline %v is detectable with %d tasks", p.Baseline, tasks)
		}
		prev = d
	}
}

// ExactPairedPower returns the power of the exact McNemar test that the
// reports use (McNemarExact(b, c) ≤ α) for N tasks, one attempt each, to
// detect diff = p_A − p_B under the model of Plan. It is computed without
// approximation: the number of discordant tasks is M ~ Bin(N, ψ), given
// M = m the count b ~ Bin(m, p10/ψ), and the test rejects when b ≤ r_m or
// b ≥ m − r_m, where r_m is the largest count with
// McNemarExact(r_m, m − r_m) ≤ α, so
//
//	power = Σ_m P(M = m) · (P(b ≤ r_m) + P(b ≥ m − r_m)).
//
// Because the exact test is conservative, this is below PairedPower at
// the same N; use it to check a plan made with TasksNeeded. It returns an
// error for an invalid plan, N < 1, Repeats > 1 (repeated attempts are
// compared with PairedBootstrap, not McNemar's test) or a difference
// TasksNeeded rejects.
func ExactPairedPower(tasks int, diff float64, p Plan) (float64, error) {
	p, err := p.resolved(false)
	if err != nil {
		return 0, err
	}
	if tasks < 1 {
		return 0, errors.New("stats: power needs at least one task")
	}
	if p.Repeats > 1 {
		return 0, errors.New("stats: the exact McNemar power is for one attempt per task")
	}
	if err := p.checkDiff(diff); err != nil {
		return 0, err
	}
	psi := p.discordance(diff)
	p10 := (psi + diff) / 2
	q := math.Min(1, math.Max(0, p10/psi))
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	power := 0.0
	r := -1
	for m := 1; m <= tasks; m++ {
		for 2*(r+1) < m && McNemarExact(r+1, m-r-1) <= p.Alpha {
			r++
		}
		if r < 0 {
			continue
		}
		var pm float64
		switch {
		case psi >= 1:
			if m == tasks {
				pm = 1
			}
		default:
			pm = math.Exp(lg(tasks) - lg(m) - lg(tasks-m) + float64(m)*math.Log(psi) + float64(tasks-m)*math.Log1p(-psi))
		}
		power += pm * (binomLower(r, m, q) + binomLower(r, m, 1-q))
	}
	return math.Min(1, power), nil
}

// binomLower returns P(X ≤ r) for X ~ Bin(m, q), 0 ≤ r < m, as
// I_(1−q)(m−r, r+1).
func binomLower(r, m int, q float64) float64 {
	switch {
	case q <= 0:
		return 1
	case q >= 1:
		return 0
	}
	return regIncBeta(float64(m-r), float64(r+1), 1-q)
}
