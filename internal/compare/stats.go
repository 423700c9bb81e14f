package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"contractbench/internal/stats"
)

// Options are the settings every comparison's statistics share; the zero
// value takes stats.DefaultResamples and seed 0.
type Options struct {
	// Seed and Resamples drive the paired bootstrap, used with repeated
	// attempts.
	Seed      uint64
	Resamples int
	// AllowChanged leaves out the tasks whose digests differ between two
	// reports, instead of refusing the comparison (ChangedError).
	AllowChanged bool
}

func (c *Comparison) analyze(o Options, alpha float64) error {
	var err error
	if c.Overall, err = analyzeGroup("", c.Tasks, c.Repeats, o, alpha); err != nil {
		return err
	}
	tags := map[string][]Task{}
	templates := map[string][]Task{}
	for _, t := range c.Tasks {
		for _, tag := range t.Tags {
			if !strings.HasPrefix(tag, templateTagPrefix) {
				tags[tag] = append(tags[tag], t)
			}
		}
		if t.Template != "" {
			templates[t.Template] = append(templates[t.Template], t)
		}
	}
	if c.ByTag, err = c.analyzeGroups(tags, o, alpha); err != nil {
		return err
	}
	c.ByTemplate, err = c.analyzeGroups(templates, o, alpha)
	return err
}

// analyzeGroups computes the statistics of each group, by name.
func (c *Comparison) analyzeGroups(groups map[string][]Task, o Options, alpha float64) ([]Group, error) {
	out := []Group{}
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		g, err := analyzeGroup(name, groups[name], c.Repeats, o, alpha)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// analyzeGroup computes the statistics of one group of compared
// tasks. The test that decides is the exact McNemar test with one attempt
// per task, the paired bootstrap with repeats, and the cluster-robust t
// test when tasks of one template sit beside others, since the other two
// take the tasks for independent.
func analyzeGroup(name string, tasks []Task, repeats bool, o Options, alpha float64) (Group, error) {
	g := tallyGroup(name, tasks)
	if len(tasks) == 0 {
		g.Test, g.P, g.Low, g.High = testNone, 1, -1, 1
		g.McNemarP = 1
		return g, nil
	}
	g.McNemarP = stats.McNemarExact(g.Pairs.OnlyA, g.Pairs.OnlyB)
	if repeats {
		// The statistics package's A is the candidate: this command's B.
		boot := make([]stats.PairedTask, len(tasks))
		for i, t := range tasks {
			boot[i] = stats.PairedTask{
				A: stats.TaskAttempts{Passed: t.B.Passed, Attempts: t.B.Attempts},
				B: stats.TaskAttempts{Passed: t.A.Passed, Attempts: t.A.Attempts},
			}
		}
		r, err := stats.PairedBootstrap(boot, o.Resamples, 0.95, o.Seed)
		if err != nil {
			return g, fmt.Errorf("diff: %s: %w", groupName(name), err)
		}
		g.Diff = r.Diff
		g.Bootstrap = &Bootstrap{Low: r.Lo, High: r.Hi, P: r.P, Resamples: r.Resamples, Seed: o.Seed}
		g.Test, g.P, g.Low, g.High = TestBootstrap, r.P, r.Lo, r.Hi
	} else {
		t := stats.PairedCounts{Both: g.Pairs.Both, OnlyA: g.Pairs.OnlyB, OnlyB: g.Pairs.OnlyA, None: g.Pairs.Neither}
		d, lo, hi := stats.PairedDiff(t, stats.Z95)
		g.Diff = d
		g.Newcombe = &Interval{Low: lo, High: hi}
		g.Test, g.P, g.Low, g.High = TestMcNemar, g.McNemarP, lo, hi
	}
	if err := clusterGroup(&g, tasks); err != nil {
		return g, err
	}
	g.Significant = g.P <= alpha
	return g, nil
}

// tallyGroup counts a group's pairs and scores.
func tallyGroup(name string, tasks []Task) Group {
	g := Group{Name: name, Tasks: len(tasks)}
	for _, t := range tasks {
		switch t.Pair {
		case pairBoth:
			g.Pairs.Both++
		case pairOnlyA:
			g.Pairs.OnlyA++
		case pairOnlyB:
			g.Pairs.OnlyB++
		case pairNeither:
			g.Pairs.Neither++
		default:
			g.Pairs.Tied++
		}
		g.A.Passed += t.A.Passed
		g.A.Attempts += t.A.Attempts
		g.B.Passed += t.B.Passed
		g.B.Attempts += t.B.Attempts
	}
	for _, s := range []*Score{&g.A, &g.B} {
		s.Score = ratio(s.Passed, s.Attempts)
		s.WilsonLow, s.WilsonHigh = stats.Wilson95(s.Passed, s.Attempts)
	}
	return g
}

// clusterGroup adds the interval clustered by template, which then
// decides, when some template has two tasks in the group and the group
// spans two clusters or more. Within one template's tasks the question is
// about that template, and the unclustered tests answer it.
func clusterGroup(g *Group, tasks []Task) error {
	rateA, rateB := make([]float64, len(tasks)), make([]float64, len(tasks))
	clusters := make([]string, len(tasks))
	sizes := map[string]int{}
	for i, t := range tasks {
		rateA[i] = float64(t.A.Passed) / float64(t.A.Attempts)
		rateB[i] = float64(t.B.Passed) / float64(t.B.Attempts)
		// A task of no template is a cluster of its own; the NUL keeps
		// its name apart from any template's.
		clusters[i] = "\x00" + t.Task
		if t.Template != "" {
			clusters[i] = t.Template
		}
		sizes[clusters[i]]++
	}
	if len(sizes) < 2 || len(sizes) == len(tasks) {
		return nil
	}
	r, err := stats.ClusteredPairedDiff(rateB, rateA, clusters, 0.95)
	if err != nil {
		return fmt.Errorf("diff: %s: %w", groupName(g.Name), err)
	}
	// A difference of rates lies in [−1, 1]; the t interval does not
	// know that, and cutting it there loses nothing.
	lo, hi, p := math.Max(-1, r.Lo), math.Min(1, r.Hi), clusteredP(r)
	g.Clustered = &Clustered{Clusters: r.Clusters, SE: r.SE, NaiveSE: r.NaiveSE, DF: r.DF, Low: lo, High: hi, P: p}
	g.Test, g.P, g.Low, g.High = TestClustered, p, lo, hi
	return nil
}

// clusteredP is the two-sided p-value of the cluster-robust t
// statistic, mean/SE with G−1 degrees of freedom: at most α exactly when
// the interval at 1 − α leaves 0 out.
func clusteredP(r stats.ClusteredResult) float64 {
	if r.SE == 0 {
		if r.Mean == 0 {
			return 1
		}
		return 0
	}
	return math.Min(1, 2*stats.TCDF(-math.Abs(r.Mean)/r.SE, float64(r.DF)))
}

func ratio(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func groupName(name string) string {
	if name == "" {
		return "all tasks"
	}
	return name
}
