package compare

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"contractbench/internal/report"
)

// listMax bounds the task ids the table lists in one place; the JSON
// lists them all.
const listMax = 10

// fewTasks is the number of tasks below which the text warns that the
// paired bootstrap overstates its confidence: its percentile interval for
// a mean is that of a normal with the plug-in variance, narrower than the
// t interval by √((N−1)/N) and by t_(N−1)/z, which at 20 tasks together
// bring 95% down to about 93%.
const fewTasks = 20

// WriteText writes the table form of doc. Writes to a bytes.Buffer
// do not fail.
func WriteText(w *bytes.Buffer, doc *Doc, runs []*Run) {
	width := 0
	for _, r := range runs {
		width = max(width, utf8.RuneCountInString(r.path))
	}
	for _, r := range runs {
		fmt.Fprintf(w, "%s  %-*s  %s\n", r.label, width, r.path, runLine(r.run))
		for _, n := range runNotes(r.run) {
			fmt.Fprintf(w, "   %s\n", n)
		}
	}
	if len(doc.Comparisons) > 1 {
		fmt.Fprintf(w, "\nEach report is compared with A, the first. With %d comparisons a difference is\n"+
			"significant at 5%% overall only with p ≤ %s (Bonferroni).\n", len(doc.Comparisons), PValue(doc.Alpha))
	}
	for _, c := range doc.Comparisons {
		if len(doc.Comparisons) > 1 {
			fmt.Fprintf(w, "\n== %s − %s ==\n", c.B, c.A)
		}
		writeComparison(w, doc, c)
	}
}

// runLine says in one line what produced a run.
func runLine(r *report.Run) string {
	s := r.Settings
	line := fmt.Sprintf("git %s, %s, server %s, web %s", orDash(report.ShortDigest(r.GitSHA)), report.AgentLabel(s), orDash(s.Server), orDash(s.Web))
	if s.Repeat > 1 {
		line += fmt.Sprintf(", %d attempts per task", s.Repeat)
	}
	return line
}

