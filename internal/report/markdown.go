package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"contractbench/internal/stats"
)

// Published numbers the comparison footer quotes. They are self-reported
// and judged by the agent itself or by an LLM, on notte's 30-task
// WebVoyager subset; the footer says so next to them.
const (
	notteSelfEval      = "86.2%"
	notteLLMEval       = "79.0%"
	notteSecondsPer    = "47 s"
	browserUseSelfEval = "77.3%"
	browserUseLLMEval  = "60.2%"
	browserUseSecsPer  = "113 s"
)

// incompleteBanner opens every view of a run that stopped early.
const incompleteBanner = "INCOMPLETE: stopped before every task ran"

// ComparabilityNote closes the comparison footer: the line every view
// gives about comparing its numbers with LLM-judged ones.
const ComparabilityNote = "contract-eval is stricter than LLM-eval; numbers are not directly comparable"

// WriteMarkdown writes the human report of r: a header with the score,
// pass@k and pass^k when tasks were repeated, and the smallest difference
// a run of its size can detect (or, for a run with a trust label, how
// often the contract held, in a section of its own); one table row per
// result; the score per application, kind, widget and template when the
// tasks are tagged with them; pass@k and pass^k and pass counts per task when tasks were
// repeated; medians; why each non-passed result failed with the failing
// clause's evidence; and a footer comparing the score with published
// numbers.
func WriteMarkdown(w io.Writer, r *Run) error {
	p := &printer{w: w}
	s := Summarize(r)
	rep := Repeated(r)

	title := "contractbench report"
	if r.Settings.Suite != "" {
		title += ": " + r.Settings.Suite
	}
	p.printf("# %s\n\n", escape(title))
	if r.Incomplete || s.NotRun > 0 {
		p.printf("**%s.**", incompleteBanner)
		if missing := notRun(r); len(missing) > 0 {
			names := make([]string, len(missing))
			for i, m := range missing {
				names[i] = code(ResultName(&TaskResult{Task: m.Task, Attempt: m.Attempt}, rep))
			}
			p.printf(" Not run (%d): %s.", len(missing), strings.Join(names, ", "))
		}
		p.printf("\n\n")
	}
	writeHeader(p, r, s)
	writeHeld(p, s)
	writeResults(p, r, rep)
	writeGroups(p, s)
	writePassK(p, s)
	if rep {
		writeTallies(p, r, s)
	}
	writeMedians(p, s)
	writeFailures(p, r, rep)
	writeComparison(p, r, s)
	writeProvenance(p, r, rep)
	if p.err != nil {
		return fmt.Errorf("report markdown: %w", p.err)
	}
	return nil
}

