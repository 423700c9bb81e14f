package cli

import (
	"fmt"

	"contractbench/internal/report"
	"contractbench/internal/runner"
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
	// A failed write to stdout does not change what the check found.
	problems, _ := report.WriteWebCheck(st.Stdout, run)
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
