package cli

// The diff tests build small reports with the report package's own types
// and writer, run the command in-process, and check its numbers against
// values worked out here from the formulas, independently of package
// stats: exact binomial sums in rational arithmetic for McNemar, the roots
// of the score quadratic for Wilson, Newcombe's limits written out, and the
// CR1 variance with the closed-form t quantile for 2 degrees of freedom.
// None of them needs a browser.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contractbench/internal/compare"
	"contractbench/internal/report"
)

// z975 is Φ⁻¹(0.975), as tabulated.
const z975 = 1.959963984540054

// attempt is one result of a test report: task, outcome and tags. Its
// digests are the task's, unless spec or contract say otherwise.
type attempt struct {
	task     string
	outcome  report.Outcome
	tags     []string
	spec     string
	contract string
	noDigest bool
}

// writeDiffReport writes a report of the given attempts (numbered per task
// in order) to dir/name with report.WriteJSON and returns its path.
func writeDiffReport(t *testing.T, dir, name, sha, model string, repeat int, attempts []attempt) string {
	t.Helper()
	run := &report.Run{
		SchemaVersion: report.SchemaVersion,
		GitSHA:        sha,
		Started:       time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Settings: report.Settings{
			Suite: "benchmarks/example", Agent: "anthropic", Model: model, Server: "builtin", Web: "replay", Repeat: repeat,
		},
	}
	n := map[string]int{}
	for _, a := range attempts {
		n[a.task]++
		if n[a.task] == 1 {
			run.Settings.Tasks = append(run.Settings.Tasks, a.task)
		}
		res := report.TaskResult{Task: a.task, Tags: a.tags, Attempt: n[a.task], Outcome: a.outcome}
		if !a.noDigest {
			p := &report.TaskProvenance{Spec: "sha256:5bec" + a.task, Contract: "sha256:c0de" + a.task}
			if a.spec != "" {
				p.Spec = a.spec
			}
			if a.contract != "" {
				p.Contract = a.contract
			}
			res.Provenance = p
		}
		run.Results = append(run.Results, res)
	}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, run); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// outcomes turns "PF…" into outcomes: P passed, F failed, T timeout, X
// tainted, E error, I interrupted.
func outcomes(s string) []report.Outcome {
	m := map[rune]report.Outcome{'P': report.OutcomePassed, 'F': report.OutcomeFailed, 'T': report.OutcomeTimeout,
		'X': report.OutcomeTainted, 'E': report.OutcomeError, 'I': report.OutcomeInterrupted}
	var out []report.Outcome
	for _, c := range s {
		out = append(out, m[c])
	}
	return out
}

// workedExample writes the two reports of docs/statistics.md's diff
// example: ten shared tasks in two tags, a task B ended in a harness
// error, one only A ran and one only B ran.
func workedExample(t *testing.T) (dir, a, b string) {
	t.Helper()
	dir = t.TempDir()
	ids := []string{"task-01", "task-02", "task-03", "task-04", "task-05", "task-06", "task-07", "task-08", "task-09", "task-10"}
	tags := func(i int) []string {
		if i < 5 {
			return []string{"search"}
		}
		return []string{"navigation"}
	}
	// A fails in several ways and B is tainted once: all of them are
	// failures, unlike the error on task-11.
	oa := []report.Outcome{report.OutcomePassed, report.OutcomePassed, report.OutcomeFailed, report.OutcomeTimeout,
		report.OutcomeBudgetExceeded, report.OutcomePassed, report.OutcomePassed, report.OutcomeReplayDrift,
		report.OutcomeFailed, report.OutcomeFailed}
	ob := outcomes("PPPPPXPFPT")
	var as, bs []attempt
	for i, id := range ids {
		as = append(as, attempt{task: id, outcome: oa[i], tags: tags(i)})
		bs = append(bs, attempt{task: id, outcome: ob[i], tags: tags(i)})
	}
	as = append(as, attempt{task: "task-11", outcome: report.OutcomePassed, tags: []string{"search"}},
		attempt{task: "task-12", outcome: report.OutcomeFailed})
	bs = append(bs, attempt{task: "task-11", outcome: report.OutcomeError, tags: []string{"search"}},
		attempt{task: "task-13", outcome: report.OutcomePassed})
	a = writeDiffReport(t, dir, "base.json", "4b1d6c0e9a2f7d3e5c8b1a0f6e2d9c4b7a3e1f05", "model-a", 1, as)
	b = writeDiffReport(t, dir, "new.json", "9e3f7a1c5b2d8e4f0a6c1b9d3e7f2a5c8b0d4e61", "model-b", 1, bs)
	return dir, a, b
}

