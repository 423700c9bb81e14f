package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"contractbench/internal/report"
)

// templateTagPrefix starts the tag that names the template a task was
// made from.
const templateTagPrefix = "template:"

// The tests that can decide whether a difference is significant.
const (
	testNone      = "none" // no task to compare
	TestMcNemar   = "mcnemar_exact"
	TestBootstrap = "paired_bootstrap"
	TestClustered = "clustered_t"
)

// The outcome pairs of a task. With repeated attempts only_a means A's
// pass rate is the higher one, and tied that the rates are equal and
// strictly between 0 and 1.
const (
	pairBoth    = "both"
	pairOnlyA   = "only_a"
	pairOnlyB   = "only_b"
	pairNeither = "neither"
	pairTied    = "tied"
)

func Label(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("R%d", i+1)
}

// Run is one report as every comparison reads it: per task, the attempts
// that count (report.Finished) and the digests of what they were produced
// from. match pairs two of them task by task; diff, the board and the
// servers comparison are views of what it pairs.
type Run struct {
	label, path string
	run         *report.Run
	tasks       map[string]*record
	order       []string // task ids in the order the report first names them
}

// record is one task in one run.
type record struct {
	tags []string
	Tally
	// outcomes counts every attempt by outcome, leftOut those that do
	// not count, keyed as the JSON keys them.
	outcomes, leftOut map[string]int
	// spec and contract are the digests of the first result that has
	// them; mixed says a later attempt had others.
	spec, contract string
	mixed          bool
}

// NewRun reads r, labelled label (A, B…: Label) and found at path, for
// comparing.
func NewRun(label, path string, r *report.Run) *Run {
	d := &Run{label: label, path: path, run: r, tasks: map[string]*record{}}
	for _, res := range r.Results {
		rec := d.tasks[res.Task]
		if rec == nil {
			rec = &record{outcomes: map[string]int{}, leftOut: map[string]int{}}
			d.tasks[res.Task] = rec
			d.order = append(d.order, res.Task)
		}
		for _, t := range res.Tags {
			if !slices.Contains(rec.tags, t) {
				rec.tags = append(rec.tags, t)
			}
		}
		if p := res.Provenance; p != nil && (p.Spec != "" || p.Contract != "") {
			if rec.spec == "" && rec.contract == "" {
				rec.spec, rec.contract = p.Spec, p.Contract
			} else if p.Spec != rec.spec || p.Contract != rec.contract {
				rec.mixed = true
			}
		}
		rec.outcomes[string(res.Outcome)]++
		// report.Finished is what --resume keeps: the agent was judged or
		// stopped by its own budget, timeout or drift. An error or an
		// interruption says nothing about the agent.
		if !report.Finished(res) {
			rec.leftOut[string(res.Outcome)]++
			continue
		}
		rec.Attempts++
		if res.Outcome.Passed() {
			rec.Passed++
		}
		if rec.first == 0 || res.Attempt < rec.first {
			rec.first, rec.firstPassed = res.Attempt, res.Outcome.Passed()
		}
	}
	return d
}

// FirstPairs counts the compared tasks of c by the outcome of each run's
// first finished attempt: one outcome per task and run, as the exact
// McNemar test needs, whatever the number of attempts. onlyA and onlyB
// count the tasks only one run passed, shared all of them.
func (c *Comparison) FirstPairs() (onlyA, onlyB, shared int) {
	for _, t := range c.Tasks {
		switch {
		case t.A.firstPassed && !t.B.firstPassed:
			onlyA++
		case t.B.firstPassed && !t.A.firstPassed:
			onlyB++
		}
	}
	return onlyA, onlyB, len(c.Tasks)
}

// info is what the JSON says about the report.
func (d *Run) info() ReportInfo {
	s := d.run.Settings
	return ReportInfo{
		Label: d.label, File: d.path, GitSHA: d.run.GitSHA,
		Agent: s.Agent, Model: s.Model, Server: s.Server, Web: s.Web, Repeat: max(s.Repeat, 1),
		Trust: s.Trust, Incomplete: d.run.Incomplete, Regraded: d.run.Regraded != nil,
		Denominator: report.Summarize(d.run).Denominator,
	}
}

