package inputs

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"contractbench/internal/problem"
	"contractbench/internal/report"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
)

// NewTasks are, by suite folder, the tasks of paths that validate checks
// on their start page: a task file named on its own inside a suite's
// tasks/ folder, and every task of a suite folder that has no transcript
// on the built-in server yet, that is, a task being written. A suite whose
// every task has been recorded costs nothing: its tasks were checked when
// they were new, and make test plays both null agents on them.
func NewTasks(paths []string) map[string][]string {
	out := map[string][]string{}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			s, err := suite.Load(p)
			if err != nil {
				continue
			}
			for _, t := range s.Tasks {
				if !exists(s.TranscriptFile(servers.Builtin().Name(), t.ID)) {
					out[p] = append(out[p], t.ID)
				}
			}
			continue
		}
		dir := filepath.Dir(p)
		if filepath.Base(dir) != "tasks" || !slices.Contains([]string{".yaml", ".yml"}, filepath.Ext(p)) {
			continue
		}
		t, err := suite.LoadTask(p)
		if err != nil {
			continue
		}
		root := filepath.Dir(dir)
		if !slices.Contains(out[root], t.ID) {
			out[root] = append(out[root], t.ID)
		}
	}
	return out
}

// PlayNoop plays the null agent noop (no tool call) on tasks ids of the
// suite at dir, in a real browser on the suite's hermetic web, and returns
// the run and the suite.
type PlayNoop func(dir string, ids []string) (*report.Run, *suite.Suite, error)

// CheckStartPages has play play the null agent noop on each of tasks, by
// suite folder, and returns a problem for each task whose contract then
// held: it holds on the start page already, so an agent that does nothing
// passes. A task that could not be checked (no browser, a broken web) is
// said on w and is no problem of the task's.
func CheckStartPages(w io.Writer, tasks map[string][]string, play PlayNoop) problem.List {
	var problems problem.List
	for _, dir := range slices.Sorted(maps.Keys(tasks)) {
		ids := tasks[dir]
		fmt.Fprintf(w, "playing a do-nothing agent in a browser on the start page of %d task(s) of %s without a transcript...\n", len(ids), dir)
		run, s, err := play(dir, ids)
		if err != nil {
			fmt.Fprintf(w, "start pages not checked: %v\n", err)
			continue
		}
		for _, res := range run.Results {
			switch {
			case res.Outcome.Passed():
				problems = append(problems, heldAtStart(s, &res))
			case res.Outcome == report.OutcomeError:
				fmt.Fprintf(w, "%s: start page not checked: %s\n", res.Task, res.Reason)
			}
		}
	}
	return problems
}

// heldAtStart is the problem of a task whose contract held before any
// tool call, naming each clause with what the judge saw.
func heldAtStart(s *suite.Suite, res *report.TaskResult) problem.Problem {
	file := res.Task
	if t, ok := s.Task(res.Task); ok {
		file = t.File
	}
	var held []string
	for _, e := range res.Evidence {
		held = append(held, fmt.Sprintf("%s (%s): %s; saw %s", e.Path, e.Kind, e.Expected, e.Seen))
	}
	return problem.Problem{File: file, Path: "postconditions", Msg: "the contract already holds on the start page, before any tool call, " +
		"so an agent that does nothing passes (run --agent noop): " + strings.Join(held, "; ") +
		"; add a clause that only the task's end state meets"}
}
