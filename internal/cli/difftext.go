package cli

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"contractbench/internal/report"
)

// writeDiffText writes the table form of doc. Writes to a bytes.Buffer
// do not fail.
func writeDiffText(w *bytes.Buffer, doc *diffDoc, runs []*diffRun) {
	width := 0
	for _, r := range runs {
		width = max(width, utf8.RuneCountInString(r.path))
	}
	for _, r := range runs {
		fmt.Fprintf(w, "%s  %-*s  %s\n", r.label, width, r.path, diffRunLine(r.run))
		for _, n := range diffRunNotes(r.run) {
			fmt.Fprintf(w, "   %s\n", n)
		}
	}
	if len(doc.Comparisons) > 1 {
		fmt.Fprintf(w, "\nEach report is compared with A, the first. With %d comparisons a difference is\n"+
			"significant at 5%% overall only with p ≤ %s (Bonferroni).\n", len(doc.Comparisons), diffP(doc.Alpha))
	}
	for _, c := range doc.Comparisons {
		if len(doc.Comparisons) > 1 {
			fmt.Fprintf(w, "\n== %s − %s ==\n", c.B, c.A)
		}
		writeDiffComparison(w, doc, c)
	}
}

// diffRunLine says in one line what produced a run.
func diffRunLine(r *report.Run) string {
	s := r.Settings
	line := fmt.Sprintf("git %s, %s, server %s, web %s", diffOrDash(diffShort(r.GitSHA)), report.AgentLabel(s), diffOrDash(s.Server), diffOrDash(s.Web))
	if s.Repeat > 1 {
		line += fmt.Sprintf(", %d attempts per task", s.Repeat)
	}
	return line
}

// diffRunNotes are what a reader must know about a run before its numbers.
func diffRunNotes(r *report.Run) []string {
	var out []string
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

func diffOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func writeDiffComparison(w *bytes.Buffer, doc *diffDoc, c *diffComparison) {
	writeDiffTasks(w, c)
	g := c.Overall
	if g.Tasks == 0 {
		fmt.Fprintf(w, "\nNo task to compare.\n")
		return
	}
	writeDiffPairs(w, c)
	writeDiffOverall(w, doc, c)
	if len(c.ByTag) > 0 {
		fmt.Fprintf(w, "\nBy tag (a task counts under each of its tags; p not adjusted for the number of tags)\n")
		writeDiffGroups(w, c.ByTag, "tag", c)
	}
	if len(c.ByTemplate) > 0 {
		fmt.Fprintf(w, "\nBy template (tasks tagged template:NAME)\n")
		writeDiffGroups(w, c.ByTemplate, "template", c)
	}
	if len(c.ByTag)+len(c.ByTemplate) > 0 {
		fmt.Fprintf(w, "  test: M exact McNemar with Newcombe's interval, B paired bootstrap, C clustered by template\n")
	}
}

// writeDiffTasks says which tasks were compared and lists the others.
func writeDiffTasks(w *bytes.Buffer, c *diffComparison) {
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
		fmt.Fprintf(w, "  only in %s: %s\n", a, diffList(c.OnlyA))
	}
	if len(c.OnlyB) > 0 {
		fmt.Fprintf(w, "  only in %s: %s\n", b, diffList(c.OnlyB))
	}
	if len(c.Changed) > 0 {
		ids := make([]string, len(c.Changed))
		for i, ch := range c.Changed {
			ids[i] = ch.Task + " (" + ch.What + ")"
		}
		fmt.Fprintf(w, "  changed (digests differ), left out: %s\n", diffList(ids))
	}
	if len(c.LeftOut) > 0 {
		ids := make([]string, len(c.LeftOut))
		for i, l := range c.LeftOut {
			ids[i] = fmt.Sprintf("%s (%s %s; %s %s)", l.Task, a, diffCounts(l.A), b, diffCounts(l.B))
		}
		fmt.Fprintf(w, "  left out, no attempt that counts in a run: %s\n", diffList(ids))
	}
	if len(c.Attempts.A)+len(c.Attempts.B) > 0 {
		fmt.Fprintf(w, "  attempts left out of the compared tasks: %s %s; %s %s\n", a, diffCounts(c.Attempts.A), b, diffCounts(c.Attempts.B))
	}
	if len(c.Unverified) > 0 {
		fmt.Fprintf(w, "  not checked for changes (a report has no digests): %s\n", diffList(c.Unverified))
	}
}

