package report

import (
	"fmt"
	"math"
	"strconv"

	"contractbench/internal/stats"
)

// PassK is a repeated run's pass@k and pass^k (docs/statistics.md,
// "Repeated attempts"): each task's unbiased estimates from its judged
// attempts (stats.PassAtK, stats.PassHatK), and the suite's as their mean
// over tasks (stats.MeanPassAtK, stats.MeanPassHatK).
type PassK struct {
	// K is the fewest judged attempts of any task: the largest k at which
	// every task has an estimate.
	K int `json:"k"`
	// ByK holds the suite's values for k = 1 … K.
	ByK []PassKValue `json:"by_k"`
	// Tasks holds each task's values at K, in the order tasks first
	// appear in the results.
	Tasks []TaskPassK `json:"tasks"`
	// Flipped counts the tasks whose judged attempts disagree (some
	// passed, some did not), and FlipRate is their share of the tasks:
	// the run-to-run noise a single attempt per task hides.
	Flipped  int     `json:"flipped"`
	FlipRate float64 `json:"flip_rate"`
	// Warning is set when K is below minRankK: too few attempts to rank
	// runs by their repeats.
	Warning string `json:"warning,omitempty"`
}

// minRankK is the fewest attempts per task at which pass^k and the flip
// rate are worth ranking runs by: with two, one flip in either attempt
// moves a task from always to never.
const minRankK = 3

// FewAttemptsWarning is what views say of a run repeated fewer than
// minRankK times.
func FewAttemptsWarning(k int) string {
	if k >= minRankK {
		return ""
	}
	if k <= 1 {
		return "one attempt per task: run-to-run noise is not measured; repeat every task at least 3 times (--repeat 3) before ranking"
	}
	return fmt.Sprintf("k = %d attempts per task is fewer than 3: the flip rate and pass^k are too coarse to rank runs by; use --repeat 3 or more", k)
}

// PassKValue is the suite's pass@k and pass^k at one k.
type PassKValue struct {
	K        int     `json:"k"`
	PassAtK  float64 `json:"pass_at_k"`
	PassHatK float64 `json:"pass_hat_k"`
}

// TaskPassK is one task's passes over its judged attempts, with its pass@k
// and pass^k at the run's K.
type TaskPassK struct {
	Task     string  `json:"task"`
	Passed   int     `json:"passed"`
	Attempts int     `json:"attempts"`
	PassAtK  float64 `json:"pass_at_k"`
	PassHatK float64 `json:"pass_hat_k"`
	// Flipped reports that the task's attempts disagree.
	Flipped bool `json:"flipped,omitempty"`
}

// At returns the suite's values at K.
func (p *PassK) At() PassKValue { return p.ByK[len(p.ByK)-1] }

// fewestAttempts is the fewest judged attempts of any task; 0 for none.
func fewestAttempts(tasks []taskTally) int {
	k := 0
	for i, t := range tasks {
		if i == 0 || t.Attempts < k {
			k = t.Attempts
		}
	}
	return k
}

// passK computes the PassK of tasks judged at least k times each; nil
// when k < 2, since with one attempt pass@1 = pass^1 is the score.
func passK(tasks []taskTally, k int) *PassK {
	if k < 2 {
		return nil
	}
	ts := make([]stats.TaskAttempts, len(tasks))
	for i, t := range tasks {
		ts[i] = stats.TaskAttempts{Passed: t.Passed, Attempts: t.Attempts}
	}
	p := &PassK{K: k}
	for j := 1; j <= k; j++ {
		at, err1 := stats.MeanPassAtK(ts, j)
		hat, err2 := stats.MeanPassHatK(ts, j)
		if err1 != nil || err2 != nil {
			// Unreachable: every task has 0 ≤ passed ≤ attempts and
			// at least k attempts.
			return nil
		}
		p.ByK = append(p.ByK, PassKValue{K: j, PassAtK: at, PassHatK: hat})
	}
	for _, t := range tasks {
		at, err1 := stats.PassAtK(t.Attempts, t.Passed, k)
		hat, err2 := stats.PassHatK(t.Attempts, t.Passed, k)
		if err1 != nil || err2 != nil {
			return nil
		}
		flipped := t.Passed > 0 && t.Passed < t.Attempts
		if flipped {
			p.Flipped++
		}
		p.Tasks = append(p.Tasks, TaskPassK{Task: t.Task, Flipped: flipped, Passed: t.Passed, Attempts: t.Attempts, PassAtK: at, PassHatK: hat})
	}
	p.FlipRate = ratio(p.Flipped, len(p.Tasks))
	p.Warning = FewAttemptsWarning(k)
	return p
}

