package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

// statisticsDoc is docs/statistics.md.
func statisticsDoc(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "statistics.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(doc)
}

// detectableTable is the table of docs/statistics.md that gives the
// smallest detectable difference every report states, by tasks and
// attempts per task.
func detectableTable() string {
	repeats := []int{1, 2, 3, 5, 10}
	var sb strings.Builder
	sb.WriteString("| tasks |")
	for _, k := range repeats {
		fmt.Fprintf(&sb, " k = %d |", k)
	}
	sb.WriteString("\n|---:|")
	for range repeats {
		sb.WriteString("---:|")
	}
	sb.WriteString("\n")
	for _, n := range []int{10, 20, 30, 50, 100, 200, 300, 500, 1000} {
		fmt.Fprintf(&sb, "| %d |", n)
		for _, k := range repeats {
			d := detectable(n, k)
			if d.Diff == 0 {
				sb.WriteString(" — |")
				continue
			}
			fmt.Fprintf(&sb, " %.1f |", 100*d.Diff)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// The docs give the table of the number every report states, and with
// one attempt per task it is the p_B = 0.5 column of the first planning
// table (correlation 0.5), which internal/stats checks against its own
// computation.
func TestDocsDetectableTable(t *testing.T) {
	t.Parallel()
	doc := statisticsDoc(t)
	if table := detectableTable(); !strings.Contains(doc, table) {
		t.Errorf("docs/statistics.md lacks the table of the reports' detectable difference:\n%s", table)
	}
	_, first, ok := strings.Cut(doc, "| tasks | p_B = 0.1 | p_B = 0.3 | p_B = 0.5 | p_B = 0.7 |\n")
	if !ok {
		t.Fatal("docs/statistics.md has no planning table")
	}
	rows := 0
	for _, line := range strings.Split(first, "\n")[1:] {
		m := regexp.MustCompile(`^\| (\d+) \| [^|]+ \| [^|]+ \| ([0-9.]+)\*? \|`).FindStringSubmatch(line)
		if m == nil {
			break
		}
		var n int
		fmt.Sscan(m[1], &n)
		if got := fmt.Sprintf("%.1f", 100*detectable(n, 1).Diff); got != m[2] {
			t.Errorf("%d tasks: the reports say %s points, the planning table %s", n, got, m[2])
		}
		rows++
	}
	if rows == 0 {
		t.Error("no row of the planning table was read")
	}
}

func TestDetectableWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tasks, repeats int
		want           string
	}{
		{30, 1, "26.4 points: the smallest improvement over a 50% pass rate that a paired comparison of two runs like this one " +
			"(30 tasks, one attempt each) detects, with 80% power at 5% two-sided significance, runs correlated 0.5 on a task"},
		{30, 3, "21.3 points: the smallest improvement over a 50% pass rate that a paired comparison of two runs like this one " +
			"(30 tasks, 3 attempts each) detects, with 80% power at 5% two-sided significance, runs correlated 0.5 on a task, attempts 0.5"},
		{1, 1, "none: no improvement over a 50% pass rate is detectable by a paired comparison of two runs like this one " +
			"(1 task, one attempt each), with 80% power at 5% two-sided significance, runs correlated 0.5 on a task"},
	}
	for _, tc := range tests {
		d := detectable(tc.tasks, tc.repeats)
		if got := d.String() + ": " + d.Sentence(); got != tc.want {
			t.Errorf("%d tasks × %d:\n got %s\nwant %s", tc.tasks, tc.repeats, got, tc.want)
		}
	}
	if d := detectable(0, 0); d != nil {
		t.Errorf("a run with no judged task states %+v", d)
	}
}

// unrestrictedRepeatRun is a run of two tasks, two attempts each, by an
// agent that held raw CDP: three attempts ended on a state where the
// contract held (tainted), one did not.
func unrestrictedRepeatRun() *Run {
	r := &Run{SchemaVersion: SchemaVersion, GitSHA: "0123456789ab",
		Settings: Settings{Suite: "demo", Agent: "exec", Server: "builtin", Web: "replay", Repeat: 2, AllTasks: true,
			Tasks: []string{"a", "b"}, Trust: TrustUnrestricted}}
	for _, task := range []string{"a", "b"} {
		for attempt := 1; attempt <= 2; attempt++ {
			res := TaskResult{Task: task, Attempt: attempt, Trust: TrustUnrestricted,
				Evidence: []contract.Evidence{{Path: "postconditions[0]", Kind: contract.KindURL, Passed: true}}}
			if task == "b" && attempt == 2 {
				res.Evidence[0].Passed = false
				res.SetVerdict(contract.Verdict{Evidence: res.Evidence, FailedPath: "postconditions[0]", FailedKind: contract.KindURL})
			}
			res.Decide()
			r.Results = append(r.Results, res)
		}
	}
	return r
}

// A labelled run's one number is the same line in the verdicts and every
// view, in a place of its own (the board's is checked in package compare); it has no pass@k and no
// detectable difference, and its gate fails.
func TestHeldLineInEveryView(t *testing.T) {
	t.Parallel()
	const want = "contract held 3 / 4 (unrestricted: the agent could write the evidence)"
	r := unrestrictedRepeatRun()
	for _, res := range r.Results {
		if res.Outcome.Passed() {
			t.Fatalf("%s #%d passed", res.Task, res.Attempt)
		}
	}
	render := map[string]func(*bytes.Buffer) error{
		"markdown": func(b *bytes.Buffer) error { return WriteMarkdown(b, r) },
		"html":     func(b *bytes.Buffer) error { return WriteHTML(b, r) },
		"junit":    func(b *bytes.Buffer) error { return writeJUnit(b, r) },
		"verdicts": func(b *bytes.Buffer) error {
			v, err := WriteVerdicts(b, r, VerdictOptions{Baseline: &Baseline{ExpectedPassCount: 2, Tasks: []string{"a", "b"}}})
			if !v.GateFailed {
				t.Error("the gate passed a labelled run")
			}
			return err
		},
	}
	places := map[string]*regexp.Regexp{
		"markdown": regexp.MustCompile(`(?m)^## Unrestricted agent\n\n\*\*` + regexp.QuoteMeta(want) + `\*\*\n`),
		"html":     regexp.MustCompile(`<section class="unrestricted" id="unrestricted">\n<h2>Unrestricted agent</h2>\n<p class="held">` + regexp.QuoteMeta(want) + `</p>`),
		"junit":    regexp.MustCompile(`<property name="contract_held" value="` + regexp.QuoteMeta(want) + `">`),
		"verdicts": regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want) + `\n(.|\n)*^gate: FAILED`),
	}
	for name, f := range render {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := b.String()
		if n := strings.Count(out, want); n != 1 {
			t.Errorf("%s says %q %d times, want once:\n%s", name, want, n, out)
		}
		if !places[name].MatchString(out) {
			t.Errorf("%s does not give the line its own place:\n%s", name, out)
		}
		for _, never := range []string{"pass@", "pass^2 ", "detectable difference"} {
			if strings.Contains(out, never) {
				t.Errorf("%s shows %q for a labelled run", name, never)
			}
		}
	}

	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary map[string]json.RawMessage `json:"summary"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var held Held
	if err := json.Unmarshal(doc.Summary["contract_held"], &held); err != nil || held != (Held{Trust: TrustUnrestricted, Held: 3, Judged: 4}) {
		t.Errorf("JSON summary.contract_held = %s (%v)", doc.Summary["contract_held"], err)
	}
	if string(doc.Summary["passed"]) != "0" || doc.Summary["pass_k"] != nil || doc.Summary["detectable"] != nil {
		t.Errorf("JSON summary of a labelled run: passed %s, pass_k %s, detectable %s; want 0 and neither",
			doc.Summary["passed"], doc.Summary["pass_k"], doc.Summary["detectable"])
	}
}

// Tasks judged a different number of times are each estimated from their
// own attempts, at the fewest any task had; an interrupted attempt is not
// judged and counts for nothing.
func TestPassKUnequalAttempts(t *testing.T) {
	t.Parallel()
	res := func(task string, attempt int, o Outcome) TaskResult {
		return TaskResult{Task: task, Attempt: attempt, Outcome: o}
	}
	r := &Run{Results: []TaskResult{
		res("a", 1, OutcomePassed), res("a", 2, OutcomeFailed), res("a", 3, OutcomePassed), res("a", 4, OutcomeFailed),
		res("b", 1, OutcomeFailed), res("b", 2, OutcomePassed), res("b", 3, OutcomeInterrupted),
	}}
	s := Summarize(r)
	pk := s.PassK
	if pk == nil || pk.K != 2 || len(pk.ByK) != 2 || len(pk.Tasks) != 2 {
		t.Fatalf("PassK = %+v, want k = 2 over two tasks", pk)
	}
	// a: n = 4, c = 2: pass@2 = 1 − C(2,2)/C(4,2) = 5/6, pass^2 = 1/6.
	// b: n = 2, c = 1: pass@2 = 1, pass^2 = 0.
	want := []TaskPassK{{"a", 2, 4, 5.0 / 6, 1.0 / 6, true}, {"b", 1, 2, 1, 0, true}}
	for i, w := range want {
		g := pk.Tasks[i]
		if g.Task != w.Task || g.Passed != w.Passed || g.Attempts != w.Attempts || !near(g.PassAtK, w.PassAtK) || !near(g.PassHatK, w.PassHatK) || g.Flipped != w.Flipped {
			t.Errorf("task %d: %+v, want %+v", i, g, w)
		}
	}
	if at := pk.At(); !near(at.PassAtK, (5.0/6+1)/2) || !near(at.PassHatK, (1.0/6)/2) {
		t.Errorf("suite at k = 2: %+v", at)
	}
	if v := pk.ByK[0]; !near(v.PassAtK, (0.5+0.5)/2) || v.PassAtK != v.PassHatK {
		t.Errorf("suite at k = 1: %+v, want pass@1 = pass^1 = the mean task rate 0.5", v)
	}
	if d := s.Detectable; d == nil || d.Tasks != 2 || d.Repeats != 2 {
		t.Errorf("Detectable = %+v, want 2 tasks at 2 attempts", d)
	}

	// One attempt at some task: no pass@k at all.
	r.Results = append(r.Results, res("c", 1, OutcomePassed))
	if pk := Summarize(r).PassK; pk != nil {
		t.Errorf("a task judged once gives PassK %+v, want none", pk)
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }
