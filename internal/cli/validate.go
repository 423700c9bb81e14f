package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"contractbench/internal/inputs"
	"contractbench/internal/nullagent"
	"contractbench/internal/problem"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
)

const validateHelp = `
Validates input files and prints every problem with its location
(file:line: path: message). With no PATH it validates the whole
default suite. A PATH may be a suite folder (every file of it: tasks,
contracts and their selectors, fixture archive, baseline.json, the
servers.yaml beside it, each task's reference on each server, and every
transcript, including whether it is stale), a task file (tasks/*.yaml), a
standalone contract file (a YAML or JSON mapping with one key,
postconditions), a fixture archive folder (one holding archive.yaml), a
baseline.json, a servers.yaml or a .jsonl transcript. run checks the same
before any browser starts and refuses a suite that does not validate
(a stale transcript aside: the replay reports it as replay_drift).

One check needs a browser: a contract that already holds on the task's
start page, before any tool call, passes an agent that does nothing. Once
everything else is valid, validate plays the null agent noop (no tool
call) on the new tasks, in Chromium on the suite's hermetic web: a task
file named on its own in a suite's tasks/ folder, and each task of a suite
folder that has no transcript on the built-in server yet. A contract that
holds is a problem naming each clause and what the judge saw; a suite
whose tasks are all recorded opens no browser. A task whose browser or
web broke is said so and is no problem.

Exits 0 when everything is valid and 2 when anything is not.
`

func runValidate(st *State, args []string) error {
	fs := newFlags(st, "contractbench validate [PATH...]", validateHelp)
	if err := parse(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{defaultSuite}
	}
	var problems problem.List
	checked := 0
	for _, p := range paths {
		n, err := inputs.Check(p)
		checked += n
		var ps problem.List
		switch {
		case errors.As(err, &ps):
			problems = append(problems, ps...)
		case err != nil:
			problems = append(problems, problem.Problem{File: p, Msg: err.Error()})
		}
	}
	if len(problems) == 0 {
		// Only a suite that validates can be run; its new tasks are
		// played once on their start page.
		problems = inputs.CheckStartPages(st.Stdout, inputs.NewTasks(paths), playNoop(st))
	}
	for _, p := range problems {
		fmt.Fprintln(st.Stdout, p.String())
	}
	if len(problems) > 0 {
		return usagef("%d problem(s) in %d file(s) checked", len(problems), checked)
	}
	fmt.Fprintf(st.Stdout, "ok: %d file(s) valid\n", checked)
	return nil
}

// playNoop is validate's player of the start-page check
// (inputs.CheckStartPages): it runs the null agent noop on the tasks
// quietly, planned as run plans it.
func playNoop(st *State) inputs.PlayNoop {
	return func(dir string, ids []string) (*report.Run, *suite.Suite, error) {
		// As many at once as the machine has processors: each task is a
		// start page and a judgement, no agent.
		f := runFlags{suiteDir: dir, tasks: ids, agent: nullagent.NameNoop, server: "builtin",
			web: string(runner.WebReplay), parallel: max(1, min(len(ids), runtime.NumCPU())), repeat: 1}
		quiet := *st
		quiet.Stderr = io.Discard
		ls, plan, err := planRun(&quiet, &f)
		if err != nil {
			return nil, nil, err
		}
		return execute(&quiet, plan, runner.Hooks{}), ls.Suite, nil
	}
}
