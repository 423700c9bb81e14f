package cli

import (
	"io"
	"runtime"

	"contractbench/internal/inputs"
	"contractbench/internal/nullagent"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
)

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