func writeHeader(p *printer, r *Run, s Summary) {
	set := r.Settings
	p.printf("- git sha: %s\n", code(OrNone(r.GitSHA)))
	p.printf("- started: %s, took %s\n", r.Started.Format(time.RFC3339), Seconds(float64(r.DurationMS)))
	p.printf("- agent: %s (%s), server: %s, web: %s, model: %s\n",
		code(OrNone(set.Agent)), escape(AgentLabel(set)), code(OrNone(set.Server)), code(OrNone(set.Web)), code(OrNone(set.Model)))
	if set.Shard != nil {
		p.printf("- shard: %s of the selection\n", set.Shard)
	}
	if note := set.BrowserNote(); note != "" {
		p.printf("- browsers: %s\n", escape(note))
	}
	if set.Pace != "" {
		p.printf("- pace: the replayed agent waited %s before each model turn\n", escape(set.Pace))
	}
	writeProvenanceLine(p, r)
	if g := r.Regraded; g != nil {
		p.printf("- regraded: from %s (run of %s) on %s against the suite's contracts at %s; %d outcome(s) changed\n",
			code(g.From), code(OrNone(g.FromGitSHA)), g.At.Format(time.RFC3339), code(OrNone(g.SuiteGitSHA)), g.Changed)
		for _, w := range g.Warnings {
			p.printf("  - warning: %s\n", escape(w))
		}
	}
	if set.Trust != "" {
		p.printf("- trust: **%s**: %s\n", escape(set.Trust), UnrestrictedNote)
	}
	p.printf("- caps per task: %d tokens per turn, %d tool iterations, $%.2f\n",
		set.Caps.MaxTokensPerTurn, set.Caps.MaxToolIterations, set.Caps.MaxUSD)
	p.printf("- total tasks: %d, attempts per task: %d, results: %d\n", s.Tasks, max(set.Repeat, 1), s.Total)
	p.printf("- pass count: %d / %d\n", s.Passed, s.Total)
	var outcomes []string
	for _, o := range Outcomes {
		if n := s.ByOutcome[o]; n > 0 {
			outcomes = append(outcomes, fmt.Sprintf("%s %d", o, n))
		}
	}
	if len(outcomes) > 0 {
		p.printf("- outcomes: %s\n", strings.Join(outcomes, ", "))
	}
	p.printf("- cost: $%.4f (tokens: %d input, %d output, %d cache read, %d cache write)\n",
		s.TotalUSD, s.Tokens.Input, s.Tokens.Output, s.Tokens.CacheRead, s.Tokens.CacheWrite)
	p.printf("\n**contract-eval score: %d / %d (%s)**, 95%% Wilson score interval %s–%s\n\n",
		s.Passed, s.Total, Percent(s.Score), Percent(s.Wilson95Low), Percent(s.Wilson95High))
	p.printf("Denominator: %s; the score counts %s.\n\n", s.Denominator, s.Denominator.Counts)
	if c := s.CannotBeDone; c != nil {
		for _, line := range c.Lines() {
			p.printf("- %s\n", escape(line))
		}
		p.printf("\n")
	}
	if pk := s.PassK; pk != nil {
		at := pk.At()
		p.printf("**pass@%d %s, pass^%d %s**, the mean over %s of the chance that at least one, and that all, of %d attempts pass (by k and per task below)\n\n",
			pk.K, Percent(at.PassAtK), pk.K, Percent(at.PassHatK), plural(len(pk.Tasks), "task"), pk.K)
		p.printf("**Flip rate %s**: %d of %s have attempts that disagree.\n\n", Percent(pk.FlipRate), pk.Flipped, plural(len(pk.Tasks), "task"))
		if pk.Warning != "" {
			p.printf("Warning: %s.\n\n", pk.Warning)
		}
	}
	if d := s.Detectable; d != nil {
		p.printf("Smallest detectable difference: **%s**, %s (%s).\n\n", d, d.Sentence(), detectableDoc)
	}
}

// writeHeld gives a run with a trust label its only number, in a section
// of its own: how often the contract held, which is never a score.
func writeHeld(p *printer, s Summary) {
	if s.Held == nil {
		return
	}
	p.printf("## Unrestricted agent\n\n")
	p.printf("**%s**\n\n", s.Held)
	p.printf("%s\n\n", heldNote)
}

// writePassK writes the suite's pass@k and pass^k for every k up to the
// fewest attempts of any task.
func writePassK(p *printer, s Summary) {
	pk := s.PassK
	if pk == nil {
		return
	}
	p.printf("## pass@k and pass^k\n\n")
	p.printf("Unbiased estimates from each task's judged attempts, averaged over the %s: pass@k is the chance that at least one of k attempts passes, pass^k that all k do (docs/statistics.md, \"Repeated attempts\").\n\n",
		plural(len(pk.Tasks), "task"))
	p.printf("| k | pass@k | pass^k |\n")
	p.printf("| ---: | ---: | ---: |\n")
	for _, v := range pk.ByK {
		p.printf("| %d | %s | %s |\n", v.K, Percent(v.PassAtK), Percent(v.PassHatK))
	}
	p.printf("\n")
}

