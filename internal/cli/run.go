package cli

import (
	"flag"

	"contractbench/internal/report"
	"contractbench/internal/runner"
)

var runCommand = command{
	name:    "run",
	summary: "run the suite's tasks with an agent and judge them by contract",
	run:     runRun,
}

const runHelp = `
Runs tasks of a suite: for each task a fresh browser context (or with
--isolate process a fresh Chromium), the judge's own CDP session, the MCP
tool server and the agent; then the judge captures the browser's final
state and contract.Evaluate grades it. Prints the table, writes the report
and with --gate checks the suite's baseline.json.

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
--browser-url URL uses a running browser instead of launching one, once
per worker (repeat the flag, or pass a file with one endpoint a line; -j
defaults to their number): any Chromium with a DevTools endpoint, here or
elsewhere. Under --isolate context the replay web reaches it through the
contexts' proxies; under --isolate process it can only use its own
network (--web live). The report says which (its "browsers" line).

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

// traceUsage documents --trace for run and compare.
const traceUsage = "thumbnails of the page after each tool call, taken by the judge: auto (on up to 20 task attempts, else failed), on, failed (kept for results that did not pass) or off"

// runFlags are the flags run and record share.
type runFlags struct {
	runOptions
	tasks  stringList
	web    string
	prices stringList
}

// register adds the shared flags to fs; the agent flag gets its default
// and usage from the command.
func (f *runFlags) register(fs *flag.FlagSet, agent, agentUsage string) {
	fs.StringVar(&f.suiteDir, "suite", defaultSuite, "suite folder")
	fs.Var(&f.tasks, "task", "task id or number prefix (repeatable; default all)")
	fs.StringVar(&f.agent, "agent", agent, agentUsage)
	fs.StringVar(&f.server, "server", "builtin", "MCP tool server: builtin, playwright or chrome-devtools (see --servers)")
	fs.StringVar(&f.serversFile, "servers", "", "file describing the MCP tool servers (default: servers.yaml beside the suite folder)")
	fs.StringVar(&f.web, "web", "replay", "replay (hermetic fixture web), live (real network) or record (live, saving an archive)")
	fs.IntVar(&f.parallel, "j", 1, "tasks run in parallel (workers), each worker with a browser of its own")
	fs.StringVar(&f.isolate, "isolate", "", "how tasks are kept apart: context (a browser per worker, a fresh browser context per task; the default for servers that can be confined to one) or process (a browser per task; the default for the peers)")
	fs.StringVar(&f.model, "model", "", "model for paid agents (default: the provider's)")
	fs.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible server URL for --agent openai")
	fs.StringVar(&f.runOptions.recordTo, "record-to", "", "with --web record: folder the captured archive is written to (default <suite>/web-recorded)")
	fs.StringVar(&f.agentCmd, "agent-cmd", "", "with --agent exec: the agent's command, run with sh -c for each task (docs/agents.md)")
	fs.BoolVar(&f.agentCDP, "agent-cdp", false, "with --agent exec: also give the agent the browser's raw CDP endpoint; every verdict is then labelled unrestricted and never counts as passed")
	fs.Var(&f.prices, "price", "price of a model missing from the table: MODEL=IN,OUT[,CACHE_READ,CACHE_WRITE] USD per million tokens (repeatable)")
}

// options returns the parsed flags as run options.
func (f *runFlags) options() runOptions {
	o := f.runOptions
	o.tasks, o.web, o.prices = f.tasks, runner.Web(f.web), f.prices
	return o
}

func runRun(st *State, args []string) error {
	fs := newFlags(st, "contractbench run [flags]", runHelp)
	var f runFlags
	defaultAgent := st.Getenv("CONTRACTBENCH_AGENT")
	if defaultAgent == "" {
		defaultAgent = "replay"
	}
	f.register(fs, defaultAgent, "replay (alias mock), reference, anthropic (alias claude), openai, exec (your own, --agent-cmd), or a null agent: noop or random; env CONTRACTBENCH_AGENT")
	fs.Uint64Var(&f.seed, "seed", defaultSeed, "seed of --agent random: the same seed plays the same actions on the same page")
	fs.IntVar(&f.repeat, "repeat", 1, "run every task K times (pass counts and a 95% Wilson interval)")
	out := fs.String("out", "", "report folder (default <suite>/reports)")
	gate := fs.Bool("gate", false, "fail unless every task of baseline.json passed")
	fs.Var((*stringList)(&f.browserURLs), "browser-url", "DevTools endpoint of a running browser for a worker, instead of launching one (repeatable: one per worker, -j defaults to their number), or a file of them, one a line")
	fs.StringVar(&f.transcripts, "transcripts", "", "folder of transcripts to replay (default <suite>/transcripts/<server>)")
	shard := fs.String("shard", "", "run only part I of N of the selected task attempts (I/N); merge the parts' reports with merge")
	resume := fs.String("resume", "", "report JSON of an earlier run of the same selection: run only the attempts it lacks or that ended in a harness error, keep the rest")
	fs.StringVar(&f.runOptions.trace, "trace", "auto", traceUsage)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("run: unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(fl *flag.Flag) { f.parallelSet = f.parallelSet || fl.Name == "j" })
	if err := checkSeed(fs, f.agent); err != nil {
		return err
	}
	if f.parallel < 1 || f.repeat < 1 {
		return usagef("run: -j and --repeat must be at least 1")
	}
	cfg, err := newRunConfig(st, f.options())
	if err != nil {
		return err
	}
	if *shard != "" {
		s, err := report.ParseShard(*shard)
		if err != nil {
			return usagef("run: --shard: %v", err)
		}
		cfg.Settings.Shard = &s
	}
	if *resume != "" {
		if cfg.Keep, err = resumable(st, *resume, cfg); err != nil {
			return err
		}
	}
	// Load the baseline before running, so a broken one fails fast.
	var baseline *report.Baseline
	if *gate {
		if baseline, err = loadBaseline(cfg.Suite); err != nil {
			return err
		}
	}
	dir := *out
	if dir == "" {
		dir = cfg.Suite.ReportsDir()
	}
	// A report that cannot be written would lose the whole run (with a
	// paid agent, real money): find out before the first task.
	if err := report.CheckDir(dir); err != nil {
		return usagef("--out: %v", err)
	}
	run, err := execute(st, cfg)
	if err != nil {
		return err
	}
	if err := saveRecording(st, cfg, recordedArchiveDir(cfg, f.runOptions.recordTo)); err != nil {
		return err
	}
	run.GitSHA = gitSHA(st, cfg.Suite.Dir)
	if err := writeReport(st, dir, run); err != nil {
		return err
	}
	return verdictOf(st, run, baseline)
}
