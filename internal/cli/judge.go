package cli

import (
	"bufio"
	"context"
	"fmt"

	"contractbench/internal/judge"
	"contractbench/internal/report"
)

const judgeHelp = `
Bring your own agent: attaches the judge to a running Chromium (started with
--remote-debugging-port), waits while your agent does the task in it, then
captures the final state and grades the task's contract with
contract.Evaluate. The judge records the network log and dialogs from the
moment it attaches, so attach it before your agent starts; press Enter (or
close stdin, or send Ctrl-C) when the agent is done. The judge cannot see
your agent's actions, so the agent's network window opens when the judge
attaches. With --now it grades the current state at once (network clauses
then see nothing).

Before grading, the judge waits for the page to settle and runs the page's
own clock a few seconds ahead, so that a state the page was about to
replace does not pass (docs/contracts.md, "What the judge sees"). After
that the page's clock stands still: grade last.

Every verdict is labelled "trust: unrestricted agent": your agent holds the
browser's raw CDP endpoint, with which it can run script in the page or
rewrite the DOM the judge reads, so a contract that holds says what the
final state was, not that the agent reached it by doing the task. It is
never reported as passed (docs/agents.md). For a verdict that counts, run
your agent with "contractbench run --agent exec", which gives it the
harness's MCP tool server instead.

Exits 0 when the contract holds (labelled, not passed) and 1 when it does
not.
`

func runJudge(st *State, args []string) error {
	fs := newFlags(st, "contractbench judge --task ID --browser-url URL [--now]", judgeHelp)
	suiteDir := fs.String("suite", defaultSuite, "suite folder")
	taskID := fs.String("task", "", "task whose contract to grade (required)")
	browserURL := fs.String("browser-url", "", "DevTools endpoint of the browser, http://127.0.0.1:9222 (required)")
	now := fs.Bool("now", false, "grade at once instead of waiting for Enter")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *taskID == "" || *browserURL == "" {
		return usagef("judge: --task and --browser-url are required")
	}
	// The browser is the caller's: only the task and the suite's
	// screenshot classes are needed.
	ls, err := loadSuite(*suiteDir, "")
	if err != nil {
		return err
	}
	tasks, err := ls.Select([]string{*taskID})
	if err != nil {
		return asUsage(err)
	}
	task, classes := tasks[0], ls.Classes
	ctx, cancel := st.Context()
	defer cancel()
	j, err := judge.Attach(ctx, *browserURL, judge.Options{})
	if err != nil {
		return fmt.Errorf("attach the judge to %s: %w", *browserURL, err)
	}
	defer j.Close()
	if !*now {
		// The agent starts after the judge attached; its requests count
		// from now.
		j.MarkToolCall()
		fmt.Fprintf(st.Stderr, "judge attached to %s for %s.\nInstruction for your agent: %s\nPress Enter when the agent is done.\n",
			*browserURL, task.ID, task.Instruction)
		done := make(chan struct{})
		go func() {
			bufio.NewReader(st.Stdin).ReadString('\n')
			close(done)
		}()
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
	v, obs, err := j.Grade(context.WithoutCancel(ctx), task.Postconditions, classes)
	if err != nil {
		return fmt.Errorf("observe: %w", err)
	}
	// A failed write to stdout does not change the verdict.
	report.WriteUnrestrictedVerdict(st.Stdout, task.ID, v, &obs)
	if !v.Passed {
		return failed("")
	}
	return nil
}