// writeDiffPairs writes the table of outcome pairs, naming the tasks only
// one run passed (with repeats: on which one run did better).
func writeDiffPairs(w *bytes.Buffer, c *diffComparison) {
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
		return "   " + diffList(ids)
	}
	if c.Repeats {
		fmt.Fprintf(w, "\nPer-task pass rates (%d tasks; attempts that count: %s in %s, %s in %s)\n",
			g.Tasks, diffAttemptRange(c.Tasks, true), a, diffAttemptRange(c.Tasks, false), b)
		fmt.Fprintf(w, "  %-25s %4d\n", "both passed every attempt", g.Pairs.Both)
		fmt.Fprintf(w, "  %-25s %4d%s\n", a+" higher", g.Pairs.OnlyA, list(diffPairOnlyA))
		fmt.Fprintf(w, "  %-25s %4d%s\n", b+" higher", g.Pairs.OnlyB, list(diffPairOnlyB))
		fmt.Fprintf(w, "  %-25s %4d\n", "tied, in between", g.Pairs.Tied)
		fmt.Fprintf(w, "  %-25s %4d\n", "neither passed any", g.Pairs.Neither)
	} else {
		fmt.Fprintf(w, "\nOutcome pairs (%d tasks)\n", g.Tasks)
		fmt.Fprintf(w, "  %-15s %4d\n", "both passed", g.Pairs.Both)
		fmt.Fprintf(w, "  %-15s %4d%s\n", "only "+a+" passed", g.Pairs.OnlyA, list(diffPairOnlyA))
		fmt.Fprintf(w, "  %-15s %4d%s\n", "only "+b+" passed", g.Pairs.OnlyB, list(diffPairOnlyB))
		fmt.Fprintf(w, "  %-15s %4d\n", "neither passed", g.Pairs.Neither)
	}
}

// writeDiffOverall writes the scores, the difference with its interval
// and tests, and whether it is significant.
func writeDiffOverall(w *bytes.Buffer, doc *diffDoc, c *diffComparison) {
	a, b, g := c.A, c.B, c.Overall
	fmt.Fprintf(w, "\nScore  %9s  %6s  95%% Wilson interval", "passed", "rate")
	if c.Repeats {
		fmt.Fprintf(w, ", attempts taken as independent")
	}
	fmt.Fprintf(w, "\n")
	for _, s := range []struct {
		label string
		score diffScore
	}{{a, g.A}, {b, g.B}} {
		fmt.Fprintf(w, "  %-3s  %9s  %6s  %s to %s\n", s.label, fmt.Sprintf("%d/%d", s.score.Passed, s.score.Attempts),
			diffPct(s.score.Score), diffPct(s.score.WilsonLow), diffPct(s.score.WilsonHigh))
	}

	fmt.Fprintf(w, "\n")
	if bs := g.Bootstrap; bs != nil {
		fmt.Fprintf(w, "%s − %s: %s points (mean over tasks of the difference in pass rate)\n", b, a, diffPoints(g.Diff))
		fmt.Fprintf(w, "Paired bootstrap: 95%% interval %s to %s, p = %s (%d resamples of the tasks, seed %d)\n",
			diffPoints(bs.Low), diffPoints(bs.High), diffP(bs.P), bs.Resamples, bs.Seed)
		fmt.Fprintf(w, "Exact McNemar (sign) test over the tasks whose rates differ: p = %s (%d %s higher, %d %s higher)\n",
			diffP(g.McNemarP), g.Pairs.OnlyA, a, g.Pairs.OnlyB, b)
		if g.Tasks < diffFewTasks {
			fmt.Fprintf(w, "  (over only %d tasks the bootstrap tends to be too narrow and its p too small; the sign test is exact but blunt)\n", g.Tasks)
		}
	} else {
		fmt.Fprintf(w, "%s − %s: %s points, 95%% Newcombe paired interval %s to %s\n", b, a, diffPoints(g.Diff), diffPoints(g.Newcombe.Low), diffPoints(g.Newcombe.High))
		fmt.Fprintf(w, "Exact McNemar test: p = %s (%d only %s passed, %d only %s)\n", diffP(g.McNemarP), g.Pairs.OnlyA, a, g.Pairs.OnlyB, b)
		// Newcombe's interval is not the inversion of the exact test: with
		// few discordant tasks it can leave 0 out while the test cannot
		// reject, or the other way round.
		if g.Clustered == nil && (g.Newcombe.Low > 0 || g.Newcombe.High < 0) != (g.McNemarP <= 0.05) {
			fmt.Fprintf(w, "  (the 95%% interval and the exact test at 5%% disagree at this size; the test decides)\n")
		}
	}
	if cl := g.Clustered; cl != nil {
		fmt.Fprintf(w, "Clustered by template (%d clusters): 95%% interval %s to %s, p = %s\n",
			cl.Clusters, diffPoints(cl.Low), diffPoints(cl.High), diffP(cl.P))
		fmt.Fprintf(w, "  (CR1 standard error %s points, %s if the tasks were independent; t with %d df)\n",
			diffPointsAbs(cl.SE), diffPointsAbs(cl.NaiveSE), cl.DF)
	}
	fmt.Fprintf(w, "%s\n", diffVerdict(g, doc))
}