// binomTailHalf is P(X ≤ m) for X ~ Bin(n, 1/2), exactly.
func binomTailHalf(n, m int) *big.Rat {
	sum := new(big.Int)
	for i := 0; i <= m; i++ {
		sum.Add(sum, new(big.Int).Binomial(int64(n), int64(i)))
	}
	return new(big.Rat).SetFrac(sum, new(big.Int).Lsh(big.NewInt(1), uint(n)))
}

// mcnemarRef is the exact McNemar p-value min(1, 2 P(X ≤ min(b, c))),
// X ~ Bin(b+c, 1/2), summed in rational arithmetic.
func mcnemarRef(b, c int) float64 {
	if b+c == 0 {
		return 1
	}
	p := new(big.Rat).Mul(big.NewRat(2, 1), binomTailHalf(b+c, min(b, c)))
	if p.Cmp(big.NewRat(1, 1)) > 0 {
		return 1
	}
	f, _ := p.Float64()
	return f
}

// wilsonRef is the Wilson interval as the two roots p of the score
// equation (p̂ − p)² = z² p(1−p)/n, that is of
// (1 + z²/n) p² − (2p̂ + z²/n) p + p̂² = 0.
func wilsonRef(k, n int) (lo, hi float64) {
	ph, nf, z2 := float64(k)/float64(n), float64(n), z975*z975
	qa, qb, qc := 1+z2/nf, -(2*ph + z2/nf), ph*ph
	disc := math.Sqrt(qb*qb - 4*qa*qc)
	return (-qb - disc) / (2 * qa), (-qb + disc) / (2 * qa)
}

// newcombeRef is Newcombe's (1998b) method 10 interval for the paired
// difference p1 − p2 of the table e (both), f (only the first), g (only
// the second), h (neither), written out from the paper.
func newcombeRef(e, f, g, h int) (lo, hi float64) {
	n := float64(e + f + g + h)
	p1, p2 := float64(e+f)/n, float64(e+g)/n
	l1, u1 := wilsonRef(e+f, e+f+g+h)
	l2, u2 := wilsonRef(e+g, e+f+g+h)
	var phi float64
	if den := float64((e + f) * (g + h) * (e + g) * (f + h)); den > 0 {
		a := float64(e*h - f*g)
		switch {
		case a > n/2:
			a -= n / 2
		case a >= 0:
			a = 0
		}
		phi = a / math.Sqrt(den)
	}
	d := p1 - p2
	lo = d - math.Sqrt((p1-l1)*(p1-l1)-2*phi*(p1-l1)*(u2-p2)+(u2-p2)*(u2-p2))
	hi = d + math.Sqrt((p2-l2)*(p2-l2)-2*phi*(p2-l2)*(u1-p1)+(u1-p1)*(u1-p1))
	return lo, hi
}

// diffJSON is the part of diff's JSON form the tests read.
type diffJSON struct {
	SchemaVersion int     `json:"schema_version"`
	Alpha         float64 `json:"alpha"`
	Reports       []struct {
		Label string `json:"label"`
		File  string `json:"file"`
	} `json:"reports"`
	Comparisons []struct {
		A, B       string
		Repeats    bool     `json:"repeats"`
		InBoth     int      `json:"in_both"`
		OnlyA      []string `json:"only_a"`
		OnlyB      []string `json:"only_b"`
		Unverified []string `json:"unverified"`
		Changed    []struct {
			Task, What string
		} `json:"changed"`
		LeftOut []struct {
			Task string
			A, B map[string]int
		} `json:"left_out"`
		Attempts struct {
			A, B map[string]int
		} `json:"attempts_left_out"`
		Tasks []struct {
			Task, Template, Pair string
		} `json:"tasks"`
		Overall    compare.Group   `json:"overall"`
		ByTag      []compare.Group `json:"by_tag"`
		ByTemplate []compare.Group `json:"by_template"`
	} `json:"comparisons"`
}

func decodeDiff(t *testing.T, out string) diffJSON {
	t.Helper()
	var d diffJSON
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, out)
	}
	return d
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g (±%g)", what, got, want, tol)
	}
}

