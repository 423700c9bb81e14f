package stats_test

import (
	"fmt"
	"math"
	"strings"

	"contractbench/internal/stats"
)

func ExampleWilson() {
	lo, hi := stats.Wilson(7, 10, stats.Z95)
	fmt.Printf("7/10: %.1f%%–%.1f%%\n", 100*lo, 100*hi)
	lo, hi = stats.Wilson95(0, 20)
	fmt.Printf("0/20: %.1f%%–%.1f%%\n", 100*lo, 100*hi)
	// Output:
	// 7/10: 39.7%–89.2%
	// 0/20: 0.0%–16.1%
}

func ExampleClopperPearson() {
	lo, hi := stats.ClopperPearson(3, 12, 0.95)
	fmt.Printf("3/12: %.8f %.8f\n", lo, hi)
	// Output:
	// 3/12: 0.05486064 0.57185846
}

func ExampleMcNemarExact() {
	// A passed 4 tasks that B failed; B passed 1 task that A failed.
	fmt.Printf("exact p = %.5f\n", stats.McNemarExact(4, 1))
	fmt.Printf("mid-p   = %.5f\n", stats.McNemarMidP(4, 1))
	// Output:
	// exact p = 0.37500
	// mid-p   = 0.21875
}

// The worked example of docs/statistics.md: two runs over the same ten
// tasks, one attempt each.
func ExamplePairedDiff() {
	a := []bool{true, true, true, true, true, false, true, false, true, false}
	b := []bool{true, true, false, false, false, true, true, false, false, false}
	t, _ := stats.CountPairs(a, b)
	fmt.Printf("A %d/%d, B %d/%d\n", t.Both+t.OnlyA, t.N(), t.Both+t.OnlyB, t.N())
	fmt.Printf("both %d, only A %d, only B %d, neither %d\n", t.Both, t.OnlyA, t.OnlyB, t.None)
	diff, lo, hi := stats.PairedDiff(t, stats.Z95)
	fmt.Printf("A − B = %+.3f, 95%% interval %+.4f to %+.4f\n", diff, lo, hi)
	fmt.Printf("McNemar exact p = %.4f\n", stats.McNemarExact(t.OnlyA, t.OnlyB))
	// Output:
	// A 7/10, B 4/10
	// both 3, only A 4, only B 1, neither 2
	// A − B = +0.300, 95% interval -0.1177 to +0.6011
	// McNemar exact p = 0.3750
}

func ExamplePairedBootstrap() {
	// Six tasks, three attempts each in A and in B.
	tasks := []stats.PairedTask{
		{A: stats.TaskAttempts{Passed: 3, Attempts: 3}, B: stats.TaskAttempts{Passed: 2, Attempts: 3}},
		{A: stats.TaskAttempts{Passed: 2, Attempts: 3}, B: stats.TaskAttempts{Passed: 0, Attempts: 3}},
		{A: stats.TaskAttempts{Passed: 3, Attempts: 3}, B: stats.TaskAttempts{Passed: 3, Attempts: 3}},
		{A: stats.TaskAttempts{Passed: 1, Attempts: 3}, B: stats.TaskAttempts{Passed: 1, Attempts: 3}},
		{A: stats.TaskAttempts{Passed: 0, Attempts: 3}, B: stats.TaskAttempts{Passed: 1, Attempts: 3}},
		{A: stats.TaskAttempts{Passed: 2, Attempts: 3}, B: stats.TaskAttempts{Passed: 0, Attempts: 3}},
	}
	r, _ := stats.PairedBootstrap(tasks, 10000, 0.95, 1)
	fmt.Printf("mean difference %+.3f, 95%% interval %+.3f to %+.3f, p = %.2f\n", r.Diff, r.Lo, r.Hi, r.P)
	// Output:
	// mean difference +0.222, 95% interval -0.056 to +0.500, p = 0.19
}

func ExampleClusteredMean() {
	// Nine tasks from three templates.
	values := []float64{1, 1, 0, 0, 0, 1, 0, 1, 1}
	clusters := []string{"g1", "g1", "g1", "g2", "g2", "g3", "g3", "g3", "g3"}
	r, _ := stats.ClusteredMean(values, clusters, 0.95)
	fmt.Printf("mean %.4f, clustered SE %.4f (naive %.4f), t(%d) interval %.4f to %.4f\n",
		r.Mean, r.SE, r.NaiveSE, r.DF, r.Lo, r.Hi)
	// Output:
	// mean 0.5556, clustered SE 0.1901 (naive 0.1757), t(2) interval -0.2622 to 1.3733
}

func ExamplePassAtK() {
	// One task, three attempts, two passed.
	for k := 1; k <= 3; k++ {
		at, _ := stats.PassAtK(3, 2, k)
		hat, _ := stats.PassHatK(3, 2, k)
		fmt.Printf("k=%d pass@k=%.4f pass^k=%.4f\n", k, at, hat)
	}
	// Output:
	// k=1 pass@k=0.6667 pass^k=0.6667
	// k=2 pass@k=1.0000 pass^k=0.3333
	// k=3 pass@k=1.0000 pass^k=0.0000
}

