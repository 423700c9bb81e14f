package report

import (
	"math"
	"slices"

	"contractbench/internal/stats"
)

// Summary is what every view says about a run as a whole. It is derived
// from the Run alone; the JSON form carries it for readers that want the
// score without recomputing it.
type Summary struct {
	// Tasks is the number of distinct tasks with at least one judged
	// result; Total the number of judged results (tasks times attempts).
	// An interrupted result is not judged: it counts in ByOutcome only.
	Tasks int `json:"tasks"`
	Total int `json:"total"`
	// Passed counts results whose outcome is passed; Score is
	// Passed/Total, 0 for an empty run.
	Passed int     `json:"passed"`
	Score  float64 `json:"score"`
	// Wilson95Low and Wilson95High bound Score with a 95% Wilson score
	// interval, treating each result as an independent trial.
	Wilson95Low  float64 `json:"wilson95_low"`
	Wilson95High float64 `json:"wilson95_high"`
	// ByOutcome counts results per outcome; outcomes that did not occur
	// are absent.
	ByOutcome map[Outcome]int `json:"by_outcome"`
	// NotRun counts the task attempts the settings asked for that have no
	// result, which only an incomplete run has.
	NotRun int `json:"not_run"`
	// Denominator is every attempt asked for, by what became of it, and
	// which of them the score counts.
	Denominator Denominator `json:"denominator"`
	// CannotBeDone is how the agent did on tasks that cannot be done and
	// on doable tasks that require a write; nil when the run has neither.
	CannotBeDone *CannotBeDone `json:"cannot_be_done,omitempty"`
	// Medians over every result, whatever its outcome. With an even
	// number of results a median is the mean of the middle two.
	MedianDurationMS    float64 `json:"median_duration_ms"`
	MedianToolCalls     float64 `json:"median_tool_calls"`
	MedianResponseBytes float64 `json:"median_response_bytes"`
	// TotalUSD (to a millionth of a dollar) and Tokens add up every
	// result.
	TotalUSD float64 `json:"total_usd"`
	Tokens   Tokens  `json:"tokens"`
	// Groups scores the tasks by their app, kind, widget and template
	// tags (GroupDimensions); absent when no task has one.
	Groups []Group `json:"groups,omitempty"`

	// The numbers below are a trusted run's: a run with a trust label
	// (TrustLabel) has Held instead, and none of them.

	// PassK is pass@k and pass^k per task and overall, when every task
	// was judged at least twice.
	PassK *PassK `json:"pass_k,omitempty"`
	// Detectable is the smallest difference a comparison of runs like
	// this one could detect; nil for a run with no judged task.
	Detectable *Detectable `json:"detectable,omitempty"`
	// Held is how often the contract held in a labelled run.
	Held *Held `json:"contract_held,omitempty"`
}

// Summarize computes the Summary of r.
func Summarize(r *Run) Summary {
	tasks := tallies(r)
	s := Summary{Tasks: len(tasks), ByOutcome: map[Outcome]int{}}
	var dur, calls, bytes []float64
	for _, res := range r.Results {
		s.ByOutcome[res.Outcome]++
		if !res.Outcome.Judged() {
			// Stopped before the agent finished: not an attempt the
			// score can count, for or against the agent.
			continue
		}
		s.Total++
		if res.Outcome.Passed() {
			s.Passed++
		}
		dur = append(dur, float64(res.DurationMS))
		calls = append(calls, float64(res.ToolCalls))
		bytes = append(bytes, float64(res.ResponseBytes))
		s.TotalUSD += res.USD
		s.Tokens = s.Tokens.add(res.Tokens)
	}
	if s.Total > 0 {
		s.Score = float64(s.Passed) / float64(s.Total)
	}
	// Rounded to a millionth of a dollar: a sum of float prices carries
	// noise (0.051000000000000004) that would only distract a reader.
	s.TotalUSD = math.Round(s.TotalUSD*1e6) / 1e6
	s.Wilson95Low, s.Wilson95High = stats.Wilson95(s.Passed, s.Total)
	s.NotRun = len(notRun(r))
	s.Denominator = denominator(r, s.NotRun)
	s.CannotBeDone = cannotBeDone(r)
	s.MedianDurationMS = Median(dur)
	s.MedianToolCalls = Median(calls)
	s.MedianResponseBytes = Median(bytes)
	s.Groups = groups(r)
	if trust := trustLabel(r); trust != "" {
		s.Held = &Held{Trust: trust, Judged: s.Total}
		for _, res := range r.Results {
			if res.Outcome.Judged() && res.Verdict().Passed {
				s.Held.Held++
			}
		}
		return s
	}
	k := fewestAttempts(tasks)
	s.PassK = passK(tasks, k)
	s.Detectable = detectable(len(tasks), k)
	return s
}

// Median returns the median of xs, 0 for none. It sorts xs.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}

// Repeated reports whether some task of r has more than one attempt, in
// which case views name each result by task and attempt (ResultName).
func Repeated(r *Run) bool {
	return r.Settings.Repeat > 1 || slices.ContainsFunc(r.Results, func(res TaskResult) bool { return res.Attempt > 1 })
}

// taskTally is the pass count of one task over its judged attempts.
type taskTally struct {
	Task     string
	Passed   int
	Attempts int
}

// tallies returns the pass count of each task with a judged attempt, in
// the order tasks first appear in the results. Interrupted attempts are
// left out, as the score leaves them out.
func tallies(r *Run) []taskTally {
	var out []taskTally
	index := map[string]int{}
	for _, res := range r.Results {
		if !res.Outcome.Judged() {
			continue
		}
		i, ok := index[res.Task]
		if !ok {
			i = len(out)
			index[res.Task] = i
			out = append(out, taskTally{Task: res.Task})
		}
		out[i].Attempts++
		if res.Outcome.Passed() {
			out[i].Passed++
		}
	}
	return out
}