// checkPairs checks a group's table, its scores and the one-attempt
// statistics against the references.
func checkPairs(t *testing.T, g compare.Group, both, onlyA, onlyB, neither int) {
	t.Helper()
	n := both + onlyA + onlyB + neither
	if g.Tasks != n || g.Pairs != (compare.Pairs{Both: both, OnlyA: onlyA, OnlyB: onlyB, Neither: neither}) {
		t.Fatalf("%s: %d tasks, pairs %+v; want %d, {%d %d %d %d}", g.Name, g.Tasks, g.Pairs, n, both, onlyA, onlyB, neither)
	}
	ka, kb := both+onlyA, both+onlyB
	if g.A.Passed != ka || g.A.Attempts != n || g.B.Passed != kb || g.B.Attempts != n {
		t.Errorf("%s: scores A %d/%d, B %d/%d; want %d/%d, %d/%d", g.Name, g.A.Passed, g.A.Attempts, g.B.Passed, g.B.Attempts, ka, n, kb, n)
	}
	lo, hi := wilsonRef(ka, n)
	near(t, g.Name+" A Wilson low", g.A.WilsonLow, lo, 1e-12)
	near(t, g.Name+" A Wilson high", g.A.WilsonHigh, hi, 1e-12)
	lo, hi = wilsonRef(kb, n)
	near(t, g.Name+" B Wilson low", g.B.WilsonLow, lo, 1e-12)
	near(t, g.Name+" B Wilson high", g.B.WilsonHigh, hi, 1e-12)
	near(t, g.Name+" B − A", g.Diff, float64(onlyB-onlyA)/float64(n), 1e-15)
	// B − A: B is Newcombe's first proportion, so B's passes that A
	// failed are his f.
	lo, hi = newcombeRef(both, onlyB, onlyA, neither)
	if g.Newcombe == nil {
		t.Fatalf("%s: no Newcombe interval", g.Name)
	}
	near(t, g.Name+" Newcombe low", g.Newcombe.Low, math.Max(-1, lo), 1e-12)
	near(t, g.Name+" Newcombe high", g.Newcombe.High, math.Min(1, hi), 1e-12)
	near(t, g.Name+" McNemar p", g.McNemarP, mcnemarRef(onlyA, onlyB), 1e-14)
}

// TestDiffWorkedExample: the example of docs/statistics.md, checked
// against the references, as text (the golden the docs quote) and as
// JSON.
func TestDiffWorkedExample(t *testing.T) {
	t.Parallel()
	dir, a, b := workedExample(t)
	r := run(t, nil, "diff", a, b)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("diff: %v", r)
	}
	text := strings.ReplaceAll(r.stdout, dir+string(filepath.Separator), "")
	golden(t, "diff/worked.txt", text)

	r = run(t, nil, "diff", "--json", a, b)
	if r.code != exitOK {
		t.Fatalf("diff --json: %v", r)
	}
	d := decodeDiff(t, r.stdout)
	if d.SchemaVersion != compare.SchemaVersion || len(d.Comparisons) != 1 || d.Alpha != 0.05 {
		t.Fatalf("schema_version %d, %d comparisons, alpha %v; want %d, 1, 0.05", d.SchemaVersion, len(d.Comparisons), d.Alpha, compare.SchemaVersion)
	}
	c := d.Comparisons[0]
	if c.Repeats || c.InBoth != 11 || len(c.Tasks) != 10 || strings.Join(c.OnlyA, ",") != "task-12" || strings.Join(c.OnlyB, ",") != "task-13" {
		t.Errorf("repeats %v, in both %d, compared %d, only A %q, only B %q; want false, 11, 10, task-12, task-13",
			c.Repeats, c.InBoth, len(c.Tasks), c.OnlyA, c.OnlyB)
	}
	if len(c.LeftOut) != 1 || c.LeftOut[0].Task != "task-11" || c.LeftOut[0].A["passed"] != 1 || c.LeftOut[0].B["error"] != 1 {
		t.Errorf("left out %+v; want task-11, passed in A, error in B", c.LeftOut)
	}
	// e = 3 (tasks 1, 2, 7), only A = 1 (6: B tainted), only B = 4 (3,
	// 4, 5, 9: A failed, timed out, ran out of budget, failed), neither =
	// 2 (8: A drifted, B failed; 10: A failed, B timed out).
	g := c.Overall
	checkPairs(t, g, 3, 1, 4, 2)
	// The published values (docs/statistics.md, Newcombe's worked
	// example as computed there; the McNemar p-value 12/32).
	near(t, "B − A", g.Diff, 0.3, 1e-15)
	near(t, "Newcombe low", g.Newcombe.Low, -0.1177, 5e-5)
	near(t, "Newcombe high", g.Newcombe.High, 0.6011, 5e-5)
	near(t, "A Wilson low", g.A.WilsonLow, 0.1682, 5e-5)
	near(t, "B Wilson high", g.B.WilsonHigh, 0.8922, 5e-5)
	near(t, "McNemar p", g.McNemarP, 12.0/32, 1e-15)
	if g.Test != compare.TestMcNemar || g.P != g.McNemarP || g.Significant || g.Bootstrap != nil || g.Clustered != nil {
		t.Errorf("decided by %s, p %v, significant %v, bootstrap %v, clustered %v; want McNemar's 0.375, not significant, neither",
			g.Test, g.P, g.Significant, g.Bootstrap, g.Clustered)
	}
	if len(c.ByTag) != 2 || c.ByTag[0].Name != "navigation" || c.ByTag[1].Name != "search" || len(c.ByTemplate) != 0 {
		t.Fatalf("by tag %d groups, by template %d; want navigation and search, no template", len(c.ByTag), len(c.ByTemplate))
	}
	checkPairs(t, c.ByTag[0], 1, 1, 1, 2)
	checkPairs(t, c.ByTag[1], 2, 0, 3, 0)
}