func ExampleClusteredPairedDiff() {
	// Per-task pass rates of A and B on six tasks from three templates.
	a := []float64{1, 1, 0, 1, 2.0 / 3, 0}
	b := []float64{0, 1, 0, 1, 1.0 / 3, 1}
	clusters := []string{"x", "x", "y", "y", "z", "z"}
	r, _ := stats.ClusteredPairedDiff(a, b, clusters, 0.95)
	fmt.Printf("A − B = %+.4f, clustered SE %.4f, t(%d) interval %+.4f to %+.4f\n", r.Mean, r.SE, r.DF, r.Lo, r.Hi)
	// Output:
	// A − B = +0.0556, clustered SE 0.2422, t(2) interval -0.9864 to +1.0975
}

func ExampleMeanPassAtK() {
	tasks := []stats.TaskAttempts{{Passed: 2, Attempts: 3}, {Passed: 0, Attempts: 3}, {Passed: 3, Attempts: 3}, {Passed: 1, Attempts: 4}}
	at, _ := stats.MeanPassAtK(tasks, 2)
	hat, _ := stats.MeanPassHatK(tasks, 2)
	fmt.Printf("pass@2 = %.4f, pass^2 = %.4f\n", at, hat)
	// Output:
	// pass@2 = 0.6250, pass^2 = 0.3333
}

func ExampleExactPairedPower() {
	plan := stats.Plan{Baseline: 0.5, Corr: 0.5}
	n, _ := stats.TasksNeeded(0.10, plan)
	approx, _ := stats.PairedPower(n, 0.10, plan)
	exact, _ := stats.ExactPairedPower(n, 0.10, plan)
	fmt.Printf("%d tasks: Connor's power %.3f, exact McNemar test %.3f\n", n, approx, exact)
	// Output:
	// 198 tasks: Connor's power 0.800, exact McNemar test 0.773
}

func ExampleTasksNeeded() {
	for _, corr := range []float64{0, 0.5} {
		n, _ := stats.TasksNeeded(0.10, stats.Plan{Baseline: 0.5, Corr: corr})
		fmt.Printf("50%% → 60%%, correlation %.1f: %d tasks\n", corr, n)
	}
	// Output:
	// 50% → 60%, correlation 0.0: 391 tasks
	// 50% → 60%, correlation 0.5: 198 tasks
}

// planningTable is the table of docs/statistics.md: the minimum
// detectable improvement, in percentage points, by number of tasks and
// baseline pass rate, one attempt per task, α = 0.05 two-sided, power 0.80.
func planningTable(corr float64) string {
	baselines := []float64{0.1, 0.3, 0.5, 0.7}
	var sb strings.Builder
	sb.WriteString("| tasks |")
	for _, b := range baselines {
		fmt.Fprintf(&sb, " p_B = %.1f |", b)
	}
	sb.WriteString("\n|---:|")
	for range baselines {
		sb.WriteString("---:|")
	}
	sb.WriteString("\n")
	for _, n := range []int{30, 50, 100, 200, 300, 500, 1000} {
		fmt.Fprintf(&sb, "| %d |", n)
		for _, b := range baselines {
			d, err := stats.MinDetectableDiff(n, stats.Plan{Baseline: b, Corr: corr})
			if err != nil || math.IsNaN(d) {
				sb.WriteString(" — |")
				continue
			}
			mark := ""
			if capped(b, b+d, corr) {
				mark = "*"
			}
			fmt.Fprintf(&sb, " %.1f%s |", 100*d, mark)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// capped reports whether the correlation corr is more than the rates pb
// and pa allow, so that Plan caps it.
func capped(pb, pa, corr float64) bool {
	p11 := pa*pb + corr*math.Sqrt(pa*(1-pa)*pb*(1-pb))
	return p11 > math.Min(pa, pb) || p11 < math.Max(0, pa+pb-1)
}

func ExampleMinDetectableDiff() {
	fmt.Println("correlation 0.5:")
	fmt.Print(planningTable(0.5))
	fmt.Println("correlation 0:")
	fmt.Print(planningTable(0))
	// Output:
	// correlation 0.5:
	// | tasks | p_B = 0.1 | p_B = 0.3 | p_B = 0.5 | p_B = 0.7 |
	// |---:|---:|---:|---:|---:|
	// | 30 | 24.2* | 27.0 | 26.4 | 24.2* |
	// | 50 | 16.4 | 20.2 | 20.2 | 17.2 |
	// | 100 | 10.5 | 13.8 | 14.1 | 12.3 |
	// | 200 | 6.9 | 9.5 | 9.9 | 8.8 |
	// | 300 | 5.5 | 7.7 | 8.1 | 7.2 |
	// | 500 | 4.1 | 5.9 | 6.3 | 5.6 |
	// | 1000 | 2.8 | 4.1 | 4.4 | 4.0 |
	// correlation 0:
	// | tasks | p_B = 0.1 | p_B = 0.3 | p_B = 0.5 | p_B = 0.7 |
	// |---:|---:|---:|---:|---:|
	// | 30 | 32.7 | 37.1 | 34.8 | 27.4 |
	// | 50 | 23.5 | 28.2 | 27.4 | 22.3 |
	// | 100 | 15.2 | 19.5 | 19.6 | 16.5 |
	// | 200 | 10.0 | 13.6 | 13.9 | 12.0 |
	// | 300 | 8.0 | 11.0 | 11.4 | 9.9 |
	// | 500 | 6.0 | 8.4 | 8.8 | 7.8 |
	// | 1000 | 4.1 | 5.9 | 6.3 | 5.6 |
}
