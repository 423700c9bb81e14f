package cli

import (
	"cmp"

	"contractbench/internal/report"
	"contractbench/internal/runner"
)

const runHelp = `
Runs tasks of a suite: for each task a fresh browser context (or with
--isolate process a fresh Chromium), the judge's own CDP session, the MCP
tool server and the agent; then the judge captures the browser's final
state and contract.Evaluate grades it. Writes the report, prints a line
per task (with the failing clauses' evidence under each that did not
pass), with --gate checks the suite's baseline.json, and ends with a
table: the suite, its score with the 95% Wilson interval, the gate's
verdict and the paths of the Markdown, JSON and HTML reports. The whole
Markdown report is printed only with --markdown; --summary FILE appends
the table's row to FILE as well, so several runs end with one table.

Browsers: each of the -j workers keeps one Chromium for all its tasks and
gives every task a fresh browser context in it (cookies, storage, cache
and permissions of its own, disposed after the task), the task's web
reaching it through the context's proxy (--isolate context, the default).
A browser that crashes ends its task as an error; the worker starts a new
one for the next. While the workers are fewer than the processors, a
worker whose tasks are quick (under 2 s, as replayed ones are) sets its
next task up (context, judge, start page, tool server) while the current
one's agent runs; a task's duration is its set-up and its run, never its
wait. --isolate process launches a Chromium per task instead;
it is the default for servers that cannot be confined to a browser
context (the peers, whose commands take no {browser_context}) and for
--agent-cdp, whose agent holds the whole browser.
--browsers N shares N browsers among the -j workers (worker i on browser
i mod N), every task still in a browser context of its own: -j counts
tasks held open, not Chromiums (docs/benchmarks/capacity.md measures
what one machine holds). A browser that crashes then ends every task
running in it as an error. Under --isolate process (the peers) each task
has a Chromium of its own, about 330 MiB with its tool server's process
besides, so -j is bounded by memory there and --browsers is refused.
--browser-url URL uses a running browser instead of launching one, once
per worker (repeat the flag, or pass a file with one endpoint a line; -j
defaults to their number): any Chromium with a DevTools endpoint, here or
elsewhere. Under --isolate context the replay web reaches it through the
contexts' proxies; under --isolate process it can only use its own
network (--web live). The report says which (its "browsers" line).
The Chromium launched is Debian's headless shell
(chromium-headless-shell), else its full chromium, run --headless=new;
the env CONTRACTBENCH_CHROMIUM names another binary. A task costs 30 to
50% less CPU on the shell, and the judge sees the same on both
(docs/decisions/0041-the-headless-shell.md).

The report is <out>/<name>.{md,json,html} plus <out>/junit.xml (the latest
run's). The default run of a commit (replay agent, builtin server, replay
web, every task, no --repeat) is named <git-sha> (with -dirty when the tree
has changes); any other run is named
<git-sha>-<agent>[-<model>]-<server>-<web>-<selection>[-x<repeat>], so runs
of different kinds never overwrite each other. <out> is checked to be
writable before the first task; if writing still fails at the end, the
report goes to a new temporary folder that is named on stderr.
The HTML page is self-contained: every task's evidence, screenshot, and
tool calls with the judge's thumbnail of the page after each (--trace).

The default agent replays the recorded transcripts (CI's mode: no network,
no API key). Paid agents need CONTRACTBENCH_REAL=1 and the provider's key
(ANTHROPIC_API_KEY, OPENAI_API_KEY); --web live needs the network. Tasks on
the sandbox's own sites (benchmarks/sandbox) run with --web replay only.

--pace makes the replay agent wait before each model turn as a model
would: a duration (3s), or recorded, the think times of a model's run
(transcripts recorded from an anthropic or openai run keep each turn's
think_ms; older ones and reference transcripts have none, and are
refused). --pace-jitter adds a seeded offset to each wait (--seed). A
paced run holds its tasks open as a model's run would; the waits are the
agent's time, in each task's duration and in none of its calls'.

To test the harness, CONTRACTBENCH_WEB_FAULTS=FILE makes the web of every
task fail on purpose while FILE holds 500 (it answers every request with a
500) or reset (it drops every connection): an attempt whose web failed so
ends as a harness error, never against the agent (make bench-chaos).

Two null agents check the contracts rather than an agent, and run no model:
noop answers at once without a tool call, and random (--seed N) reads the
page through the server's read action and plays up to 30 random calls on
it (click a link or button, type random words into a field, press a key,
go back, read), never navigating anywhere of its own. A contract either of
them satisfies is broken: every suite must score 0 with both.

Exit codes: 0 every task passed (and the gate, with --gate); 1 a task or the
gate failed; 2 bad usage or input file; 3 a task ended in a harness error;
130 the run was interrupted (Ctrl-C, SIGTERM, a closed terminal).
`

