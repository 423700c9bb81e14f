package stats

import (
	"math"
	"testing"
)

// Connor (1987) by hand, p_B = 0.5, Δ = 0.1, z_0.975 = 1.959964,
// z_0.8 = 0.841621:
//
//	Corr = 0:   p11 = 0.6·0.5 = 0.3, ψ = 0.6 + 0.5 − 0.6 = 0.5, ψ − Δ² = 0.49,
//	            N = (1.959964·0.707107 + 0.841621·0.7)²/0.01
//	              = (1.385904 + 0.589135)²/0.01 = 1.975039²/0.01 = 390.08 → 391.
//	Corr = 0.5: p11 = 0.3 + 0.5·√(0.24·0.25) = 0.422474, ψ = 1.1 − 0.844949 = 0.255051,
//	            N = (1.959964·0.505026 + 0.841621·0.495026)²/0.01
//	              = (0.989832 + 0.416625)²/0.01 = 1.406457²/0.01 = 197.81 → 198.
//
// With k = 3 repeats and AttemptCorr ρ_a the factor is (1 + 2ρ_a)/3:
// 197.81·(2/3) = 131.87 → 132 at ρ_a = 0.5, 197.81/3 = 65.94 → 66 at 0,
// and 198 again at 1.
func TestTasksNeededByHand(t *testing.T) {
	for _, c := range []struct {
		plan Plan
		want int
	}{
		{Plan{Baseline: 0.5}, 391},
		{Plan{Baseline: 0.5, Corr: 0.5}, 198},
		{Plan{Baseline: 0.5, Corr: 0.5, Repeats: 3, AttemptCorr: 0.5}, 132},
		{Plan{Baseline: 0.5, Corr: 0.5, Repeats: 3}, 66},
		{Plan{Baseline: 0.5, Corr: 0.5, Repeats: 3, AttemptCorr: 1}, 198},
		// A 0.1 decrease from 0.6 is the same comparison seen from the
		// other run: p_A = 0.5, p_B = 0.6.
		{Plan{Baseline: 0.6, Corr: 0.5}, 198},
	} {
		diff := 0.1
		if c.plan.Baseline == 0.6 {
			diff = -0.1
		}
		got, err := TasksNeeded(diff, c.plan)
		if err != nil || got != c.want {
			t.Errorf("TasksNeeded(%v, %+v) = %d, %v; want %d", diff, c.plan, got, err, c.want)
		}
	}
}

func TestPowerAndMinDetectableDiffInvertTasksNeeded(t *testing.T) {
	for _, plan := range []Plan{
		{Baseline: 0.5, Corr: 0.5},
		{Baseline: 0.2},
		{Baseline: 0.8, Corr: 0.3, Repeats: 5, AttemptCorr: 0.4},
		{Baseline: 0.4, Corr: 0.6, Alpha: 0.01, Power: 0.9},
	} {
		n, err := TasksNeeded(0.08, plan)
		if err != nil {
			t.Fatal(err)
		}
		target := plan.Power
		if target == 0 {
			target = 0.8
		}
		at, _ := PairedPower(n, 0.08, plan)
		below, _ := PairedPower(n-1, 0.08, plan)
		if at < target || below >= target {
			t.Errorf("%+v: power at N = %d is %v, at N−1 %v; want them around %v", plan, n, at, below, target)
		}
		d, err := MinDetectableDiff(n, plan)
		if err != nil || d > 0.08 || d < 0.07 {
			t.Errorf("%+v: MinDetectableDiff(%d) = %v, %v; want just under 0.08", plan, n, d, err)
		}
		if p, _ := PairedPower(n, d, plan); math.Abs(p-target) > 1e-6 {
			t.Errorf("%+v: power at the detectable difference %v is %v, want %v", plan, d, p, target)
		}
	}
	// With k repeats the answer is that of one attempt at N/f tasks.
	d3, _ := MinDetectableDiff(200, Plan{Baseline: 0.3, Corr: 0.5, Repeats: 3, AttemptCorr: 0.5})
	d1, _ := MinDetectableDiff(300, Plan{Baseline: 0.3, Corr: 0.5})
	if math.Abs(d3-d1) > 1e-8 {
		t.Errorf("k = 3, ρ_a = 0.5 at 200 tasks gives %v; one attempt at 300 gives %v", d3, d1)
	}
}

// tablePower sums, over every table of N tasks, the multinomial
// probability of the discordant counts (b, c) under the plan's cell
// probabilities times whether reject(b, c) holds: the exact power of a
// test, by brute force over all (b, c) and sharing nothing with the
// closed forms under test.
func tablePower(n int, diff float64, plan Plan, reject func(b, c int) bool) float64 {
	pa, pb := plan.Baseline+diff, plan.Baseline
	p11 := pa*pb + plan.Corr*math.Sqrt(pa*(1-pa)*pb*(1-pb))
	p11 = math.Min(math.Max(p11, math.Max(0, pa+pb-1)), math.Min(pa, pb))
	p10, p01 := pa-p11, pb-p11
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	xlogy := func(x int, y float64) float64 {
		if x == 0 {
			return 0
		}
		return float64(x) * math.Log(y)
	}
	power := 0.0
	for b := 0; b <= n; b++ {
		for c := 0; b+c <= n; c++ {
			if b+c == 0 || !reject(b, c) {
				continue
			}
			m := b + c
			power += math.Exp(lg(n) - lg(b) - lg(c) - lg(n-m) + xlogy(b, p10) + xlogy(c, p01) + xlogy(n-m, 1-p10-p01))
		}
	}
	return power
}

