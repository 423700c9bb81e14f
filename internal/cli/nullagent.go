package cli

import (
	"contractbench/internal/nullagent"
	"flag"
	"fmt"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
)

// defaultSeed is the random agent's seed when --seed is not given.
const defaultSeed = 1

// nullAgent returns the player of a null agent (--agent noop or random),
// or nil when o.agent names neither. A null agent runs no model, so
// --model makes no sense with it.
func nullAgent(o runOptions, server *servers.Profile) (runner.ProviderFunc, error) {
	var p runner.ProviderFunc
	switch o.agent {
	case nullagent.NameNoop:
		p = func(*suite.Task) (llm.Provider, error) { return nullagent.Noop{}, nil }
	case nullagent.NameRandom:
		p = func(*suite.Task) (llm.Provider, error) { return nullagent.NewRandom(server, o.seed), nil }
	default:
		return nil, nil
	}
	if o.model != "" {
		return nil, usagef("--model %q: --agent %s is a null agent and runs no model", o.model, o.agent)
	}
	return p, nil
}

// checkSeed refuses --seed for any agent but random, which alone uses it.
func checkSeed(fs *flag.FlagSet, agentName string) error {
	var given bool
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "seed" })
	if given && agentName != nullagent.NameRandom {
		return usagef("--seed applies only to --agent %s", nullagent.NameRandom)
	}
	return nil
}

// markNull says in the report's settings that a null agent played and
// that no model ran; the random agent's seed goes with its name, as the
// flags that replay it.
func markNull(set *report.Settings, o runOptions) {
	switch o.agent {
	case nullagent.NameNoop:
	case nullagent.NameRandom:
		set.Agent = fmt.Sprintf("%s --seed %d", nullagent.NameRandom, o.seed)
	default:
		return
	}
	set.Model = "none (null agent: no model ran)"
}
