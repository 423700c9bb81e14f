package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"contractbench/internal/report"
	"contractbench/internal/stats"
)

var diffCommand = command{
	name:    "diff",
	summary: "compare stored reports over the tasks they share, with paired tests",
	run:     runDiff,
}

const diffHelp = `
Compares stored JSON reports over the tasks they share. With two reports,
A (the first, the baseline) and B: the tasks by outcome pair (both passed,
only A, only B, neither), each run's score with its 95% Wilson interval,
the difference B − A with Newcombe's 95% paired interval, the exact
McNemar p-value, and whether the difference is significant at 5%. With
repeated attempts (run --repeat k) the difference is the mean over tasks
of the difference in pass rate, with a paired bootstrap interval and
p-value over tasks (seeded by --seed). The same numbers follow for each
task tag, and for each template of tasks tagged template:NAME; instances
of one template are not independent, so the difference then also gets an
interval clustered by template, which decides significance. With three
or more reports each is compared with the first, and a difference is
significant only at 5% divided by the number of comparisons (Bonferroni).

An attempt counts when it finished (passed, failed, replay_drift,
budget_exceeded, timeout or tainted; only passed is a pass). An error
(the harness, the browser or the provider broke) or an interrupted
attempt says nothing about the agent and is left out; a task with no
attempt that counts in one of the runs is left out of the comparison and
listed.

A shared task whose task-file or contract digest differs between two
reports asks a different question there: diff refuses such reports and
lists the tasks, unless --allow-changed, which leaves those tasks out and
lists them. Tasks only one report holds are counted and listed.

Prints a table, or JSON with --json; -o writes either to FILE instead, and
only once every report was read and compared. docs/statistics.md gives
every formula and a worked example.

Exit codes: 0 compared, whatever the difference; 2 bad usage, a report
that cannot be read, or changed tasks without --allow-changed.
`

// diffSchemaVersion is the version of diff's JSON form. It changes when a
// field is removed or changes meaning; adding a field does not change it.
const diffSchemaVersion = 1

// diffListMax bounds the task ids the table lists in one place; the JSON
// lists them all.
const diffListMax = 10

// diffFewTasks is the number of tasks below which the text warns that the
// paired bootstrap overstates its confidence: its percentile interval for
// a mean is that of a normal with the plug-in variance, narrower than the
// t interval by √((N−1)/N) and by t_(N−1)/z, which at 20 tasks together
// bring 95% down to about 93%.
const diffFewTasks = 20

// templateTagPrefix starts the tag that names the template a task was
// made from.
const templateTagPrefix = "template:"

// The tests that can decide whether a difference is significant.
const (
	diffTestNone      = "none" // no task to compare
	diffTestMcNemar   = "mcnemar_exact"
	diffTestBootstrap = "paired_bootstrap"
	diffTestClustered = "clustered_t"
)

// The outcome pairs of a task. With repeated attempts only_a means A's
// pass rate is the higher one, and tied that the rates are equal and
// strictly between 0 and 1.
const (
	diffPairBoth    = "both"
	diffPairOnlyA   = "only_a"
	diffPairOnlyB   = "only_b"
	diffPairNeither = "neither"
	diffPairTied    = "tied"
)

func runDiff(st *State, args []string) error {
	f, paths, err := parseDiffArgs(st, args)
	if err != nil {
		return err
	}
	var runs []*diffRun
	for i, path := range paths {
		r, err := readRunReport(path, false)
		if err != nil {
			return err
		}
		runs = append(runs, newDiffRun(diffLabel(i), path, r))
	}

	opts := diffOptions{seed: f.seed, resamples: f.resamples, alpha: 0.05 / float64(len(runs)-1)}
	doc := diffDoc{SchemaVersion: diffSchemaVersion, Level: 0.95, Alpha: opts.alpha, Seed: opts.seed, Resamples: opts.resamples}
	for _, r := range runs {
		doc.Reports = append(doc.Reports, r.info())
	}
	var refused []string
	for _, r := range runs[1:] {
		c := matchDiffRuns(runs[0], r)
		if len(c.Changed) > 0 && !f.allowChanged {
			refused = append(refused, diffChangedLines(c, runs[0], r)...)
		}
		doc.Comparisons = append(doc.Comparisons, c)
	}
	if len(refused) > 0 {
		return usagef("diff: the task or contract of a shared task differs between the reports, so its outcomes answer different questions:\n%s\n"+
			"(--allow-changed leaves these tasks out of the comparison)", strings.Join(refused, "\n"))
	}
	for _, c := range doc.Comparisons {
		if err := c.analyze(opts); err != nil {
			return err
		}
	}

	var b bytes.Buffer
	if f.json {
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(doc); err != nil {
			return fmt.Errorf("diff: json: %w", err)
		}
	} else {
		writeDiffText(&b, &doc, runs)
	}
	if f.out == "" {
		_, err := st.Stdout.Write(b.Bytes())
		return err
	}
	// The path is the caller's: whatever keeps it from being written is a
	// usage error, named.
	path, err := report.WriteFile(filepath.Dir(f.out), filepath.Base(f.out), b.Bytes())
	if err != nil {
		return usagef("diff: -o %s: %v", f.out, err)
	}
	fmt.Fprintln(st.Stdout, path)
	return nil
}

