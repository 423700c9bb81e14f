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
fragment names no element of the target page. Exits 1 on any miss, failed
page load or dangling reference, so a fixture archive that no longer covers
its suite, or that an agent straying from a reference would find broken, is
caught.
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
	bad := 0
	for _, r := range run.Results {
		fmt.Fprintf(st.Stdout, "%s: %s\n", r.Task, r.Outcome)
		if r.Observation != nil {
			for _, n := range r.Observation.Network {
				if n.ResourceType != "Document" {
					continue
				}
				status := fmt.Sprint(n.Status)
				if n.Error != "" {
					status = n.Error
					bad++
				} else if n.Status >= 400 {
					bad++
				}
				fmt.Fprintf(st.Stdout, "  %-5s %s\n", status, n.URL)
			}
			fmt.Fprintf(st.Stdout, "  final %s\n", r.Observation.URL)
		}
		for _, m := range r.WebMisses {
			fmt.Fprintf(st.Stdout, "  MISS  %s\n", m)
		}
		bad += len(r.WebMisses)
		if r.Outcome == report.OutcomeError {
			fmt.Fprintf(st.Stdout, "  error: %s\n", r.Reason)
			bad++
		}
	}
	dangling := ls.archive.DanglingLinks()
	for _, l := range dangling {
		fmt.Fprintf(st.Stdout, "DANGLING %s\n", l)
	}
	bad += len(dangling)
	if bad > 0 || run.Incomplete {
		return failed("web check: %d problem(s) in %s", bad, ls.WebDir())
	}
	fmt.Fprintf(st.Stdout, "ok: %d task(s), no misses, no dangling links\n", len(run.Results))
	return nil
}