// The JSON form. Every difference is B − A, B being the later report of
// the comparison and A the first report given.

// match pairs the tasks of a and b. A shared task is compared
// unless its digests differ (Changed) or a run has no attempt of it that
// counts (LeftOut).
func match(a, b *Run) *Comparison {
	c := &Comparison{
		A: a.label, B: b.label,
		OnlyA: []string{}, OnlyB: []string{}, Changed: []Changed{}, Unverified: []string{}, LeftOut: []LeftOut{},
		Attempts: LeftCounts{A: map[string]int{}, B: map[string]int{}}, Tasks: []Task{},
	}
	for _, id := range a.order {
		ra, rb := a.tasks[id], b.tasks[id]
		if rb == nil {
			c.OnlyA = append(c.OnlyA, id)
			continue
		}
		c.InBoth++
		switch what := digestChange(ra, rb); {
		case what == "unknown":
			c.Unverified = append(c.Unverified, id)
		case what != "":
			c.Changed = append(c.Changed, Changed{Task: id, What: what})
			continue
		}
		if ra.Attempts == 0 || rb.Attempts == 0 {
			c.LeftOut = append(c.LeftOut, LeftOut{Task: id, A: maps.Clone(ra.outcomes), B: maps.Clone(rb.outcomes)})
			continue
		}
		for o, n := range ra.leftOut {
			c.Attempts.A[o] += n
		}
		for o, n := range rb.leftOut {
			c.Attempts.B[o] += n
		}
		tags := slices.Clone(ra.tags)
		for _, t := range rb.tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		c.Tasks = append(c.Tasks, Task{
			Task: id, Template: taskTemplate(tags), Tags: tags,
			A: ra.Tally, B: rb.Tally, Pair: pairOf(ra.Tally, rb.Tally),
		})
		if ra.Attempts > 1 || rb.Attempts > 1 {
			c.Repeats = true
		}
	}
	for _, id := range b.order {
		if a.tasks[id] == nil {
			c.OnlyB = append(c.OnlyB, id)
		}
	}
	return c
}

// digestChange says what differs between two runs' records of a task:
// "" nothing, "unknown" when a run does not record the digests (a report
// written before they existed), else what (see Changed).
func digestChange(a, b *record) string {
	switch {
	case a.mixed || b.mixed:
		return "attempts"
	case a.spec == "" || a.contract == "" || b.spec == "" || b.contract == "":
		return "unknown"
	case a.contract != b.contract:
		return "contract"
	case a.spec != b.spec:
		return "task"
	}
	return ""
}

// taskTemplate is the template a task was made from, "" for none: the NAME
// of its first template:NAME tag. The report model has no field for a
// template; this is the one place that reads it, to change when it gets
// one.
func taskTemplate(tags []string) string {
	for _, t := range tags {
		if name, ok := strings.CutPrefix(t, templateTagPrefix); ok && name != "" {
			return name
		}
	}
	return ""
}

// pairOf classes a task by its two records. Rates are compared as cross
// products, exactly.
func pairOf(a, b Tally) string {
	ra, rb := a.Passed*b.Attempts, b.Passed*a.Attempts
	switch {
	case ra > rb:
		return pairOnlyA
	case rb > ra:
		return pairOnlyB
	case a.Passed == a.Attempts:
		return pairBoth
	case a.Passed == 0:
		return pairNeither
	}
	return pairTied
}

// changedLines names, for the refusal, each changed task of c.
func changedLines(c *Comparison, a, b *Run) []string {
	var out []string
	for _, ch := range c.Changed {
		ra, rb := a.tasks[ch.Task], b.tasks[ch.Task]
		var line string
		switch ch.What {
		case "contract":
			line = fmt.Sprintf("contract %s in %s, %s in %s", report.ShortDigest(ra.contract), a.path, report.ShortDigest(rb.contract), b.path)
		case "task":
			line = fmt.Sprintf("task file %s in %s, %s in %s (same contract)", report.ShortDigest(ra.spec), a.path, report.ShortDigest(rb.spec), b.path)
		default:
			line = "the attempts of one report carry different digests"
		}
		out = append(out, fmt.Sprintf("  %s: %s", ch.Task, line))
	}
	return out
}

// analyze computes every group's statistics.
