package report

import (
	"fmt"
	"io"
)

// WriteWebCheck writes what run, a run of its tasks' reference solutions
// on a fixture web, says of that web: for each result its outcome, every
// page the browser loaded with its status, the final URL, every request
// the archive lacked (MISS) and a harness error. It returns the problems
// among them: a page that did not load, or answered an error status (not
// the site's own 409 or 422 refusal of the request a task that cannot be
// done asks for, which is the answer such a task expects), a miss and an
// error; and the error of writing on w.
func WriteWebCheck(w io.Writer, run *Run) ([]string, error) {
	p := &printer{w: w}
	var problems []string
	for i := range run.Results {
		problems = append(problems, writeWebCheckResult(p, &run.Results[i])...)
	}
	return problems, p.err
}

// writeWebCheckResult writes what r says of the fixture web and returns
// its problems.
func writeWebCheckResult(p *printer, r *TaskResult) []string {
	var problems []string
	p.printf("%s: %s\n", r.Task, r.Outcome)
	refuses := hasTag(r.Tags, impossibleTag)
	if r.Observation != nil {
		for _, n := range r.Observation.Network {
			if n.ResourceType != "Document" {
				continue
			}
			status, note := fmt.Sprint(n.Status), ""
			switch {
			case n.Error != "":
				status = n.Error
				problems = append(problems, fmt.Sprintf("%s: %s %s failed: %s", r.Task, n.Method, n.URL, n.Error))
			case n.Status >= 400 && refuses && (n.Status == 409 || n.Status == 422):
				// The site's own refusal of the request a task that
				// cannot be done asks for (a write, or a page asked
				// for what the site does not offer): the answer it
				// must give.
				note = "  (the refusal this task expects)"
			case n.Status >= 400:
				problems = append(problems, fmt.Sprintf("%s: %s %s answered %d", r.Task, n.Method, n.URL, n.Status))
			}
			p.printf("  %-5s %s%s\n", status, n.URL, note)
		}
		p.printf("  final %s\n", r.Observation.URL)
	}
	for _, m := range r.WebMisses {
		p.printf("  MISS  %s\n", m)
		problems = append(problems, fmt.Sprintf("%s: not in the fixture web: %s", r.Task, m))
	}
	if r.Outcome == OutcomeError {
		p.printf("  error: %s\n", r.Reason)
		problems = append(problems, fmt.Sprintf("%s: error: %s", r.Task, r.Reason))
	}
	return problems
}