// Connor's formula approximates the uncorrected McNemar test, which
// rejects when (b − c)²/(b + c) ≥ z². Its exact power at the detectable
// difference is within 0.04 of 0.80 from N = 100 on (it exceeds 0.80 at
// small N, where the normal approximation is loose).
func TestMinDetectableDiffHasTheStatedPower(t *testing.T) {
	z2 := Z95 * Z95
	asymptotic := func(b, c int) bool { return float64((b-c)*(b-c)) >= z2*float64(b+c) }
	for _, c := range []struct {
		n    int
		plan Plan
	}{
		{100, Plan{Baseline: 0.5, Corr: 0.5}},
		{100, Plan{Baseline: 0.1, Corr: 0.5}},
		{300, Plan{Baseline: 0.3}},
		{1000, Plan{Baseline: 0.7, Corr: 0.5}},
	} {
		d, err := MinDetectableDiff(c.n, c.plan)
		if err != nil {
			t.Fatal(err)
		}
		if p := tablePower(c.n, d, c.plan, asymptotic); math.Abs(p-0.8) > 0.04 {
			t.Errorf("N = %d, %+v: exact power of the asymptotic test at Δ = %.4f is %.4f, want 0.80", c.n, c.plan, d, p)
		}
	}
}

// ExactPairedPower against the brute-force sum over tables with the
// exact test's rejection rule, McNemarExact(b, c) ≤ 0.05.
func TestExactPairedPower(t *testing.T) {
	exact := func(b, c int) bool { return McNemarExact(b, c) <= 0.05 }
	for _, c := range []struct {
		n    int
		diff float64
		plan Plan
	}{
		{30, 0.2417, Plan{Baseline: 0.1, Corr: 0.5}}, // p01 = 0: ρ is capped
		{50, 0.2, Plan{Baseline: 0.5, Corr: 0.5}},
		{100, 0.1, Plan{Baseline: 0.3}},
		{120, -0.15, Plan{Baseline: 0.6, Corr: 0.2}},
		{300, 0.08, Plan{Baseline: 0.5, Corr: 0.5}},
	} {
		got, err := ExactPairedPower(c.n, c.diff, c.plan)
		want := tablePower(c.n, c.diff, c.plan, exact)
		if err != nil || math.Abs(got-want) > 1e-10 {
			t.Errorf("ExactPairedPower(%d, %v, %+v) = %.12f, %v; brute force %.12f", c.n, c.diff, c.plan, got, err, want)
		}
	}
	// The exact test is conservative: below Connor's power at the
	// detectable difference, and at 0.80 or more with 10% more tasks.
	for _, n := range []int{30, 100, 300} {
		plan := Plan{Baseline: 0.5, Corr: 0.5}
		d, _ := MinDetectableDiff(n, plan)
		at, _ := ExactPairedPower(n, d, plan)
		more, _ := ExactPairedPower(int(math.Ceil(1.1*float64(n))), d, plan)
		if at >= 0.8 || at < 0.74 || more < 0.8 {
			t.Errorf("N = %d: exact power %v at the detectable difference, %v with 10%% more tasks", n, at, more)
		}
	}
	if _, err := ExactPairedPower(100, 0.1, Plan{Baseline: 0.5, Repeats: 3}); err == nil {
		t.Error("repeats accepted")
	}
}

func TestPlanErrors(t *testing.T) {
	for name, f := range map[string]func() error{
		"baseline 0":     func() error { _, err := TasksNeeded(0.1, Plan{}); return err },
		"diff 0":         func() error { _, err := TasksNeeded(0, Plan{Baseline: 0.5}); return err },
		"rate above 1":   func() error { _, err := TasksNeeded(0.6, Plan{Baseline: 0.5}); return err },
		"corr 2":         func() error { _, err := TasksNeeded(0.1, Plan{Baseline: 0.5, Corr: 2}); return err },
		"attempt corr":   func() error { _, err := TasksNeeded(0.1, Plan{Baseline: 0.5, AttemptCorr: -1}); return err },
		"power 1":        func() error { _, err := TasksNeeded(0.1, Plan{Baseline: 0.5, Power: 1}); return err },
		"no tasks":       func() error { _, err := MinDetectableDiff(0, Plan{Baseline: 0.5}); return err },
		"undetectable":   func() error { _, err := MinDetectableDiff(5, Plan{Baseline: 0.9}); return err },
		"power no tasks": func() error { _, err := PairedPower(0, 0.1, Plan{Baseline: 0.5}); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