// detectablePlan is the plan under which every report states the smallest
// difference it could detect: a 50% baseline pass rate, where a pass
// count's variance is largest, runs whose outcomes on a task correlate at 0.5, as agents
// that find the same tasks hard do, and attempts whose differences
// correlate at 0.5, halfway between repeats worth nothing and repeats
// worth new tasks; 80% power at 5% two-sided significance. With one
// attempt per task its answers are the p_B = 0.5 column of the first
// planning table of docs/statistics.md.
var detectablePlan = stats.Plan{Baseline: 0.5, Corr: 0.5, AttemptCorr: 0.5, Alpha: 0.05, Power: 0.8}

// Detectable is the smallest improvement over DetectablePlan's baseline
// that a paired comparison of two runs like this one, over the same tasks
// with as many attempts each, detects (stats.MinDetectableDiff), with the
// assumptions it rests on.
type Detectable struct {
	Tasks       int     `json:"tasks"`
	Repeats     int     `json:"repeats"`
	Baseline    float64 `json:"baseline"`
	Corr        float64 `json:"corr"`
	AttemptCorr float64 `json:"attempt_corr"`
	Alpha       float64 `json:"alpha"`
	Power       float64 `json:"power"`
	// Diff is the difference, as a fraction; 0 when no improvement up
	// to 1 − Baseline is detectable with so few tasks.
	Diff float64 `json:"diff,omitempty"`
}

// detectable computes the Detectable of a run of tasks judged at least
// repeats times each; nil for a run with no judged task.
func detectable(tasks, repeats int) *Detectable {
	if tasks < 1 {
		return nil
	}
	p := detectablePlan
	p.Repeats = max(repeats, 1)
	d := &Detectable{Tasks: tasks, Repeats: p.Repeats, Baseline: p.Baseline, Corr: p.Corr,
		AttemptCorr: p.AttemptCorr, Alpha: p.Alpha, Power: p.Power}
	// The only error left is "nothing detectable", which Diff = 0 says.
	d.Diff, _ = stats.MinDetectableDiff(tasks, p)
	return d
}

// String is the difference as views give it: "26.4 points", or "none"
// when nothing is detectable.
func (d *Detectable) String() string {
	if d.Diff == 0 {
		return "none"
	}
	return points(d.Diff)
}

// Sentence says what Diff means and what it assumes, the same words in
// every view.
func (d *Detectable) Sentence() string {
	size := fmt.Sprintf("%s, %s each", plural(d.Tasks, "task"), plural(d.Repeats, "attempt"))
	if d.Repeats == 1 {
		size = fmt.Sprintf("%s, one attempt each", plural(d.Tasks, "task"))
	}
	head := fmt.Sprintf("the smallest improvement over a %s pass rate that a paired comparison of two runs like this one (%s) detects",
		percent0(d.Baseline), size)
	if d.Diff == 0 {
		head = fmt.Sprintf("no improvement over a %s pass rate is detectable by a paired comparison of two runs like this one (%s)",
			percent0(d.Baseline), size)
	}
	assume := fmt.Sprintf("with %s power at %s two-sided significance, runs correlated %s on a task",
		percent0(d.Power), percent0(d.Alpha), strconv.FormatFloat(d.Corr, 'f', -1, 64))
	if d.Repeats > 1 {
		assume += ", attempts " + strconv.FormatFloat(d.AttemptCorr, 'f', -1, 64)
	}
	return head + ", " + assume
}

// detectableDoc is where the docs explain the detectable difference and
// give its tables for planning a run.
const detectableDoc = "docs/statistics.md, \"Planning: how many tasks\""

// Held is the only number of a run with a trust label: how many of its
// judged attempts ended on a state where the contract held. It is never a
// score: the agent could have written the evidence itself.
type Held struct {
	Trust  string `json:"trust"`
	Held   int    `json:"held"`
	Judged int    `json:"judged"`
}

// heldNote follows the Held line in the reports.
const heldNote = "The count says on how many judged attempts the browser's final state met the contract. " +
	"It is not a score: no result of this run counts as passed, it is in no ranking, and the gate fails."

// String is the line every view, the verdict lines and the board give a
// labelled run: "contract held 8 / 10 (unrestricted: the agent could
// write the evidence)".
func (h *Held) String() string {
	why := "trust: " + h.Trust
	if h.Trust == TrustUnrestricted {
		why = "unrestricted: the agent could write the evidence"
	}
	return fmt.Sprintf("contract held %d / %d (%s)", h.Held, h.Judged, why)
}

// trustLabel is the run's trust label: its settings', or else the first a
// result carries. Any label keeps the run out of every score, ranking and
// gate.
func trustLabel(r *Run) string {
	if r.Settings.Trust != "" {
		return r.Settings.Trust
	}
	for _, res := range r.Results {
		if res.Trust != "" {
			return res.Trust
		}
	}
	return ""
}

// points is a fraction as percentage points, to one decimal.
func points(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + " points" }

// percent0 is a fraction as a percentage with no decimal it does not need
// (50%, 2.5%).
func percent0(f float64) string { return strconv.FormatFloat(math.Round(1000*f)/10, 'f', -1, 64) + "%" }

// plural is n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