// maxTotalUsage documents --max-total-usd for run and compare.
const maxTotalUsage = "stop starting attempts before the spend could pass this many USD in all (each running attempt counts at its max_usd cap); 0 for no limit"

// traceUsage documents --trace for run and compare.
const traceUsage = "thumbnails of the page after each tool call, taken by the judge: auto (on up to 20 task attempts; past that failed, or off for the reference, replay and null agents, which a rerun repeats), on, failed (kept for results that did not pass) or off"

func runRun(st *State, args []string) error {
	fs := newFlags(st, "contractbench run [flags]", runHelp)
	var f runFlags
	defaultAgent := cmp.Or(st.Getenv("CONTRACTBENCH_AGENT"), "replay")
	f.register(fs, defaultAgent, "replay (alias mock), reference, anthropic (alias claude), openai, exec (your own, --agent-cmd), or a null agent: noop or random; env CONTRACTBENCH_AGENT")
	fs.Float64Var(&f.maxTotalUSD, "max-total-usd", 0, maxTotalUsage)
	fs.Uint64Var(&f.seed, "seed", defaultSeed, "seed of --agent random: the same seed plays the same actions on the same page")
	fs.IntVar(&f.repeat, "repeat", 1, "run every task K times (pass counts and a 95% Wilson interval)")
	out := fs.String("out", "", "report folder (default <suite>/reports)")
	gate := fs.Bool("gate", false, "fail unless every task of baseline.json passed")
	markdown := fs.Bool("markdown", false, "print the whole Markdown report before the verdicts (it is always written to <out>/<name>.md)")
	summary := fs.String("summary", "", "also append the run's row of the closing table to this file, the header first when it is new (make bench collects its suites' rows so)")
	fs.Var(&f.browserURLs, "browser-url", "DevTools endpoint of a running browser for a worker, instead of launching one (repeatable: one per worker, -j defaults to their number), or a file of them, one a line")
	fs.StringVar(&f.transcripts, "transcripts", "", "folder of transcripts to replay (default <suite>/transcripts/<server>)")
	fs.StringVar(&f.shard, "shard", "", "run only part I of N of the selected task attempts (I/N); merge the parts' reports with merge")
	fs.StringVar(&f.resume, "resume", "", "report JSON of an earlier run of the same selection: run only the attempts it lacks or that ended in a harness error, keep the rest")
	fs.StringVar(&f.trace, "trace", "auto", traceUsage)
	fs.StringVar(&f.pace, "pace", "", "with --agent replay: wait before each model turn as a model would: recorded (the think times the transcripts recorded; refused for transcripts without them) or a duration (3s); the waits are the agent's time")
	fs.DurationVar(&f.paceJitter, "pace-jitter", 0, "with --pace: add to each wait a uniform offset within ± this duration, drawn from --seed, the task and the attempt")
	fs.IntVar(&f.browsers, "browsers", 0, "with --isolate context: the number of browsers the -j workers share, each task still in a browser context of its own (default: one per worker); under --isolate process every task has a Chromium of its own")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := f.resolve(fs); err != nil {
		return err
	}
	ls, plan, err := planRun(st, &f)
	if err != nil {
		return err
	}
	// The baseline was checked with the suite, so a broken one has failed
	// already; a missing one fails here, before the first task.
	var baseline *report.Baseline
	if *gate {
		if baseline = ls.Baseline; baseline == nil {
			return usagef("--gate: the suite has no %s", ls.BaselineFile())
		}
	}
	dir := cmp.Or(*out, ls.ReportsDir())
	// A report that cannot be written would lose the whole run (with a
	// paid agent, real money): find out before the first task.
	if err := report.CheckDir(dir); err != nil {
		return usagef("--out: %v", err)
	}
	if err := checkSummaryFile(*summary); err != nil {
		return err
	}
	limit, err := spendLimit(st, f.maxTotalUSD, []*runner.Plan{plan})
	if err != nil {
		return err
	}
	run := execute(st, plan, limit.Hooks(plan))
	if err := saveRecording(st, plan.Recorder(), recordedArchiveDir(ls.Dir, f.recordTo)); err != nil {
		return err
	}
	paths, err := writeReport(st, dir, run, *markdown)
	if err != nil {
		return err
	}
	if err := spendStop(limit); err != nil {
		return err
	}
	// A failed write to stdout does not change what the run decided.
	v, _ := report.WriteVerdicts(st.Stdout, run, report.VerdictOptions{Baseline: baseline, RecordHint: f.recordHint})
	if err := writeRunTable(st.Stdout, report.NewRunRow(ls.Dir, run, v, baseline != nil, paths), *summary); err != nil {
		return err
	}
	return verdictErr(run, v)
}