func writeResults(p *printer, r *Run, rep bool) {
	p.printf("## Results\n\n")
	p.printf("| name | result | duration_ms | tool_calls | response_bytes | failed_postcondition | screenshot |\n")
	p.printf("| --- | --- | ---: | ---: | ---: | --- | --- |\n")
	for i := range r.Results {
		res := &r.Results[i]
		failed, shot := "", ""
		if res.Failed != nil {
			failed = code(res.Failed.String())
		}
		if obs := res.Observation; obs != nil && obs.Screenshot.File != "" {
			shot = fmt.Sprintf("[png](%s)", obs.Screenshot.File)
		}
		outcome := string(res.Outcome)
		if res.Trust != "" {
			outcome += " (trust: " + escape(res.Trust) + ")"
		}
		p.printf("| %s | %s | %d | %d | %d | %s | %s |\n",
			cell(escape(ResultName(res, rep))), outcome,
			res.DurationMS, res.ToolCalls, res.ResponseBytes, cell(failed), cell(shot))
	}
	p.printf("\n")
}

// writeTallies writes the pass count of each task over its judged
// attempts, with an interval that says how much those few attempts can
// tell, and the task's pass@k and pass^k when the run has them.
func writeTallies(p *printer, r *Run, s Summary) {
	pk := s.PassK
	p.printf("## Pass counts per task\n\n")
	if pk != nil {
		p.printf("| task | passed | rate | 95%% Wilson score interval | pass@%d | pass^%d | flipped |\n", pk.K, pk.K)
		p.printf("| --- | ---: | ---: | --- | ---: | ---: | --- |\n")
	} else {
		p.printf("| task | passed | rate | 95%% Wilson score interval |\n")
		p.printf("| --- | ---: | ---: | --- |\n")
	}
	for i, t := range tallies(r) {
		lo, hi := stats.Wilson95(t.Passed, t.Attempts)
		p.printf("| %s | %d / %d | %s | %s–%s |", cell(escape(t.Task)), t.Passed, t.Attempts,
			Percent(float64(t.Passed)/float64(t.Attempts)), Percent(lo), Percent(hi))
		if pk != nil {
			flipped := ""
			if pk.Tasks[i].Flipped {
				flipped = "yes"
			}
			p.printf(" %s | %s | %s |", Percent(pk.Tasks[i].PassAtK), Percent(pk.Tasks[i].PassHatK), flipped)
		}
		p.printf("\n")
	}
	p.printf("\n")
}

func writeMedians(p *printer, s Summary) {
	p.printf("## Medians\n\n")
	p.printf("| duration_ms | tool_calls | response_bytes |\n")
	p.printf("| ---: | ---: | ---: |\n")
	p.printf("| %s | %s | %s |\n\n", number(s.MedianDurationMS), number(s.MedianToolCalls), number(s.MedianResponseBytes))
}

// writeFailures explains every result that did not pass: its reason and
// the evidence of every clause that failed, not only the first, each
// bounded so that a page dump cannot swamp the report.
func writeFailures(p *printer, r *Run, rep bool) {
	p.printf("## Why tasks failed\n\n")
	explained := false
	for i := range r.Results {
		res := &r.Results[i]
		if res.Outcome.Passed() && res.Drift() == "" {
			continue
		}
		explained = true
		p.printf("### %s: %s\n\n", escape(ResultName(res, rep)), res.Outcome)
		if res.Reason != "" {
			p.printf("- reason: %s\n", code(bound(res.Reason)))
		}
		if drift := res.Drift(); drift != "" {
			p.printf("- replay drift: %s\n", code(bound(drift)))
		}
		if res.Failed != nil {
			p.printf("- failed_postcondition: %s\n", code(res.Failed.String()))
		}
		for j, ev := range failedEvidence(res) {
			if j == 0 {
				p.printf("- evidence of every failed clause:\n")
			}
			p.printf("  - %s (%s): expected %s, saw %s\n",
				code(ev.Path), ev.Kind, code(bound(ev.Expected)), code(bound(ev.Seen)))
		}
		if obs := res.Observation; obs != nil {
			p.printf("- final URL: %s\n", code(bound(obs.URL)))
			if f := obs.Screenshot.File; f != "" {
				p.printf("- screenshot: [%s](%s)\n", escape(f), f)
			}
		}
		if res.Answer != "" {
			p.printf("- answer (recorded, not evidence): %s\n", code(bound(res.Answer)))
		}
		p.printf("\n")
	}
	if !explained {
		p.printf("Every task passed.\n\n")
	}
}

