package stats

import (
	"math"
	"testing"
)

func TestPairedBootstrapDeterministic(t *testing.T) {
	tasks := make([]PairedTask, 40)
	for i := range tasks {
		tasks[i] = PairedTask{
			A: TaskAttempts{Passed: (i * i) % 6, Attempts: 5},
			B: TaskAttempts{Passed: (i * 7) % 4, Attempts: 3},
		}
	}
	r1, err1 := PairedBootstrap(tasks, 2000, 0.95, 7)
	r2, err2 := PairedBootstrap(tasks, 2000, 0.95, 7)
	r3, _ := PairedBootstrap(tasks, 2000, 0.95, 8)
	if err1 != nil || err2 != nil || r1 != r2 {
		t.Fatalf("same seed gave %+v (%v) and %+v (%v)", r1, err1, r2, err2)
	}
	if r1 == r3 {
		t.Errorf("seeds 7 and 8 gave the same result %+v", r1)
	}
	if r1.Lo > r1.Diff || r1.Hi < r1.Diff {
		t.Errorf("interval [%v, %v] does not hold the estimate %v", r1.Lo, r1.Hi, r1.Diff)
	}
}

// Small cases whose bootstrap distribution is known exactly: with N tasks
// resampled, the mean of the drawn differences is a multinomial average.
func TestPairedBootstrapExactDistributions(t *testing.T) {
	const R = 20000
	t.Run("all resamples positive", func(t *testing.T) {
		// d = (2/3 − 1/3, 3/3 − 0/2) = (1/3, 1): the resampled mean is
		// 1/3, 2/3 or 1 with probabilities 1/4, 1/2, 1/4, never ≤ 0,
		// so p = 2(1 + 0)/(R + 1) exactly, and the 2.5% and 97.5%
		// points are 1/3 and 1.
		tasks := []PairedTask{
			{A: TaskAttempts{2, 3}, B: TaskAttempts{1, 3}},
			{A: TaskAttempts{3, 3}, B: TaskAttempts{0, 2}},
		}
		r, err := PairedBootstrap(tasks, R, 0.95, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Diff-2.0/3) > 1e-15 || r.P != 2.0/(R+1) || math.Abs(r.Lo-1.0/3) > 1e-15 || r.Hi != 1 {
			t.Errorf("got %+v, want diff 2/3, [1/3, 1], p = %v", r, 2.0/(R+1))
		}
	})
	t.Run("one discordant task of three", func(t *testing.T) {
		// d = (1, 0, 0): the resampled mean is j/3 with j ~ Bin(3, 1/3),
		// P(j = 0) = 8/27, so P(d* ≤ 0) = 8/27 and p → 16/27; the 2.5%
		// point is 0 and the 97.5% point 1 (P(j ≤ 2) = 26/27 < 0.975).
		tasks := []PairedTask{
			{A: TaskAttempts{1, 1}, B: TaskAttempts{0, 1}},
			{A: TaskAttempts{1, 1}, B: TaskAttempts{1, 1}},
			{A: TaskAttempts{0, 1}, B: TaskAttempts{0, 1}},
		}
		r, err := PairedBootstrap(tasks, R, 0.95, 2)
		if err != nil {
			t.Fatal(err)
		}
		// Monte Carlo standard error of p: 2·√((8/27)(19/27)/R) ≈ 0.0065.
		if math.Abs(r.P-16.0/27) > 0.03 || r.Lo != 0 || r.Hi != 1 {
			t.Errorf("got %+v, want p ≈ %.4f in [0, 1]", r, 16.0/27)
		}
	})
	t.Run("identical runs", func(t *testing.T) {
		tasks := []PairedTask{
			{A: TaskAttempts{1, 2}, B: TaskAttempts{1, 2}},
			{A: TaskAttempts{0, 2}, B: TaskAttempts{0, 2}},
		}
		r, err := PairedBootstrap(tasks, 500, 0.95, 3)
		if err != nil || r.Diff != 0 || r.Lo != 0 || r.Hi != 0 || r.P != 1 {
			t.Errorf("got %+v, %v; want 0 in [0, 0] with p = 1", r, err)
		}
	})
}

// For many tasks the bootstrap distribution of the mean is close to
// normal with standard deviation σ̂/√N, σ̂² = Σ(d_i − d̄)²/N (the plug-in
// variance), so the 95% interval is close to d̄ ± 1.96 σ̂/√N.
func TestPairedBootstrapMatchesNormalTheory(t *testing.T) {
	const n = 400
	tasks := make([]PairedTask, n)
	var sum, ss float64
	for i := range tasks {
		a := TaskAttempts{Passed: (i*5 + 1) % 6, Attempts: 5}
		b := TaskAttempts{Passed: (i*3 + 2) % 4, Attempts: 3}
		a.Passed = min(a.Passed, 5)
		tasks[i] = PairedTask{A: a, B: b}
		sum += a.Rate() - b.Rate()
	}
	mean := sum / n
	for _, tk := range tasks {
		d := tk.A.Rate() - tk.B.Rate() - mean
		ss += d * d
	}
	se := math.Sqrt(ss/n) / math.Sqrt(n)
	r, err := PairedBootstrap(tasks, 20000, 0.95, 11)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Diff-mean) > 1e-12 {
		t.Errorf("Diff = %v, want %v", r.Diff, mean)
	}
	wantLo, wantHi := mean-Z95*se, mean+Z95*se
	if math.Abs(r.Lo-wantLo) > 0.1*se || math.Abs(r.Hi-wantHi) > 0.1*se {
		t.Errorf("interval [%v, %v], normal theory [%v, %v]", r.Lo, r.Hi, wantLo, wantHi)
	}
	wantP := 2 * normalCDF(-math.Abs(mean)/se)
	if math.Abs(r.P-wantP) > 0.02 {
		t.Errorf("p = %v, normal theory %v", r.P, wantP)
	}
}

func TestPairedBootstrapErrors(t *testing.T) {
	ok := []PairedTask{{A: TaskAttempts{1, 1}, B: TaskAttempts{0, 1}}}
	for name, c := range map[string]struct {
		tasks []PairedTask
		level float64
	}{
		"no tasks":    {nil, 0.95},
		"no attempts": {[]PairedTask{{A: TaskAttempts{0, 0}, B: TaskAttempts{0, 1}}}, 0.95},
		"too many":    {[]PairedTask{{A: TaskAttempts{3, 2}, B: TaskAttempts{0, 1}}}, 0.95},
		"level":       {ok, 1},
	} {
		if _, err := PairedBootstrap(c.tasks, 100, c.level, 1); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if r, err := PairedBootstrap(ok, 0, 0.95, 1); err != nil || r.Resamples != DefaultResamples {
		t.Errorf("resamples 0 gave %d resamples, %v", r.Resamples, err)
	}
}
