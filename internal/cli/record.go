package cli

import (
	"cmp"
	"fmt"
	"path/filepath"
	"sync"

	"contractbench/internal/inputs"
	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

const recordHelp = `
Runs tasks like "run" and writes each one's tool calls as a transcript,
<out>/<task>.jsonl (default <suite>/transcripts/<server>/). The reference
agent plays the task spec's scripted solution (recorded_by: reference); an
LLM agent records recorded_by: anthropic:<model> or openai:<model> and
needs CONTRACTBENCH_REAL=1 and the provider's key; an outside agent
(--agent exec --agent-cmd) records exec:<model>, the model being what
--model names (exec:unnamed without it).

The judge grades every task as usual. A transcript whose contract failed is
not written unless --keep-failing is given, so the replay suite only holds
runs that passed; even then it is never written over an existing
transcript without --overwrite. A task that did not finish (interrupted,
timed out, over budget, a harness error) is never written.
`

func runRecord(st *State, args []string) error {
	fs := newFlags(st, "contractbench record --agent reference|anthropic|openai|exec [--task ID]... [flags]", recordHelp)
	f := runFlags{repeat: 1}
	f.register(fs, agentReference, "reference, anthropic (alias claude), openai or exec (your own, --agent-cmd)")
	out := fs.String("out", "", "transcript folder (default <suite>/transcripts/<server>)")
	keep := fs.Bool("keep-failing", false, "also write transcripts of finished tasks whose contract failed (never over an existing transcript without --overwrite)")
	overwrite := fs.Bool("overwrite", false, "with --keep-failing: write a failing transcript over an existing one")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := f.resolve(fs); err != nil {
		return err
	}
	if f.agent == llm.NameReplay {
		return usagef("record: --agent %s replays transcripts; record with reference, anthropic or openai", f.agent)
	}
	ls, plan, err := planRun(st, &f)
	if err != nil {
		return err
	}
	dir := cmp.Or(*out, filepath.Join(ls.Dir, "transcripts", f.server))
	header := func(t *suite.Task, p llm.Provider) transcript.Header {
		digest, _ := inputs.TaskDigest(t) // the task loaded, so it has a canonical form
		h := transcript.Header{Task: t.ID, TaskDigest: digest, Server: f.server, Created: st.Now().UTC().Truncate(1e9)}
		switch {
		case f.agent == agentReference:
			h.RecordedBy = transcript.RecordedByReference
		case p == nil: // an outside agent: what it runs is what --model says
			h.RecordedBy, h.Model = transcript.RecordedBy(agentExec, execModel(f.model)), execModel(f.model)
		default:
			h.RecordedBy, h.Model = transcript.RecordedBy(p.Name(), p.Model()), p.Model()
		}
		return h
	}
	var mu sync.Mutex
	var writeErrs []error
	done := func(t *suite.Task, r *report.TaskResult, rec *transcript.Recorder) {
		mu.Lock()
		defer mu.Unlock()
		path := filepath.Join(dir, t.ID+".jsonl")
		switch {
		case rec == nil:
			fmt.Fprintf(st.Stdout, "%s: %s: nothing recorded (%s)\n", t.ID, r.Outcome, r.Reason)
		case r.Outcome == report.OutcomeFailed && !*keep:
			fmt.Fprintf(st.Stdout, "%s: %s: transcript not written (the contract must pass; --keep-failing writes it anyway)\n", t.ID, r.Outcome)
		case !r.Outcome.Passed() && r.Outcome != report.OutcomeFailed:
			// Interrupted, timed out, over budget, broken: the agent did
			// not finish, so the recording is not a run of the task.
			fmt.Fprintf(st.Stdout, "%s: %s: transcript not written (only a finished task is recorded)\n", t.ID, r.Outcome)
		case !r.Outcome.Passed() && fileExists(path) && !*overwrite:
			fmt.Fprintf(st.Stdout, "%s: %s: transcript not written over the existing %s (--overwrite replaces it)\n", t.ID, r.Outcome, path)
		default:
			if err := rec.WriteFile(path); err != nil {
				writeErrs = append(writeErrs, err)
				return
			}
			fmt.Fprintf(st.Stdout, "%s: %s: wrote %s (%d calls)\n", t.ID, r.Outcome, path, r.ToolCalls)
		}
	}
	run := execute(st, plan, runner.Hooks{Transcripts: header, TaskDone: done})
	if err := saveRecording(st, plan.Recorder(), recordedArchiveDir(ls.Dir, f.recordTo)); err != nil {
		return err
	}
	if len(writeErrs) > 0 {
		return fmt.Errorf("write transcripts: %v", writeErrs)
	}
	return verdictOf(st, run, report.VerdictOptions{RecordHint: f.recordHint})
}