// TestDiffDocs: the worked example in docs/statistics.md is the output
// the command gives.
func TestDiffDocs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "statistics.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "diff", "worked.txt"))
	if err != nil {
		t.Fatal(err)
	}
	indented := "    " + strings.ReplaceAll(strings.TrimSuffix(string(want), "\n"), "\n", "\n    ")
	indented = strings.ReplaceAll(indented, "    \n", "\n")
	if !strings.Contains(string(doc), indented) {
		t.Errorf("docs/statistics.md lacks the output of the diff worked example, indented by four spaces:\n%s", indented)
	}
}

// TestDiffRepeats: with repeated attempts the difference is the paired
// bootstrap's, on cases whose bootstrap distribution is known exactly;
// attempts that ended in an error or an interruption are left out; the
// same seed gives the same output.
func TestDiffRepeats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var as, bs []attempt
	add := func(list *[]attempt, task, outs string) {
		for _, o := range outcomes(outs) {
			*list = append(*list, attempt{task: task, outcome: o})
		}
	}
	// r1: A 0/2 (the interrupted attempt is left out), B 3/3: d = +1.
	// r2: A 3/3, B 2/2 (the error is left out): d = 0.
	add(&as, "r1", "FTI")
	add(&bs, "r1", "PPP")
	add(&as, "r2", "PPP")
	add(&bs, "r2", "PPE")
	a := writeDiffReport(t, dir, "a.json", "aa", "model-a", 3, as)
	b := writeDiffReport(t, dir, "b.json", "bb", "model-b", 3, bs)

	r := run(t, nil, "diff", "--json", "--seed", "7", a, b)
	if r.code != exitOK {
		t.Fatalf("diff: %v", r)
	}
	again := run(t, nil, "diff", "--json", "--seed", "7", a, b)
	if again.stdout != r.stdout {
		t.Errorf("the same seed gave different output:\n%s\n%s", r.stdout, again.stdout)
	}
	c := decodeDiff(t, r.stdout).Comparisons[0]
	g := c.Overall
	if !c.Repeats || g.Bootstrap == nil || g.Test != compare.TestBootstrap || g.Newcombe != nil {
		t.Fatalf("repeats %v, bootstrap %v, test %s, Newcombe %v; want the bootstrap to decide", c.Repeats, g.Bootstrap, g.Test, g.Newcombe)
	}
	if c.Attempts.A["interrupted"] != 1 || c.Attempts.B["error"] != 1 || len(c.LeftOut) != 0 {
		t.Errorf("attempts left out %+v, tasks left out %+v; want A interrupted 1, B error 1, no task", c.Attempts, c.LeftOut)
	}
	if g.Pairs != (compare.Pairs{Both: 1, OnlyB: 1}) || g.A.Passed != 3 || g.A.Attempts != 5 || g.B.Passed != 5 || g.B.Attempts != 5 {
		t.Errorf("pairs %+v, A %d/%d, B %d/%d; want both 1, B higher 1, A 3/5, B 5/5", g.Pairs, g.A.Passed, g.A.Attempts, g.B.Passed, g.B.Attempts)
	}
	// The differences are {+1, 0}: a resample's mean is 0, 1/2 or 1 with
	// probabilities 1/4, 1/2, 1/4, so the 2.5% and 97.5% percentiles are 0
	// and 1, and the p-value 2(1 + #{d* ≤ 0})/(R+1) is about 2 · 1/4.
	near(t, "B − A", g.Diff, 0.5, 1e-15)
	near(t, "bootstrap low", g.Bootstrap.Low, 0, 1e-15)
	near(t, "bootstrap high", g.Bootstrap.High, 1, 1e-15)
	// The Monte Carlo standard error of the p-value is 2·√(1/4·3/4/R) ≈
	// 0.0087 at R = 10 000.
	near(t, "bootstrap p", g.Bootstrap.P, 0.5, 0.04)
	if g.Bootstrap.Resamples != 10000 || g.Bootstrap.Seed != 7 || g.P != g.Bootstrap.P {
		t.Errorf("resamples %d, seed %d, p %v; want 10000, 7, the bootstrap's", g.Bootstrap.Resamples, g.Bootstrap.Seed, g.P)
	}
	near(t, "sign test p", g.McNemarP, mcnemarRef(0, 1), 1e-15)

	// Every task 1/3 → 2/3: every resample's mean is +1/3, so the
	// interval is that point and no resample reaches 0: p = 2/(R+1).
	as, bs = nil, nil
	for _, id := range []string{"s1", "s2", "s3", "s4"} {
		add(&as, id, "PFF")
		add(&bs, id, "FPP")
	}
	a = writeDiffReport(t, dir, "a2.json", "aa", "model-a", 3, as)
	b = writeDiffReport(t, dir, "b2.json", "bb", "model-b", 3, bs)
	r = run(t, nil, "diff", "--json", "--resamples", "999", a, b)
	if r.code != exitOK {
		t.Fatalf("diff: %v", r)
	}
	g = decodeDiff(t, r.stdout).Comparisons[0].Overall
	near(t, "B − A", g.Diff, 1.0/3, 1e-12)
	near(t, "bootstrap low", g.Bootstrap.Low, 1.0/3, 1e-12)
	near(t, "bootstrap high", g.Bootstrap.High, 1.0/3, 1e-12)
	near(t, "bootstrap p", g.Bootstrap.P, 2.0/1000, 1e-15)
	near(t, "sign test p", g.McNemarP, mcnemarRef(0, 4), 1e-15)
	if !g.Significant || g.Pairs.OnlyB != 4 {
		t.Errorf("significant %v, B higher %d; want significant, 4", g.Significant, g.Pairs.OnlyB)
	}

	text := run(t, nil, "diff", "--resamples", "999", a, b)
	for _, s := range []string{
		"Per-task pass rates (4 tasks; attempts that count: 3 each in A, 3 each in B)",
		"  B higher                     4   s1 (1/3, 2/3), s2 (1/3, 2/3), s3 (1/3, 2/3), s4 (1/3, 2/3)\n",
		"  A higher                     0\n",
		"B − A: +33.3 points (mean over tasks of the difference in pass rate)",
		"Paired bootstrap: 95% interval +33.3 to +33.3, p = 0.002 (999 resamples of the tasks, seed 1)",
		"Significant at 5%: p = 0.002 (paired bootstrap).",
	} {
		if !strings.Contains(text.stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, text.stdout)
		}
	}
}

