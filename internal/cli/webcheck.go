package cli

import (
	"fmt"
	"slices"

	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
)

const webCheckHelp = `
For every task (or those named with --task), runs the task's reference
solution with the built-in tool server in Chromium under replay, and prints
each page the browser loaded with its status, the final URL, and every
request the archive lacked. Then it lists every dangling reference of the
archive's HTML pages: a link, form action, stylesheet, script or image whose
URL the archive does not answer (or answers with an error), or whose
fragment names no element of the target page. Ends with the list of
every problem it counts, and exits 1 on any miss, failed page load (an
error status; not the site's own 409 or 422 refusal of the request a
task that cannot be done, tagged kind:impossible, asks for) or dangling
reference, so a fixture archive that no longer covers its suite, or that an
agent straying from a reference would find broken, is caught.
`

func runWebCheck(st *State, args []string) error {
	fs := newFlags(st, "contractbench web check [--suite DIR] [--task ID]...", webCheckHelp)
	suiteDir := fs.String("suite", defaultSuite, "suite folder")
	var tasks stringList
	fs.Var(&tasks, "task", "task id or number prefix to check (repeatable; default all)")
	jobs := fs.Int("j", 2, "tasks checked in parallel, each with its own browser")
	if err := parse(fs, args); err != nil {
		return err
	}
	f := runFlags{suiteDir: *suiteDir, tasks: tasks, agent: agentReference, server: "builtin",
		web: string(runner.WebReplay), parallel: *jobs, repeat: 1}
	ls, plan, err := planRun(st, &f)
	if err != nil {
		return err
	}
	ctx, cancel := st.Context()
	defer cancel()
	run := runner.Run(ctx, plan, runner.Hooks{Now: st.Now})
	var problems []string
	for _, r := range run.Results {
		fmt.Fprintf(st.Stdout, "%s: %s\n", r.Task, r.Outcome)
		refuses := cannotBeDone(ls.Suite, r.Task)
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
				fmt.Fprintf(st.Stdout, "  %-5s %s%s\n", status, n.URL, note)
			}
			fmt.Fprintf(st.Stdout, "  final %s\n", r.Observation.URL)
		}
		for _, m := range r.WebMisses {
			fmt.Fprintf(st.Stdout, "  MISS  %s\n", m)
			problems = append(problems, fmt.Sprintf("%s: not in the fixture web: %s", r.Task, m))
		}
		if r.Outcome == report.OutcomeError {
			fmt.Fprintf(st.Stdout, "  error: %s\n", r.Reason)
			problems = append(problems, fmt.Sprintf("%s: error: %s", r.Task, r.Reason))
		}
	}
	for _, l := range ls.Archive.DanglingLinks() {
		fmt.Fprintf(st.Stdout, "DANGLING %s\n", l)
		problems = append(problems, fmt.Sprintf("dangling link: %s", l))
	}
	if len(problems) > 0 || run.Incomplete {
		fmt.Fprintf(st.Stdout, "\n%d problem(s):\n", len(problems))
		for _, p := range problems {
			fmt.Fprintf(st.Stdout, "  %s\n", p)
		}
		if run.Incomplete {
			fmt.Fprintln(st.Stdout, "  the run did not complete")
		}
		return failed("web check: %d problem(s) in %s", len(problems), ls.WebDir())
	}
	fmt.Fprintf(st.Stdout, "ok: %d task(s), no misses, no dangling links\n", len(run.Results))
	return nil
}

// cannotBeDone reports whether the task id of s is one that cannot be
// done (tagged kind:impossible): the site refusing its write is expected.
func cannotBeDone(s *suite.Suite, id string) bool {
	t, ok := s.Task(id)
	return ok && slices.Contains(t.Tags, "kind:impossible")
}
