package report

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Attempt names one attempt at one task.
type Attempt struct {
	Task    string
	Attempt int
}

// Shard is part Index (1-based) of Count parts of a selection.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// Holds reports whether the k-th attempt (0-based) of a selection in run
// order is in the shard; a nil shard holds every attempt.
func (s *Shard) Holds(k int) bool { return s == nil || k%s.Count == s.Index-1 }

// ParseShard reads "I/N" with 1 <= I <= N.
func ParseShard(v string) (Shard, error) {
	i, n, ok := strings.Cut(v, "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 1 || index > count {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 1 <= I <= N, as 2/3", v)
	}
	return Shard{Index: index, Count: count}, nil
}

// Attempts returns the attempts the settings select, in run order: every
// task of Tasks in order, each attempt 1..Repeat, and of those, with a
// Shard, every Count-th starting at the Index-th. The split is
// deterministic and round-robin, so the shards 1/N..N/N together hold each
// attempt of the whole selection exactly once, and a task's repeats are
// spread over the shards.
func Attempts(s Settings) []Attempt {
	repeat := max(s.Repeat, 1)
	var out []Attempt
	k := 0
	for _, task := range s.Tasks {
		for a := 1; a <= repeat; a++ {
			if s.Shard.Holds(k) {
				out = append(out, Attempt{task, a})
			}
			k++
		}
	}
	return out
}

// notRun returns the attempts the settings selected that have no result, in
// run order.
func notRun(r *Run) []Attempt {
	ran := map[Attempt]bool{}
	for _, res := range r.Results {
		ran[Attempt{res.Task, res.Attempt}] = true
	}
	var out []Attempt
	for _, a := range Attempts(r.Settings) {
		if !ran[a] {
			out = append(out, a)
		}
	}
	return out
}

// Finished reports whether a result is the end of its attempt, one a
// resumed run keeps: the agent was judged, or stopped by its own budget,
// timeout or drift. An attempt that ended in a harness error (or any
// outcome not listed here, as an interrupted one) is run again.
func Finished(res TaskResult) bool {
	switch res.Outcome {
	case OutcomePassed, OutcomeFailed, OutcomeReplayDrift, OutcomeBudgetExceeded, OutcomeTimeout, OutcomeTainted:
		return true
	}
	return false
}

// SameQuestion reports, as an error naming the first field that differs,
// whether two runs asked the same question: the same selection of the same
// suite at the same revision, with the same agent, model, server, web and
// caps. Only such runs may be merged, or one resumed by the other. Shards
// are not compared.
func SameQuestion(a, b *Run) error {
	type field struct {
		name string
		x, y string
	}
	for _, f := range []field{
		{"git_sha", a.GitSHA, b.GitSHA},
		{"settings.suite", a.Settings.Suite, b.Settings.Suite},
		{"settings.agent", a.Settings.Agent, b.Settings.Agent},
		{"settings.server", a.Settings.Server, b.Settings.Server},
		{"settings.model", a.Settings.Model, b.Settings.Model},
		{"settings.web", a.Settings.Web, b.Settings.Web},
		{"settings.caps", fmt.Sprint(a.Settings.Caps), fmt.Sprint(b.Settings.Caps)},
		{"settings.repeat", strconv.Itoa(max(a.Settings.Repeat, 1)), strconv.Itoa(max(b.Settings.Repeat, 1))},
		{"settings.tasks", strings.Join(a.Settings.Tasks, ","), strings.Join(b.Settings.Tasks, ",")},
		{"provenance.contractbench", a.Provenance.Contractbench, b.Provenance.Contractbench},
		{"provenance.server_package", a.Provenance.ServerPackage, b.Provenance.ServerPackage},
	} {
		if f.x != f.y {
			return fmt.Errorf("%s differs: %q against %q", f.name, f.x, f.y)
		}
	}
	// The same task must have been loaded from the same inputs (a dirty
	// tree can change them under one git sha).
	inputs := map[string]TaskProvenance{}
	for _, res := range a.Results {
		if res.Provenance != nil {
			inputs[res.Task] = *res.Provenance
		}
	}
	for _, res := range b.Results {
		x, ok := inputs[res.Task]
		if !ok || res.Provenance == nil {
			continue
		}
		y := *res.Provenance
		for _, f := range []field{
			{"spec", x.Spec, y.Spec}, {"contract", x.Contract, y.Contract}, {"transcript", x.Transcript, y.Transcript},
		} {
			if f.x != f.y {
				return fmt.Errorf("%s: provenance.%s differs: %s against %s", res.Task, f.name, f.x, f.y)
			}
		}
	}
	return nil
}

// Merge combines reports of parts of one selection (shards, or a run and
// its resumption) into the report of the whole. It refuses runs whose
// provenance differs (naming the field), and an attempt present in two of
// them. The result has no Shard, holds the results in run order, is
// Incomplete when an attempt of the selection has no result, and spans from
// the earliest start to the latest end.
func Merge(runs []*Run) (*Run, error) {
	if len(runs) == 0 {
		return nil, errors.New("merge: no reports")
	}
	first := runs[0]
	// SameQuestion below makes every part's Provenance the first's.
	out := &Run{SchemaVersion: SchemaVersion, GitSHA: first.GitSHA, Started: first.Started, Settings: first.Settings, Provenance: first.Provenance}
	out.Settings.Shard = nil
	var end time.Time
	seen := map[Attempt]int{}
	byAttempt := map[Attempt]TaskResult{}
	for i, r := range runs {
		if err := SameQuestion(first, r); err != nil {
			return nil, fmt.Errorf("merge: report %d against report 1: %w", i+1, err)
		}
		if r.Started.Before(out.Started) {
			out.Started = r.Started
		}
		if e := r.Started.Add(time.Duration(r.DurationMS) * time.Millisecond); e.After(end) {
			end = e
		}
		out.Settings.Parallel = max(out.Settings.Parallel, r.Settings.Parallel)
		for _, res := range r.Results {
			a := Attempt{res.Task, res.Attempt}
			if j, dup := seen[a]; dup {
				return nil, fmt.Errorf("merge: %s attempt %d is in report %d and report %d", a.Task, a.Attempt, j, i+1)
			}
			seen[a] = i + 1
			byAttempt[a] = res
		}
	}
	for _, a := range Attempts(out.Settings) {
		if res, ok := byAttempt[a]; ok {
			out.Results = append(out.Results, res)
			delete(byAttempt, a)
		}
	}
	if len(byAttempt) > 0 {
		extra := make([]string, 0, len(byAttempt))
		for a := range byAttempt {
			extra = append(extra, fmt.Sprintf("%s attempt %d", a.Task, a.Attempt))
		}
		slices.Sort(extra)
		return nil, fmt.Errorf("merge: results outside the selection: %s", strings.Join(extra, ", "))
	}
	// A part that stopped early is made whole by another part that holds
	// what it lacked: only the attempts still missing count.
	out.Incomplete = len(notRun(out)) > 0
	out.DurationMS = end.Sub(out.Started).Milliseconds()
	return out, nil
}