// TestDiffTemplates: tasks tagged template:NAME get the CR1 interval
// clustered by template, which decides; each template gets a row.
func TestDiffTemplates(t *testing.T) {
	t.Parallel()
	type task struct {
		id, template string
		a, b         string
	}
	// many: eighteen tasks in three templates, every difference B's way.
	// McNemar, taking them for independent, would call 6 against 0
	// significant (p = 2/64); clustered by template it is not.
	var many []task
	for _, tp := range []struct {
		name string
		ab   []string // per task: outcome in A, in B
	}{
		{"checkout", []string{"FP", "FP", "PP", "FF", "PP", "FF"}},
		{"login", []string{"FP", "PP", "FF", "PP", "FF", "PP"}},
		{"search", []string{"FP", "FP", "FP", "PP", "FF", "PP"}},
	} {
		for i, ab := range tp.ab {
			many = append(many, task{fmt.Sprintf("%s-%d", tp.name, i+1), tp.name, ab[:1], ab[1:]})
		}
	}
	tests := []struct {
		name        string
		tasks       []task
		significant bool
		// inside says the t interval lies within ±1, uncut.
		inside bool
	}{
		{"many", many, false, true},
		// few: eight tasks in three templates; the t interval passes
		// ±1 and is cut there.
		{"few", []task{
			{"checkout-1", "checkout", "P", "P"}, {"checkout-2", "checkout", "F", "P"}, {"checkout-3", "checkout", "F", "P"},
			{"search-1", "search", "F", "F"}, {"search-2", "search", "F", "P"}, {"search-3", "search", "P", "P"},
			{"login-1", "login", "P", "F"}, {"login-2", "login", "P", "P"},
		}, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var as, bs []attempt
			var both, onlyA, onlyB, neither int
			// By hand: d = B − A per task, mean d̄, S_g the sum of d − d̄
			// over a template's tasks, V = G/(G−1) Σ S_g² / N², and the t
			// quantile and distribution with G − 1 = 2 degrees of freedom
			// in closed form: F(t) = 1/2 + t/(2√(2+t²)), so t_q =
			// a√(2/(1−a²)) with a = 2q − 1.
			d := map[string][]float64{}
			var sum float64
			for _, tk := range tc.tasks {
				tags := []string{"shop", "template:" + tk.template}
				as = append(as, attempt{task: tk.id, outcome: outcomes(tk.a)[0], tags: tags})
				bs = append(bs, attempt{task: tk.id, outcome: outcomes(tk.b)[0], tags: tags})
				v := 0.0
				switch tk.a + tk.b {
				case "PP":
					both++
				case "PF":
					onlyA++
					v = -1
				case "FP":
					onlyB++
					v = 1
				default:
					neither++
				}
				d[tk.template] = append(d[tk.template], v)
				sum += v
			}
			a := writeDiffReport(t, dir, "a.json", "aa", "model-a", 1, as)
			b := writeDiffReport(t, dir, "b.json", "bb", "model-b", 1, bs)
			r := run(t, nil, "diff", "--json", a, b)
			if r.code != exitOK {
				t.Fatalf("diff: %v", r)
			}
			c := decodeDiff(t, r.stdout).Comparisons[0]
			g := c.Overall

			n := float64(len(tc.tasks))
			mean := sum / n
			var meat, ss float64
			for _, vs := range d {
				s := 0.0
				for _, v := range vs {
					s += v - mean
					ss += (v - mean) * (v - mean)
				}
				meat += s * s
			}
			G := float64(len(d))
			se := math.Sqrt(G / (G - 1) * meat / (n * n))
			q := 2*0.975 - 1
			tq := q * math.Sqrt(2/(1-q*q))
			tstat := mean / se
			p := 1 - math.Abs(tstat)/math.Sqrt(2+tstat*tstat)

			cl := g.Clustered
			if cl == nil || g.Test != compare.TestClustered {
				t.Fatalf("clustered %v, test %s; want the clustered interval to decide", cl, g.Test)
			}
			if cl.Clusters != 3 || cl.DF != 2 {
				t.Errorf("%d clusters, %d df; want 3, 2", cl.Clusters, cl.DF)
			}
			near(t, "B − A", g.Diff, mean, 1e-15)
			near(t, "CR1 SE", cl.SE, se, 1e-12)
			near(t, "naive SE", cl.NaiveSE, math.Sqrt(ss/(n-1)/n), 1e-12)
			near(t, "clustered low", cl.Low, math.Max(-1, mean-tq*se), 1e-9)
			near(t, "clustered high", cl.High, math.Min(1, mean+tq*se), 1e-9)
			near(t, "clustered p", cl.P, p, 1e-9)
			if inside := mean-tq*se > -1 && mean+tq*se < 1; inside != tc.inside {
				t.Errorf("the interval %v to %v is inside ±1: %v; the case wants %v", mean-tq*se, mean+tq*se, inside, tc.inside)
			}
			if g.P != cl.P || g.Low != cl.Low || g.High != cl.High || g.Significant != tc.significant {
				t.Errorf("decided with p %v, %v to %v, significant %v; want the clustered p %v, %v to %v, significant %v",
					g.P, g.Low, g.High, g.Significant, cl.P, cl.Low, cl.High, tc.significant)
			}
			checkPairs(t, g, both, onlyA, onlyB, neither)

			// The template tags are not tags of their own; each template
			// is a group in which its tasks are compared as they are.
			if len(c.ByTag) != 1 || c.ByTag[0].Name != "shop" || c.ByTag[0].Clustered == nil {
				t.Errorf("by tag %+v; want shop alone, clustered", c.ByTag)
			}
			if len(c.ByTemplate) != 3 {
				t.Fatalf("by template: %d groups, want 3", len(c.ByTemplate))
			}
			for i, want := range []string{"checkout", "login", "search"} {
				if tg := c.ByTemplate[i]; tg.Name != want || tg.Test != compare.TestMcNemar || tg.Clustered != nil || tg.Tasks != len(d[want]) {
					t.Errorf("template group %d: %s, %d tasks, decided by %s; want %s, %d tasks, by McNemar", i, tg.Name, tg.Tasks, tg.Test, want, len(d[want]))
				}
			}
			for _, tk := range c.Tasks {
				if !strings.HasPrefix(tk.Task, tk.Template+"-") {
					t.Errorf("task %s has template %q", tk.Task, tk.Template)
				}
			}

			text := run(t, nil, "diff", a, b)
			for _, s := range []string{
				fmt.Sprintf("Clustered by template (3 clusters): 95%% interval %s to %s, p = %s\n", compare.Points(cl.Low), compare.Points(cl.High), compare.PValue(cl.P)),
				"(clustered by template, as tasks of one template are not independent).\n",
				"By template (tasks tagged template:NAME)\n",
			} {
				if !strings.Contains(text.stdout, s) {
					t.Errorf("output lacks %q:\n%s", s, text.stdout)
				}
			}
		})
	}
}