// diffFlags are diff's flags.
type diffFlags struct {
	json, allowChanged bool
	out                string
	seed               uint64
	resamples          int
}

// parseDiffArgs parses diff's flags and returns them with the reports'
// paths, at least two.
func parseDiffArgs(st *State, args []string) (diffFlags, []string, error) {
	var f diffFlags
	fs := newFlags(st, "contractbench diff [flags] A.json B.json [C.json...]", diffHelp)
	fs.BoolVar(&f.json, "json", false, fmt.Sprintf("write JSON (schema_version %d) instead of the table", diffSchemaVersion))
	fs.StringVar(&f.out, "o", "", "write the output to `FILE` instead of stdout, through a temporary file renamed into place; its name may hold letters, digits, '.', '-' and '_'")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the paired bootstrap, used with repeated attempts")
	fs.IntVar(&f.resamples, "resamples", stats.DefaultResamples, "resamples of the paired bootstrap")
	fs.BoolVar(&f.allowChanged, "allow-changed", false, "leave out and list the tasks whose task or contract digest differs, instead of refusing")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return f, nil, err
	}
	switch base := filepath.Base(f.out); {
	case len(paths) < 2:
		return f, nil, usagef("diff: want at least two reports, got %d (run contractbench diff --help)", len(paths))
	case f.resamples < 1:
		return f, nil, usagef("diff: --resamples %d: want at least 1", f.resamples)
	case f.out != "" && (base == "." || base == ".." || base == string(filepath.Separator)):
		return f, nil, usagef("diff: -o %q: not a file name", f.out)
	}
	return f, paths, nil
}

// diffOptions are the settings every comparison's statistics share.
type diffOptions struct {
	seed      uint64
	resamples int
	// alpha is the significance level of one comparison: 5%, divided by
	// the number of comparisons (Bonferroni).
	alpha float64
}

// diffLabel names the i-th report: A, B, C…
func diffLabel(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("R%d", i+1)
}

// diffRun is one report as diff reads it: per task, the attempts that
// count and the digests of what they were produced from.
type diffRun struct {
	label, path string
	run         *report.Run
	tasks       map[string]*diffRecord
	order       []string // task ids in the order the report first names them
}

// diffRecord is one task in one run.
type diffRecord struct {
	tags []string
	diffAttempts
	// outcomes counts every attempt by outcome, leftOut those that do
	// not count.
	outcomes, leftOut map[report.Outcome]int
	// spec and contract are the digests of the first result that has
	// them; mixed says a later attempt had others.
	spec, contract string
	mixed          bool
}

