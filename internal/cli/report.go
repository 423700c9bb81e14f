package cli

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
)

// execute runs cfg with progress on stderr: a live line on a terminal,
// plain lines otherwise.
func execute(st *State, cfg *runner.Config) (*report.Run, error) {
	ctx, cancel := st.Context()
	defer cancel()
	p := newProgress(st, len(cfg.Tasks)*cfg.Repeat)
	cfg.Progress = p.event
	run, err := runner.Run(ctx, cfg)
	p.finish()
	if run != nil && run.Incomplete {
		fmt.Fprintln(st.Stderr, "interrupted: the report is marked incomplete")
	}
	return run, err
}

// writeReport writes the report files and prints the Markdown table.
func writeReport(st *State, dir string, run *report.Run) error {
	paths, err := report.WriteFiles(dir, run.GitSHA, run)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	var md bytes.Buffer
	if err := report.WriteMarkdown(&md, run); err != nil {
		return err
	}
	st.Stdout.Write(md.Bytes())
	fmt.Fprintf(st.Stdout, "\nreport: %s, %s, %s, %s\n", paths.Markdown, paths.JSON, paths.HTML, paths.JUnit)
	return nil
}

// verdictOf prints one line per task result (the failing clause with its
// evidence, as contract.Evaluate decided it), the cost, and the gate, and
// returns the command's error: nil only when everything passed.
func verdictOf(st *State, run *report.Run, baseline *report.Baseline) error {
	harness, notPassed := 0, 0
	var usd float64
	for _, r := range run.Results {
		usd += r.USD
		line := fmt.Sprintf("%s: %s", r.Task, r.Outcome)
		if run.Settings.Repeat > 1 {
			line = fmt.Sprintf("%s#%d: %s", r.Task, r.Attempt, r.Outcome)
		}
		if r.FailedPostcondition != "" {
			line += " | failed_postcondition: " + r.FailedPostcondition
		}
		if r.Trust != "" {
			line += " | trust: " + r.Trust
		}
		if r.USD > 0 {
			line += " | cost " + llm.FormatUSD(r.USD)
		}
		fmt.Fprintln(st.Stdout, line)
		if !r.Outcome.Passed() {
			notPassed++
			if r.FailedPostcondition != "" {
				fmt.Fprintf(st.Stdout, "  judged by contract.Evaluate on the browser's final state:\n")
				for _, e := range r.Evidence {
					if !e.Passed {
						fmt.Fprintf(st.Stdout, "  %s (%s): expected %s; saw %s\n", e.Path, e.Kind, e.Expected, e.Seen)
					}
				}
			}
			if r.Reason != "" {
				fmt.Fprintf(st.Stdout, "  reason: %s\n", r.Reason)
			}
		}
		if r.Outcome == report.OutcomeError {
			harness++
		}
	}
	if usd > 0 {
		fmt.Fprintf(st.Stdout, "estimated cost: %s in total\n", llm.FormatUSD(usd))
	}
	if baseline != nil {
		failures := report.Gate(baseline, run)
		if len(failures) > 0 {
			tasks := 0
			for _, f := range failures {
				if f.Task != "" { // the rest are about the run as a whole
					tasks++
				}
			}
			fmt.Fprintf(st.Stdout, "gate: FAILED (%d of %d covered tasks)\n", tasks, len(baseline.Tasks))
			for _, f := range failures {
				fmt.Fprintf(st.Stdout, "  %s\n", f)
			}
			return failed("gate failed")
		}
		fmt.Fprintf(st.Stdout, "gate: passed (%d / %d)\n", baseline.ExpectedPassCount, len(baseline.Tasks))
	}
	switch {
	case run.Incomplete:
		return failed("") // execute said so
	case harness > 0:
		return fmt.Errorf("%d task(s) ended in a harness error", harness)
	case notPassed > 0:
		return failed("")
	}
	return nil
}

// gitSHA names the report: the short commit of the tree dir is in, with
// -dirty when it has uncommitted changes, or "nogit" outside a repository.
func gitSHA(st *State, dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "nogit-" + st.Now().UTC().Format("20060102T150405Z")
	}
	sha := strings.TrimSpace(string(out))
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	if err == nil && len(bytes.TrimSpace(status)) > 0 {
		sha += "-dirty"
	}
	return sha
}

// progress shows where a run is.
type progress struct {
	st    *State
	total int
	done  int
	start time.Time
	live  bool
	ch    chan runner.Event
	quit  chan struct{}
}

func newProgress(st *State, total int) *progress {
	p := &progress{st: st, total: total, start: st.Now(), live: st.IsTerminal,
		ch: make(chan runner.Event, 64), quit: make(chan struct{})}
	go p.loop()
	return p
}

func (p *progress) event(e runner.Event) { p.ch <- e }

func (p *progress) finish() {
	close(p.ch)
	<-p.quit
}

// loop serializes events from parallel tasks onto stderr.
func (p *progress) loop() {
	defer close(p.quit)
	for e := range p.ch {
		switch e.Step {
		case "done":
			p.done++
			p.clear()
			r := e.Result
			fmt.Fprintf(p.st.Stderr, "[%d/%d] %s: %s (%d ms, %d tool calls)\n", p.done, p.total, e.Task, r.Outcome, r.DurationMS, r.ToolCalls)
		case "call":
			if p.live {
				p.clear()
				fmt.Fprintf(p.st.Stderr, "[%d/%d] %s: step %d %s (%.1fs)", p.done, p.total, e.Task, e.Seq, e.Tool, e.Elapsed.Seconds())
			}
		}
	}
	p.clear()
}

func (p *progress) clear() {
	if p.live {
		fmt.Fprint(p.st.Stderr, "\r\033[K")
	}
}