// TestDiffChangedTasks: a shared task whose task file or contract changed
// refuses the comparison, naming it, unless --allow-changed leaves it out;
// a report without digests is compared and said to be unchecked.
func TestDiffChangedTasks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	as := []attempt{
		{task: "t1", outcome: report.OutcomePassed},
		{task: "t2", outcome: report.OutcomePassed},
		{task: "t3", outcome: report.OutcomeFailed},
		{task: "t4", outcome: report.OutcomeFailed},
	}
	bs := []attempt{
		{task: "t1", outcome: report.OutcomePassed},
		{task: "t2", outcome: report.OutcomeFailed, contract: "sha256:0123456789abcdef-new-contract", spec: "sha256:fedcba9876543210-new-spec"},
		{task: "t3", outcome: report.OutcomePassed, spec: "sha256:aaaabbbbccccdddd-new-instruction"},
		{task: "t4", outcome: report.OutcomePassed, noDigest: true},
	}
	a := writeDiffReport(t, dir, "a.json", "aa", "model-a", 1, as)
	b := writeDiffReport(t, dir, "b.json", "bb", "model-b", 1, bs)
	out := filepath.Join(dir, "out", "diff.txt")

	r := run(t, nil, "diff", "-o", out, a, b)
	if r.code != exitUsage || r.stdout != "" {
		t.Fatalf("diff of changed tasks: %v; want exit 2 and nothing on stdout", r)
	}
	for _, s := range []string{
		"t2: contract c0det2 in " + a + ", 0123456789ab in " + b,
		"t3: task file 5bect3 in " + a + ", aaaabbbbcccc in " + b + " (same contract)",
		"--allow-changed",
	} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "t4") || strings.Contains(r.stderr, "t1:") {
		t.Errorf("stderr names an unchanged task:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("a refused diff wrote %s", out)
	}

	r = run(t, nil, "diff", "--allow-changed", "-o", out, a, b)
	if r.code != exitOK || strings.TrimSpace(r.stdout) != out {
		t.Fatalf("diff --allow-changed -o: %v; want exit 0 and the path", r)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"Tasks: 4 in both reports, 2 compared, 2 changed; 0 only in A, 0 only in B",
		"  changed (digests differ), left out: t2 (contract), t3 (task)",
		"  not checked for changes (a report has no digests): t4",
	} {
		if !strings.Contains(string(written), s) {
			t.Errorf("%s lacks %q:\n%s", out, s, written)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "out", ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
	// Flags may follow the reports.
	r = run(t, nil, "diff", a, b, "--allow-changed", "--json")
	if r.code != exitOK {
		t.Fatalf("diff with flags last: %v", r)
	}
	c := decodeDiff(t, r.stdout).Comparisons[0]
	if len(c.Changed) != 2 || c.Changed[0] != (struct{ Task, What string }{"t2", "contract"}) ||
		c.Changed[1] != (struct{ Task, What string }{"t3", "task"}) || strings.Join(c.Unverified, ",") != "t4" {
		t.Errorf("changed %+v, unverified %q; want t2 contract, t3 task; t4", c.Changed, c.Unverified)
	}
	checkPairs(t, c.Overall, 1, 0, 1, 0)
}

// TestDiffBadInput: a report that cannot be read is named, exits 2 and
// leaves nothing written; so does bad usage.
func TestDiffBadInput(t *testing.T) {
	t.Parallel()
	dir, a, b := workedExample(t)
	garbled := filepath.Join(dir, "garbled.json")
	os.WriteFile(garbled, []byte(`{"schema_version": 2, "results": [`), 0o644)
	future := filepath.Join(dir, "future.json")
	os.WriteFile(future, []byte(`{"schema_version": 99, "results": []}`), 0o644)
	out := filepath.Join(dir, "out.json")
	tests := []struct {
		name string
		args []string
		want string
		// usage: the flag package prints the command's usage on stdout.
		usage bool
	}{
		{"garbled second", []string{"diff", "--json", "-o", out, a, garbled}, "garbled.json: report json:", false},
		{"garbled third", []string{"diff", "-o", out, a, b, garbled}, "garbled.json: report json:", false},
		{"newer schema", []string{"diff", "-o", out, future, b}, "future.json: report json: schema_version: 99", false},
		{"missing", []string{"diff", "-o", out, a, filepath.Join(dir, "none.json")}, "none.json", false},
		{"one report", []string{"diff", "-o", out, a}, "want at least two reports, got 1", false},
		{"no resamples", []string{"diff", "--resamples", "0", "-o", out, a, b}, "--resamples 0", false},
		{"unknown flag", []string{"diff", "--nope", a, b}, "flag provided but not defined: -nope", true},
		{"output name", []string{"diff", "-o", filepath.Join(dir, "my diff.txt"), a, b}, "my diff.txt", false},
		{"output a folder", []string{"diff", "-o", dir + string(filepath.Separator) + ".", a, b}, "not a file name", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, tc.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) || (r.stdout != "") != tc.usage {
				t.Errorf("%v; want exit %d, %q on stderr, nothing on stdout", r, exitUsage, tc.want)
			}
		})
	}
	for _, f := range []string{out, filepath.Join(dir, "my diff.txt")} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("bad input wrote %s", f)
		}
	}
}