// runNotes are what a reader must know about a run before its numbers.
func runNotes(r *report.Run) []string {
	out := []string{"denominator: " + report.Summarize(r).Denominator.String() + "; diff counts passed and failed, and leaves out harness errors, interrupted and not run"}
	if r.Incomplete {
		out = append(out, "incomplete: the run stopped before every task ran")
	}
	if r.Settings.Trust != "" {
		out = append(out, "unrestricted agent: no result of it counts as passed")
	}
	if g := r.Regraded; g != nil {
		out = append(out, fmt.Sprintf("regraded from %s; it keeps that run's digests", g.From))
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func writeComparison(w *bytes.Buffer, doc *Doc, c *Comparison) {
	writeTasks(w, c)
	g := c.Overall
	if g.Tasks == 0 {
		fmt.Fprintf(w, "\nNo task to compare.\n")
		return
	}
	writePairs(w, c)
	writeOverall(w, doc, c)
	if len(c.ByTag) > 0 {
		fmt.Fprintf(w, "\nBy tag (a task counts under each of its tags; p not adjusted for the number of tags)\n")
		writeGroups(w, c.ByTag, "tag", c, doc.Alpha)
	}
	if len(c.ByTemplate) > 0 {
		fmt.Fprintf(w, "\nBy template (tasks tagged template:NAME)\n")
		writeGroups(w, c.ByTemplate, "template", c, doc.Alpha)
	}
	if len(c.ByTag)+len(c.ByTemplate) > 0 {
		fmt.Fprintf(w, "  test: M exact McNemar with Newcombe's interval, B paired bootstrap, C clustered by template\n")
	}
}

// writeTasks says which tasks were compared and lists the others.
func writeTasks(w *bytes.Buffer, c *Comparison) {
	a, b := c.A, c.B
	fmt.Fprintf(w, "\nTasks: %d in both reports, %d compared", c.InBoth, len(c.Tasks))
	if n := len(c.Changed); n > 0 {
		fmt.Fprintf(w, ", %d changed", n)
	}
	if n := len(c.LeftOut); n > 0 {
		fmt.Fprintf(w, ", %d left out", n)
	}
	fmt.Fprintf(w, "; %d only in %s, %d only in %s\n", len(c.OnlyA), a, len(c.OnlyB), b)
	if len(c.OnlyA) > 0 {
		fmt.Fprintf(w, "  only in %s: %s\n", a, list(c.OnlyA))
	}
	if len(c.OnlyB) > 0 {
		fmt.Fprintf(w, "  only in %s: %s\n", b, list(c.OnlyB))
	}
	if len(c.Changed) > 0 {
		ids := make([]string, len(c.Changed))
		for i, ch := range c.Changed {
			ids[i] = ch.Task + " (" + ch.What + ")"
		}
		fmt.Fprintf(w, "  changed (digests differ), left out: %s\n", list(ids))
	}
	if len(c.LeftOut) > 0 {
		ids := make([]string, len(c.LeftOut))
		for i, l := range c.LeftOut {
			ids[i] = fmt.Sprintf("%s (%s %s; %s %s)", l.Task, a, counts(l.A), b, counts(l.B))
		}
		fmt.Fprintf(w, "  left out, no attempt that counts in a run: %s\n", list(ids))
	}
	if len(c.Attempts.A)+len(c.Attempts.B) > 0 {
		fmt.Fprintf(w, "  attempts left out of the compared tasks: %s %s; %s %s\n", a, counts(c.Attempts.A), b, counts(c.Attempts.B))
	}
	if len(c.Unverified) > 0 {
		fmt.Fprintf(w, "  not checked for changes (a report has no digests): %s\n", list(c.Unverified))
	}
}

// writePairs writes the table of outcome pairs, naming the tasks only
// one run passed (with repeats: on which one run did better).
func writePairs(w *bytes.Buffer, c *Comparison) {
	a, b, g := c.A, c.B, c.Overall
	list := func(pair string) string {
		var ids []string
		for _, t := range c.Tasks {
			switch {
			case t.Pair != pair:
			case c.Repeats:
				ids = append(ids, fmt.Sprintf("%s (%d/%d, %d/%d)", t.Task, t.A.Passed, t.A.Attempts, t.B.Passed, t.B.Attempts))
			default:
				ids = append(ids, t.Task)
			}
		}
		if len(ids) == 0 {
			return ""
		}
		return "   " + list(ids)
	}
	if c.Repeats {
		fmt.Fprintf(w, "\nPer-task pass rates (%d tasks; attempts that count: %s in %s, %s in %s)\n",
			g.Tasks, attemptRange(c.Tasks, true), a, attemptRange(c.Tasks, false), b)
		fmt.Fprintf(w, "  %-25s %4d\n", "both passed every attempt", g.Pairs.Both)
		fmt.Fprintf(w, "  %-25s %4d%s\n", a+" higher", g.Pairs.OnlyA, list(pairOnlyA))
		fmt.Fprintf(w, "  %-25s %4d%s\n", b+" higher", g.Pairs.OnlyB, list(pairOnlyB))
		fmt.Fprintf(w, "  %-25s %4d\n", "tied, in between", g.Pairs.Tied)
		fmt.Fprintf(w, "  %-25s %4d\n", "neither passed any", g.Pairs.Neither)
	} else {
		fmt.Fprintf(w, "\nOutcome pairs (%d tasks)\n", g.Tasks)
		fmt.Fprintf(w, "  %-15s %4d\n", "both passed", g.Pairs.Both)
		fmt.Fprintf(w, "  %-15s %4d%s\n", "only "+a+" passed", g.Pairs.OnlyA, list(pairOnlyA))
		fmt.Fprintf(w, "  %-15s %4d%s\n", "only "+b+" passed", g.Pairs.OnlyB, list(pairOnlyB))
		fmt.Fprintf(w, "  %-15s %4d\n", "neither passed", g.Pairs.Neither)
	}
}

// writeOverall writes the scores, the difference with its interval
// and tests, and whether it is significant.
func writeOverall(w *bytes.Buffer, doc *Doc, c *Comparison) {
	a, b, g := c.A, c.B, c.Overall
	fmt.Fprintf(w, "\nScore  %9s  %6s  95%% Wilson interval", "passed", "rate")
	if c.Repeats {
		fmt.Fprintf(w, ", attempts taken as independent")
	}
	fmt.Fprintf(w, "\n")
	for _, s := range []struct {
		label string
		score Score
	}{{a, g.A}, {b, g.B}} {
		fmt.Fprintf(w, "  %-3s  %9s  %6s  %s to %s\n", s.label, fmt.Sprintf("%d/%d", s.score.Passed, s.score.Attempts),
			report.Percent(s.score.Score), report.Percent(s.score.WilsonLow), report.Percent(s.score.WilsonHigh))
	}

	fmt.Fprintf(w, "\n")
	if bs := g.Bootstrap; bs != nil {
		fmt.Fprintf(w, "%s − %s: %s points (mean over tasks of the difference in pass rate)\n", b, a, Points(g.Diff))
		fmt.Fprintf(w, "Paired bootstrap: 95%% interval %s to %s, p = %s (%d resamples of the tasks, seed %d)\n",
			Points(bs.Low), Points(bs.High), PValue(bs.P), bs.Resamples, bs.Seed)
		fmt.Fprintf(w, "Exact McNemar (sign) test over the tasks whose rates differ: p = %s (%d %s higher, %d %s higher)\n",
			PValue(g.McNemarP), g.Pairs.OnlyA, a, g.Pairs.OnlyB, b)
		if g.Tasks < fewTasks {
			fmt.Fprintf(w, "  (over only %d tasks the bootstrap tends to be too narrow and its p too small; the sign test is exact but blunt)\n", g.Tasks)
		}
	} else {
		fmt.Fprintf(w, "%s − %s: %s points, 95%% Newcombe paired interval %s to %s\n", b, a, Points(g.Diff), Points(g.Newcombe.Low), Points(g.Newcombe.High))
		fmt.Fprintf(w, "Exact McNemar test: p = %s (%d only %s passed, %d only %s)\n", PValue(g.McNemarP), g.Pairs.OnlyA, a, g.Pairs.OnlyB, b)
		// Newcombe's interval is not the inversion of the exact test: with
		// few discordant tasks it can leave 0 out while the test cannot
		// reject, or the other way round.
		if g.Clustered == nil && (g.Newcombe.Low > 0 || g.Newcombe.High < 0) != (g.McNemarP <= 0.05) {
			fmt.Fprintf(w, "  (the 95%% interval and the exact test at 5%% disagree at this size; the test decides)\n")
		}
	}
	if cl := g.Clustered; cl != nil {
		fmt.Fprintf(w, "Clustered by template (%d clusters): 95%% interval %s to %s, p = %s\n",
			cl.Clusters, Points(cl.Low), Points(cl.High), PValue(cl.P))
		fmt.Fprintf(w, "  (CR1 standard error %s points, %s if the tasks were independent; t with %d df)\n",
			pointsAbs(cl.SE), pointsAbs(cl.NaiveSE), cl.DF)
	}
	fmt.Fprintf(w, "%s\n", verdict(g, doc))
}

// verdict says whether the difference is significant, and by which
// test.
func verdict(g Group, doc *Doc) string {
	level := "5%"
	if len(doc.Comparisons) > 1 {
		level = fmt.Sprintf("5%% over %d comparisons (p ≤ %s)", len(doc.Comparisons), PValue(doc.Alpha))
	}
	by := map[string]string{
		TestMcNemar:   "exact McNemar",
		TestBootstrap: "paired bootstrap",
		TestClustered: "clustered by template, as tasks of one template are not independent",
	}[g.Test]
	not := "Not significant"
	if g.Significant {
		not = "Significant"
	}
	return fmt.Sprintf("%s at %s: p = %s (%s).", not, level, PValue(g.P), by)
}

// writeGroups writes one row per group: its counts, scores, the
// difference, and the interval and p-value of the test that decides it.
func writeGroups(w *bytes.Buffer, groups []Group, what string, c *Comparison, alpha float64) {
	width := utf8.RuneCountInString(what)
	for _, g := range groups {
		width = max(width, utf8.RuneCountInString(g.Name))
	}
	onlyA, onlyB := "only "+c.A, "only "+c.B
	if c.Repeats {
		onlyA, onlyB = c.A+" higher", c.B+" higher"
	}
	fmt.Fprintf(w, "  %-*s  %5s  %*s  %*s  %6s  %6s  %6s  %-16s  %6s  %s\n", width, what, "tasks",
		len(onlyA), onlyA, len(onlyB), onlyB, c.A, c.B, c.B+" − "+c.A, "95% interval", "p", "test  sig.")
	for _, g := range groups {
		sig := "no"
		if g.Significant {
			sig = "yes"
		}
		if why := disagreement(g, alpha); why != "" {
			sig += ", though the interval " + why
		}
		test := map[string]string{TestMcNemar: "M", TestBootstrap: "B", TestClustered: "C"}[g.Test]
		fmt.Fprintf(w, "  %-*s  %5d  %*d  %*d  %6s  %6s  %6s  %-16s  %6s  %-4s  %s\n", width, g.Name, g.Tasks,
			len(onlyA), g.Pairs.OnlyA, len(onlyB), g.Pairs.OnlyB, report.Percent(g.A.Score), report.Percent(g.B.Score), Points(g.Diff),
			Points(g.Low)+" to "+Points(g.High), PValue(g.P), test, sig)
	}
}

// disagreement says why a row's interval and its significance seem to
// disagree (the interval leaves 0 out and the difference is not
// significant, or the other way round), "" when they agree: the row then
// says it in its own words rather than leave the reader to a footnote.
func disagreement(g Group, alpha float64) string {
	excludes := g.Low > 0 || g.High < 0
	if excludes == g.Significant {
		return ""
	}
	leaves := "leaves 0 out"
	if !excludes {
		leaves = "holds 0"
	}
	switch {
	case g.Test == TestMcNemar:
		// Newcombe's interval is not the inversion of the exact test:
		// with few discordant tasks they can disagree at 5%.
		return leaves + ": it is Newcombe's, not the exact test's, which decides"
	case alpha < 0.05:
		return leaves + ": it is at 95%, the test at the Bonferroni level"
	}
	// The bootstrap's percentile interval and its p-value are two readings
	// of the resamples; they can part at the edge.
	return leaves + ": the test's p decides"
}

// attemptRange says how many attempts per task a run's records hold.
func attemptRange(tasks []Task, inA bool) string {
	lo, hi := math.MaxInt, 0
	for _, t := range tasks {
		n := t.B.Attempts
		if inA {
			n = t.A.Attempts
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo == hi {
		return fmt.Sprintf("%d each", lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// list lists ids, at most listMax of them, saying how many more
// there are.
func list(ids []string) string {
	if len(ids) <= listMax {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s … and %d more", strings.Join(ids[:listMax], ", "), len(ids)-listMax)
}

// counts writes outcome counts in the order reports list outcomes.
func counts(m map[string]int) string {
	var parts []string
	for _, o := range report.Outcomes {
		if n := m[string(o)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", o, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Points is a difference of rates in percentage points, signed, and
// pointsAbs a spread in points.
func Points(f float64) string {
	s := fmt.Sprintf("%+.1f", 100*f)
	if s == "-0.0" {
		return "+0.0" // a rounding residue, not a direction
	}
	return s
}

func pointsAbs(f float64) string { return fmt.Sprintf("%.1f", 100*f) }

// PValue writes a p-value to three decimals, or in exponent form below
// 0.001 so that a small p-value never reads as 0.
func PValue(p float64) string {
	if p < 0.001 {
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.3f", p)
}
