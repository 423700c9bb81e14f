package cli

import (
	"fmt"

	"contractbench/internal/llm"
	"contractbench/internal/nullagent"
	"contractbench/internal/runner"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
)

// defaultSeed is the random agent's seed when --seed is not given.
const defaultSeed = 1

// nullAgent returns the null agent f names (--agent noop or random). It
// runs no model, so --model makes no sense with it, and the report says
// that none ran; the random agent's seed goes with its name, as the flags
// that replay it.
func nullAgent(f *runFlags, server *servers.Profile) (runner.Agent, error) {
	if f.model != "" {
		return runner.Agent{}, usagef("--model %q: --agent %s is a null agent and runs no model", f.model, f.agent)
	}
	a := runner.Agent{Name: f.agent, Model: "none (null agent: no model ran)",
		Provider: func(*suite.Task) (llm.Provider, error) { return nullagent.Noop{}, nil }}
	if f.agent == nullagent.NameRandom {
		seed := f.seed
		a.Name = fmt.Sprintf("%s --seed %d", nullagent.NameRandom, seed)
		a.Provider = func(*suite.Task) (llm.Provider, error) { return nullagent.NewRandom(server, seed), nil }
	}
	return a, nil
}
