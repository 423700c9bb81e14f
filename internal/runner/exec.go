package runner

import (
	"context"
	"io"

	"contractbench/internal/agent"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
	"contractbench/internal/transcript"
)

// ExecAgent is an outside agent: a command run for each task with the
// environment contract of docs/agents.md.
type ExecAgent struct {
	// Command is run with `sh -c` in a process group of its own.
	Command string
	// Env is the command's base environment.
	Env []string
	// CDP gives the agent the browser's DevTools endpoint as well. Every
	// verdict of such a run is labelled report.TrustUnrestricted and never
	// counts as passed.
	CDP bool
	// Model names what the agent runs, for the report and for pricing the
	// tokens it reports without a cost.
	Model string
	// Version is the version the agent's MCP endpoint reports.
	Version string
	// Stderr receives the agent's stderr; nil discards it.
	Stderr io.Writer
}

// runExec runs the outside agent against session, its tool calls counted,
// recorded and marked in the judge's network log like the built-in loop's.
func (r *taskRun) runExec(ctx context.Context, session *mcpclient.Session, budget *llm.Budget, rec *transcript.Recorder) *agent.Outcome {
	x := r.cfg.Agent.Exec
	opts := agent.ExecOptions{
		Command:     x.Command,
		Env:         x.Env,
		Task:        r.task.ID,
		Instruction: r.task.Instruction,
		StartURL:    r.task.StartURL,
		Budget:      budget,
		Model:       x.Model,
		Recorder:    rec,
		Stderr:      x.Stderr,
		Version:     x.Version,
		BeforeCall:  r.beforeCall,
	}
	if x.CDP {
		opts.CDPURL = r.judge.ServerURL()
	}
	return agent.RunExec(ctx, session, opts)
}

// beforeCall marks the judge's network log and reports progress before
// each tool call.
func (r *taskRun) beforeCall(seq int, tool string) {
	r.judge.MarkToolCall()
	r.cfg.Progress(Event{Task: r.task.ID, Attempt: r.attempt, Step: "call", Seq: seq, Tool: tool, Elapsed: r.cfg.Now().Sub(r.start)})
}
