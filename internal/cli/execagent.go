package cli

import (
	"cmp"
	"io"
	"sync"

	"contractbench/internal/runner"
)

// agentExec plays the agent with an outside command (--agent-cmd).
const agentExec = "exec"

// execAgent returns the outside agent of --agent exec, --agent-cmd and
// --agent-cdp. The command gets this process's whole environment: it is
// the user's own agent, and it may need its own keys (docs/agents.md).
func execAgent(st *State, f *runFlags) *runner.ExecAgent {
	return &runner.ExecAgent{
		Command: f.agentCmd,
		Env:     st.Environ(),
		CDP:     f.agentCDP,
		Model:   f.model,
		Version: buildVersion(),
		Stderr:  &lockedWriter{w: st.Stderr},
	}
}

// lockedWriter serializes the writes of agents that run in parallel
// (-j) to one stream.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// execModel is the model named in an outside agent's transcripts: what
// --model says, since the harness cannot see what the agent runs.
func execModel(model string) string {
	return cmp.Or(model, "unnamed")
}