func newDiffRun(label, path string, r *report.Run) *diffRun {
	d := &diffRun{label: label, path: path, run: r, tasks: map[string]*diffRecord{}}
	for _, res := range r.Results {
		rec := d.tasks[res.Task]
		if rec == nil {
			rec = &diffRecord{outcomes: map[report.Outcome]int{}, leftOut: map[report.Outcome]int{}}
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
		rec.outcomes[res.Outcome]++
		// report.Finished is what --resume keeps: the agent was judged or
		// stopped by its own budget, timeout or drift. An error or an
		// interruption says nothing about the agent.
		if !report.Finished(res) {
			rec.leftOut[res.Outcome]++
			continue
		}
		rec.Attempts++
		if res.Outcome.Passed() {
			rec.Passed++
		}
	}
	return d
}

// info is what the JSON says about the report.
func (d *diffRun) info() diffReport {
	s := d.run.Settings
	return diffReport{
		Label: d.label, File: d.path, GitSHA: d.run.GitSHA,
		Agent: s.Agent, Model: s.Model, Server: s.Server, Web: s.Web, Repeat: max(s.Repeat, 1),
		Trust: s.Trust, Incomplete: d.run.Incomplete, Regraded: d.run.Regraded != nil,
	}
}

// The JSON form. Every difference is B − A, B being the later report of
// the comparison and A the first report given.
type (
	diffDoc struct {
		SchemaVersion int `json:"schema_version"`
		// Level is the confidence level of every interval; Alpha the
		// significance level of each comparison.
		Level       float64           `json:"level"`
		Alpha       float64           `json:"alpha"`
		Seed        uint64            `json:"seed"`
		Resamples   int               `json:"resamples"`
		Reports     []diffReport      `json:"reports"`
		Comparisons []*diffComparison `json:"comparisons"`
	}
	diffReport struct {
		Label      string `json:"label"`
		File       string `json:"file"`
		GitSHA     string `json:"git_sha"`
		Agent      string `json:"agent"`
		Model      string `json:"model"`
		Server     string `json:"server"`
		Web        string `json:"web"`
		Repeat     int    `json:"repeat"`
		Trust      string `json:"trust,omitempty"`
		Incomplete bool   `json:"incomplete"`
		Regraded   bool   `json:"regraded"`
	}
	diffComparison struct {
		A string `json:"a"`
		B string `json:"b"`
		// Repeats says some task has more than one attempt that counts;
		// the difference is then the bootstrap's.
		Repeats bool `json:"repeats"`
		// InBoth counts the tasks both reports hold; Tasks are those
		// compared, the rest are Changed or LeftOut.
		InBoth     int            `json:"in_both"`
		OnlyA      []string       `json:"only_a"`
		OnlyB      []string       `json:"only_b"`
		Changed    []diffChanged  `json:"changed"`
		Unverified []string       `json:"unverified"`
		LeftOut    []diffLeftOut  `json:"left_out"`
		Attempts   diffLeftCounts `json:"attempts_left_out"`
		Tasks      []diffTask     `json:"tasks"`
		Overall    diffGroup      `json:"overall"`
		ByTag      []diffGroup    `json:"by_tag"`
		ByTemplate []diffGroup    `json:"by_template"`
	}
	diffChanged struct {
		Task string `json:"task"`
		// What differs: "contract", "task" (the spec, contract equal) or
		// "attempts" (a report's attempts disagree among themselves).
		What string `json:"what"`
	}
	diffLeftOut struct {
		Task string         `json:"task"`
		A    map[string]int `json:"a"` // outcomes of the run's attempts
		B    map[string]int `json:"b"`
	}
	diffLeftCounts struct {
		A map[string]int `json:"a"`
		B map[string]int `json:"b"`
	}
	diffTask struct {
		Task     string       `json:"task"`
		Template string       `json:"template,omitempty"`
		Tags     []string     `json:"tags,omitempty"`
		A        diffAttempts `json:"a"`
		B        diffAttempts `json:"b"`
		Pair     string       `json:"pair"`
	}
	diffAttempts struct {
		Passed   int `json:"passed"`
		Attempts int `json:"attempts"`
	}
	diffGroup struct {
		Name  string    `json:"name,omitempty"`
		Tasks int       `json:"tasks"`
		Pairs diffPairs `json:"pairs"`
		A     diffScore `json:"a"`
		B     diffScore `json:"b"`
		// Diff is B − A: with one attempt per task the difference of the
		// scores, with repeats the mean over tasks of the difference of
		// pass rates.
		Diff        float64        `json:"diff"`
		McNemarP    float64        `json:"mcnemar_exact_p"`
		Newcombe    *diffInterval  `json:"newcombe95,omitempty"`
		Bootstrap   *diffBootstrap `json:"bootstrap,omitempty"`
		Clustered   *diffClustered `json:"clustered,omitempty"`
		Test        string         `json:"test"`
		P           float64        `json:"p"`
		Low         float64        `json:"low"`
		High        float64        `json:"high"`
		Significant bool           `json:"significant"`
	}
	diffPairs struct {
		Both    int `json:"both"`
		OnlyA   int `json:"only_a"`
		OnlyB   int `json:"only_b"`
		Neither int `json:"neither"`
		Tied    int `json:"tied"`
	}
	diffScore struct {
		diffAttempts
		Score      float64 `json:"score"`
		WilsonLow  float64 `json:"wilson95_low"`
		WilsonHigh float64 `json:"wilson95_high"`
	}
	diffInterval struct {
		Low  float64 `json:"low"`
		High float64 `json:"high"`
	}
	diffBootstrap struct {
		Low       float64 `json:"low"`
		High      float64 `json:"high"`
		P         float64 `json:"p"`
		Resamples int     `json:"resamples"`
		Seed      uint64  `json:"seed"`
	}
	diffClustered struct {
		Clusters int     `json:"clusters"`
		SE       float64 `json:"se"`
		NaiveSE  float64 `json:"naive_se"`
		DF       int     `json:"df"`
		Low      float64 `json:"low"`
		High     float64 `json:"high"`
		P        float64 `json:"p"`
	}
)

// matchDiffRuns pairs the tasks of a and b. A shared task is compared
// unless its digests differ (Changed) or a run has no attempt of it that
// counts (LeftOut).
func matchDiffRuns(a, b *diffRun) *diffComparison {
	c := &diffComparison{
		A: a.label, B: b.label,
		OnlyA: []string{}, OnlyB: []string{}, Changed: []diffChanged{}, Unverified: []string{}, LeftOut: []diffLeftOut{},
		Attempts: diffLeftCounts{A: map[string]int{}, B: map[string]int{}}, Tasks: []diffTask{},
	}
	for _, id := range a.order {
		ra, rb := a.tasks[id], b.tasks[id]
		if rb == nil {
			c.OnlyA = append(c.OnlyA, id)
			continue
		}
		c.InBoth++
		switch what := diffDigestChange(ra, rb); {
		case what == "unknown":
			c.Unverified = append(c.Unverified, id)
		case what != "":
			c.Changed = append(c.Changed, diffChanged{Task: id, What: what})
			continue
		}
		if ra.Attempts == 0 || rb.Attempts == 0 {
			c.LeftOut = append(c.LeftOut, diffLeftOut{Task: id, A: diffOutcomes(ra), B: diffOutcomes(rb)})
			continue
		}
		for o, n := range ra.leftOut {
			c.Attempts.A[string(o)] += n
		}
		for o, n := range rb.leftOut {
			c.Attempts.B[string(o)] += n
		}
		tags := slices.Clone(ra.tags)
		for _, t := range rb.tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		c.Tasks = append(c.Tasks, diffTask{
			Task: id, Template: taskTemplate(tags), Tags: tags,
			A: ra.diffAttempts, B: rb.diffAttempts, Pair: diffPairOf(ra.diffAttempts, rb.diffAttempts),
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

// diffDigestChange says what differs between two runs' records of a task:
// "" nothing, "unknown" when a run does not record the digests (a report
// written before they existed), else what (see diffChanged).
func diffDigestChange(a, b *diffRecord) string {
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

// diffOutcomes counts a record's attempts by outcome.
func diffOutcomes(r *diffRecord) map[string]int {
	m := map[string]int{}
	for o, n := range r.outcomes {
		m[string(o)] = n
	}
	return m
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

// diffPairOf classes a task by its two records. Rates are compared as cross
// products, exactly.
func diffPairOf(a, b diffAttempts) string {
	ra, rb := a.Passed*b.Attempts, b.Passed*a.Attempts
	switch {
	case ra > rb:
		return diffPairOnlyA
	case rb > ra:
		return diffPairOnlyB
	case a.Passed == a.Attempts:
		return diffPairBoth
	case a.Passed == 0:
		return diffPairNeither
	}
	return diffPairTied
}

// diffChangedLines names, for the refusal, each changed task of c.
func diffChangedLines(c *diffComparison, a, b *diffRun) []string {
	var out []string
	for _, ch := range c.Changed {
		ra, rb := a.tasks[ch.Task], b.tasks[ch.Task]
		var line string
		switch ch.What {
		case "contract":
			line = fmt.Sprintf("contract %s in %s, %s in %s", diffShort(ra.contract), a.path, diffShort(rb.contract), b.path)
		case "task":
			line = fmt.Sprintf("task file %s in %s, %s in %s (same contract)", diffShort(ra.spec), a.path, diffShort(rb.spec), b.path)
		default:
			line = "the attempts of one report carry different digests"
		}
		out = append(out, fmt.Sprintf("  %s: %s", ch.Task, line))
	}
	return out
}

// diffShort is the first 12 hex digits of a digest, as the reports print it.
func diffShort(digest string) string {
	d := strings.TrimPrefix(digest, "sha256:")
	if len(d) > 12 {
		d = d[:12]
	}
	return d
}

// analyze computes every group's statistics.
func (c *diffComparison) analyze(o diffOptions) error {
	var err error
	if c.Overall, err = analyzeDiffGroup("", c.Tasks, c.Repeats, o); err != nil {
		return err
	}
	tags := map[string][]diffTask{}
	templates := map[string][]diffTask{}
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
	c.ByTag, c.ByTemplate = []diffGroup{}, []diffGroup{}
	for _, name := range slices.Sorted(maps.Keys(tags)) {
		g, err := analyzeDiffGroup(name, tags[name], c.Repeats, o)
		if err != nil {
			return err
		}
		c.ByTag = append(c.ByTag, g)
	}
	for _, name := range slices.Sorted(maps.Keys(templates)) {
		g, err := analyzeDiffGroup(name, templates[name], c.Repeats, o)
		if err != nil {
			return err
		}
		c.ByTemplate = append(c.ByTemplate, g)
	}
	return nil
}

// analyzeDiffGroup computes the statistics of one group of compared
// tasks. The test that decides is the exact McNemar test with one attempt
// per task, the paired bootstrap with repeats, and the cluster-robust t
// test when tasks of one template sit beside others, since the other two
// take the tasks for independent.
func analyzeDiffGroup(name string, tasks []diffTask, repeats bool, o diffOptions) (diffGroup, error) {
	g := tallyDiffGroup(name, tasks)
	if len(tasks) == 0 {
		g.Test, g.P, g.Low, g.High = diffTestNone, 1, -1, 1
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
		r, err := stats.PairedBootstrap(boot, o.resamples, 0.95, o.seed)
		if err != nil {
			return g, fmt.Errorf("diff: %s: %w", diffGroupName(name), err)
		}
		g.Diff = r.Diff
		g.Bootstrap = &diffBootstrap{Low: r.Lo, High: r.Hi, P: r.P, Resamples: r.Resamples, Seed: o.seed}
		g.Test, g.P, g.Low, g.High = diffTestBootstrap, r.P, r.Lo, r.Hi
	} else {
		t := stats.PairedCounts{Both: g.Pairs.Both, OnlyA: g.Pairs.OnlyB, OnlyB: g.Pairs.OnlyA, None: g.Pairs.Neither}
		d, lo, hi := stats.PairedDiff(t, stats.Z95)
		g.Diff = d
		g.Newcombe = &diffInterval{Low: lo, High: hi}
		g.Test, g.P, g.Low, g.High = diffTestMcNemar, g.McNemarP, lo, hi
	}
	if err := clusterDiffGroup(&g, tasks); err != nil {
		return g, err
	}
	g.Significant = g.P <= o.alpha
	return g, nil
}

// tallyDiffGroup counts a group's pairs and scores.
func tallyDiffGroup(name string, tasks []diffTask) diffGroup {
	g := diffGroup{Name: name, Tasks: len(tasks)}
	for _, t := range tasks {
		switch t.Pair {
		case diffPairBoth:
			g.Pairs.Both++
		case diffPairOnlyA:
			g.Pairs.OnlyA++
		case diffPairOnlyB:
			g.Pairs.OnlyB++
		case diffPairNeither:
			g.Pairs.Neither++
		default:
			g.Pairs.Tied++
		}
		g.A.Passed += t.A.Passed
		g.A.Attempts += t.A.Attempts
		g.B.Passed += t.B.Passed
		g.B.Attempts += t.B.Attempts
	}
	for _, s := range []*diffScore{&g.A, &g.B} {
		s.Score = diffRatio(s.Passed, s.Attempts)
		s.WilsonLow, s.WilsonHigh = stats.Wilson95(s.Passed, s.Attempts)
	}
	return g
}

// clusterDiffGroup adds the interval clustered by template, which then
// decides, when some template has two tasks in the group and the group
// spans two clusters or more. Within one template's tasks the question is
// about that template, and the unclustered tests answer it.
func clusterDiffGroup(g *diffGroup, tasks []diffTask) error {
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
		return fmt.Errorf("diff: %s: %w", diffGroupName(g.Name), err)
	}
	// A difference of rates lies in [−1, 1]; the t interval does not
	// know that, and cutting it there loses nothing.
	lo, hi, p := math.Max(-1, r.Lo), math.Min(1, r.Hi), diffClusteredP(r)
	g.Clustered = &diffClustered{Clusters: r.Clusters, SE: r.SE, NaiveSE: r.NaiveSE, DF: r.DF, Low: lo, High: hi, P: p}
	g.Test, g.P, g.Low, g.High = diffTestClustered, p, lo, hi
	return nil
}

// diffClusteredP is the two-sided p-value of the cluster-robust t
// statistic, mean/SE with G−1 degrees of freedom: at most α exactly when
// the interval at 1 − α leaves 0 out.
func diffClusteredP(r stats.ClusteredResult) float64 {
	if r.SE == 0 {
		if r.Mean == 0 {
			return 1
		}
		return 0
	}
	return math.Min(1, 2*stats.TCDF(-math.Abs(r.Mean)/r.SE, float64(r.DF)))
}

func diffRatio(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func diffGroupName(name string) string {
	if name == "" {
		return "all tasks"
	}
	return name
}