// diffVerdict says whether the difference is significant, and by which
// test.
func diffVerdict(g diffGroup, doc *diffDoc) string {
	level := "5%"
	if len(doc.Comparisons) > 1 {
		level = fmt.Sprintf("5%% over %d comparisons (p ≤ %s)", len(doc.Comparisons), diffP(doc.Alpha))
	}
	by := map[string]string{
		diffTestMcNemar:   "exact McNemar",
		diffTestBootstrap: "paired bootstrap",
		diffTestClustered: "clustered by template, as tasks of one template are not independent",
	}[g.Test]
	not := "Not significant"
	if g.Significant {
		not = "Significant"
	}
	return fmt.Sprintf("%s at %s: p = %s (%s).", not, level, diffP(g.P), by)
}

// writeDiffGroups writes one row per group: its counts, scores, the
// difference, and the interval and p-value of the test that decides it.
func writeDiffGroups(w *bytes.Buffer, groups []diffGroup, what string, c *diffComparison) {
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
		test := map[string]string{diffTestMcNemar: "M", diffTestBootstrap: "B", diffTestClustered: "C"}[g.Test]
		fmt.Fprintf(w, "  %-*s  %5d  %*d  %*d  %6s  %6s  %6s  %-16s  %6s  %-4s  %s\n", width, g.Name, g.Tasks,
			len(onlyA), g.Pairs.OnlyA, len(onlyB), g.Pairs.OnlyB, diffPct(g.A.Score), diffPct(g.B.Score), diffPoints(g.Diff),
			diffPoints(g.Low)+" to "+diffPoints(g.High), diffP(g.P), test, sig)
	}
}

// diffAttemptRange says how many attempts per task a run's records hold.
func diffAttemptRange(tasks []diffTask, inA bool) string {
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

// diffList lists ids, at most diffListMax of them, saying how many more
// there are.
func diffList(ids []string) string {
	if len(ids) <= diffListMax {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s … and %d more", strings.Join(ids[:diffListMax], ", "), len(ids)-diffListMax)
}

// diffCounts writes outcome counts in the order reports list outcomes.
func diffCounts(m map[string]int) string {
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

// diffPct is a rate as a percentage; diffPoints a difference of rates in
// percentage points, signed, and diffPointsAbs a spread in points.
func diffPct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

func diffPoints(f float64) string {
	s := fmt.Sprintf("%+.1f", 100*f)
	if s == "-0.0" {
		return "+0.0" // a rounding residue, not a direction
	}
	return s
}

func diffPointsAbs(f float64) string { return fmt.Sprintf("%.1f", 100*f) }

// diffP writes a p-value to three decimals, or in exponent form below
// 0.001 so that a small p-value never reads as 0.
func diffP(p float64) string {
	if p < 0.001 {
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.3f", p)
}