// TestDiffThreeReports: each report is compared with the first, at 5%
// divided by the number of comparisons.
func TestDiffThreeReports(t *testing.T) {
	t.Parallel()
	dir, a, b := workedExample(t)
	var cs []attempt
	for i := 1; i <= 10; i++ {
		cs = append(cs, attempt{task: "task-" + string(rune('0'+i/10)) + string(rune('0'+i%10)), outcome: report.OutcomePassed})
	}
	c := writeDiffReport(t, dir, "c.json", "cc", "model-c", 1, cs)
	r := run(t, nil, "diff", "--json", a, b, c)
	if r.code != exitOK {
		t.Fatalf("diff: %v", r)
	}
	d := decodeDiff(t, r.stdout)
	if len(d.Comparisons) != 2 || d.Comparisons[0].B != "B" || d.Comparisons[1].A != "A" || d.Comparisons[1].B != "C" || d.Alpha != 0.025 {
		t.Fatalf("comparisons %d, alpha %v; want B − A and C − A at 0.025", len(d.Comparisons), d.Alpha)
	}
	// C passes all ten: against A's 4 of 10 that is 6 only-C tasks and
	// none only A, p = 2/64, significant at 5% but not at 2.5%.
	g := d.Comparisons[1].Overall
	checkPairs(t, g, 4, 0, 6, 0)
	if g.Significant {
		t.Errorf("C − A: p %v called significant at %v", g.P, d.Alpha)
	}
	text := run(t, nil, "diff", a, b, c)
	for _, s := range []string{
		"Each report is compared with A, the first. With 2 comparisons a difference is",
		"== C − A ==",
		"Not significant at 5% over 2 comparisons (p ≤ 0.025): p = 0.031 (exact McNemar).",
	} {
		if !strings.Contains(text.stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, text.stdout)
		}
	}
}
