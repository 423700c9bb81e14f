// Package report owns the one result model of a benchmark run (Run, with its
// TaskResults) and every view of it: JSON (the machine-readable record,
// carrying schema_version), Markdown (the human report under
// reports/<git-sha>.md), HTML (one self-contained page per run, with each
// task's evidence tree and the timeline of its tool calls), JUnit XML (for
// CI systems), the verdict lines a command prints after a run
// (WriteVerdicts), the table of runs a run ends with (WriteRunTable), the
// verdict on a browser the agent held itself (WriteUnrestrictedVerdict),
// what a run of reference solutions says of its fixture web
// (WriteWebCheck), and the Summary the views share. It also owns the
// baseline gate that decides whether a run may pass CI.
//
// Every view renders the same Run; none of them computes anything another
// view could disagree with. Comparing runs (diff, the board, the servers
// side by side) is package compare's, which reads these Runs. Screenshots and the judge's step thumbnails are
// written beside the report as PNG and JPEG files and referenced by name in
// the JSON and Markdown, never embedded there; the HTML page embeds them
// so it can travel alone (LoadImages reads them back for a stored report).
//
// # Outcomes
//
// A task result is exactly one of passed, failed (the contract did not
// hold), replay_drift (the recorded transcript no longer matches the task,
// the tools or the responses), budget_exceeded (a token, iteration or cost
// cap was hit), timeout, error (the harness broke; the agent was not
// judged), tainted (the task's isolation was broken: the agent used a
// tool that could write the evidence, or asked the browser for this
// machine's files or the browser's own pages, so its final state proves
// nothing), or interrupted (the run was stopped, by Ctrl-C or a
// closed terminal, before the agent finished; the attempt is left out of
// the score, like one never started). Only passed is a success.
//
// Decide is the one rule that gives a result its outcome and reason, from
// what the result records: the judge's verdict, how the agent stopped
// (Stop), the call that tainted it (Taint) and the trust label. The runner
// and Regrade both decide by it, and a view only reads what it decided.
//
// Regrade grades a stored run again offline: each stored Observation gets
// the verdict of its task's contract as the suite has it now, reached by
// the judge's rule (the caller's Regrading.Evaluate, judge.Evaluate), with
// a warning wherever the Observation, captured for the contract of its
// day, cannot speak for the new one.
//
// # Numbers
//
// Summarize derives every number the views give: the score, passed over
// judged attempts with its Wilson interval; pass@k and pass^k per task and
// overall when every task was judged at least twice; and the smallest
// difference a comparison of runs of this size could detect, under
// DetectablePlan. A run with a trust label (TrustLabel) has none of the
// last two: its one number is Held, how often the contract held, which
// every view and the verdict lines give on a line of its own
// and which never counts as a pass. docs/statistics.md defines each.
//
// # The baseline gate
//
// baseline.json names the tasks CI protects and how many of them must pass:
//
//	{"expected_pass_count": 10, "tasks": ["task-01-example-com-title", ...], "note": "..."}
//
// The gate is strict, not a threshold: every covered task must pass in every
// attempt, and a covered task missing from the run fails the gate. For that
// reason expected_pass_count must equal the number of tasks listed; it is
// the headline number a reviewer sees change, and keeping it equal to the
// list stops either from drifting on its own. A baseline is raised, never
// lowered: CheckRaised rejects a smaller count and a dropped task.
//
// # Imports
//
// report depends on package contract (for Evidence and Observation),
// package stats (for pass@k, pass^k, the detectable difference and the
// intervals, so that every view shows the numbers of the one
// implementation docs/statistics.md defines) and the standard library
// only. It never imports the runner, agent, LLM or
// tool-server code, never reads the environment and never prints: callers
// pass an io.Writer or a directory.
package report