func writeComparison(p *printer, r *Run, s Summary) {
	p.printf("## Comparison\n\n")
	p.printf("| system | score | time per task | judged by |\n")
	p.printf("| --- | --- | --- | --- |\n")
	p.printf("| notte (published, WebVoyager30) | %s self-eval, %s LLM-eval | %s | the agent itself; an LLM |\n",
		notteSelfEval, notteLLMEval, notteSecondsPer)
	p.printf("| browser-use (same source, self-reported) | %s self-eval, %s LLM-eval | %s | the agent itself; an LLM |\n",
		browserUseSelfEval, browserUseLLMEval, browserUseSecsPer)
	suite := "this run"
	if r.Settings.Suite != "" {
		suite += " (" + r.Settings.Suite + ")"
	}
	suite += ", agent: " + AgentLabel(r.Settings)
	p.printf("| %s | %s contract-eval (%d / %d) | %s median | outcome contracts |\n\n",
		cell(escape(suite)), Percent(s.Score), s.Passed, s.Total, Seconds(s.MedianDurationMS))
	if r.Incomplete {
		p.printf("This run is incomplete: %s.\n\n", incompleteBanner)
	}
	p.printf("%s.\n", ComparabilityNote)
}

// printer writes formatted text and keeps the first error, so rendering
// code reads as a sequence of lines and checks once at the end.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

// code returns s as a Markdown code span, with a fence longer than any run
// of backticks inside s so the span cannot end early.
func code(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escape backslash-escapes the characters that would turn plain text into
// Markdown markup.
func escape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune("\\`*_[]<>", c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// cell makes s safe inside a table cell: a pipe would end the cell even
// inside a code span. GitHub's table parser turns every \| back into | before
// it parses the cell, so escaping every pipe is exact.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// OrNone writes an empty setting as "none".
func OrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Percent writes a rate as a percentage to one decimal.
func Percent(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }

// number prints a median: whole numbers as integers, halves with one
// decimal.
func number(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// Seconds writes a duration in milliseconds as seconds to one decimal.
func Seconds(ms float64) string { return strconv.FormatFloat(ms/1000, 'f', 1, 64) + " s" }

// writeProvenanceLine says which versions produced the run.
func writeProvenanceLine(p *printer, r *Run) {
	pv := r.Provenance
	var chromium []string
	for _, res := range r.Results {
		if c := res.Provenance; c != nil && c.Chromium != "" && !slices.Contains(chromium, c.Chromium) {
			chromium = append(chromium, c.Chromium)
		}
	}
	p.printf("- contractbench: %s", code(OrNone(pv.Contractbench)))
	if pv.ServerPackage != "" {
		p.printf(", server package: %s", code(pv.ServerPackage))
	}
	if len(chromium) > 0 {
		p.printf(", browser: %s", code(strings.Join(chromium, ", ")))
	}
	p.printf("\n")
}

// ShortDigest is a digest (or a git commit) as views print it: its first
// 12 hex digits, without a "sha256:" prefix.
func ShortDigest(d string) string {
	d = strings.TrimPrefix(d, "sha256:")
	return d[:min(12, len(d))]
}

// writeProvenance lists, per result, the digests of what produced it.
func writeProvenance(p *printer, r *Run, rep bool) {
	has := false
	for _, res := range r.Results {
		has = has || res.Provenance != nil
	}
	if !has {
		return
	}
	p.printf("\n## Provenance\n\n")
	p.printf("SHA-256 digests (first 12 hex digits) of what each result was produced from.\n\n")
	p.printf("| name | spec | contract | transcript | fixture pages served |\n")
	p.printf("| --- | --- | --- | --- | --- |\n")
	short := func(d string) string {
		if d == "" {
			return ""
		}
		return code(ShortDigest(d))
	}
	for i := range r.Results {
		res := &r.Results[i]
		pv := res.Provenance
		if pv == nil {
			pv = &TaskProvenance{}
		}
		p.printf("| %s | %s | %s | %s | %s |\n", escape(ResultName(res, rep)), short(pv.Spec), short(pv.Contract), short(pv.Transcript), short(pv.Fixtures))
	}
}
