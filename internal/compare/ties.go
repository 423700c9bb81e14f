package compare

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"contractbench/internal/stats"
)

// stabilitySplits is how many random half-splits of the tasks the board
// draws to say how stable each rank is, and stabilitySeed seeds them, so
// the same runs always give the same figures.
const (
	stabilitySplits = 1000
	stabilitySeed   = 1
)

// markTies tests every ranked run of g against the top one with the exact
// McNemar test on the tasks both finished (as comparePair tests
// neighbours), Holm-corrects the p-values as one family, and marks the
// runs the test cannot tell from the best: tied with #1.
func markTies(g *boardGroup) {
	if len(g.Ranked) < 2 {
		return
	}
	top := g.Ranked[0]
	top.Tied = true
	raw := make([]float64, len(g.Ranked)-1)
	pairs := make([]*boardPair, len(raw))
	for i, row := range g.Ranked[1:] {
		pairs[i] = comparePair(top, row)
		raw[i] = pairs[i].raw
	}
	for i, adj := range stats.HolmAdjust(raw) {
		row := g.Ranked[i+1]
		pairs[i].Significant = adj < significanceLevel
		pairs[i].P = formatP(adj)
		row.VsTop, row.Tied = pairs[i], !pairs[i].Significant
	}
}

// markStability draws stabilitySplits random halves of g's tasks, ranks
// the runs on each half by their pass rate there, and gives each ranked
// run the share of halves in which it keeps its rank: a rank a different
// half of the tasks would change is a rank the tasks do not decide. Runs
// level on a half share the higher rank (1, 2, 2, 4), so of two runs the
// tasks cannot separate, the lower keeps its rank on no half.
func markStability(g *boardGroup) {
	if len(g.Ranked) < 2 {
		return
	}
	var tasks []string
	for _, row := range g.Ranked {
		tasks = slices.AppendSeq(tasks, maps.Keys(row.tasks.tasks))
	}
	slices.Sort(tasks)
	tasks = slices.Compact(tasks)
	half := len(tasks) / 2
	if half == 0 {
		return
	}
	rng := rand.New(rand.NewPCG(stabilitySeed, uint64(len(tasks))))
	kept := make([]int, len(g.Ranked))
	rates := make([]float64, len(g.Ranked))
	for range stabilitySplits {
		rng.Shuffle(len(tasks), func(i, j int) { tasks[i], tasks[j] = tasks[j], tasks[i] })
		for i, row := range g.Ranked {
			passed, attempts := 0, 0
			for _, id := range tasks[:half] {
				if rec := row.tasks.tasks[id]; rec != nil {
					passed, attempts = passed+rec.Passed, attempts+rec.Attempts
				}
			}
			rates[i] = 0
			if attempts > 0 {
				rates[i] = float64(passed) / float64(attempts)
			}
		}
		for i := range g.Ranked {
			rank := 1
			for j := range g.Ranked {
				if rates[j] > rates[i] {
					rank++
				}
			}
			if rank == i+1 {
				kept[i]++
			}
		}
	}
	g.Splits, g.Half = stabilitySplits, half
	for i, row := range g.Ranked {
		row.Stability = strconv.FormatFloat(100*float64(kept[i])/stabilitySplits, 'f', 0, 64) + "%"
	}
}

// PText is the pair's p-value as a clause: "p = 0.031", "p < 0.001".
func (p *boardPair) PText() string {
	if strings.HasPrefix(p.P, "<") {
		return "p " + p.P
	}
	return "p = " + p.P
}

// formatP is a p-value as the board prints it.
func formatP(v float64) string {
	if v < 0.001 {
		return "< 0.001"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
