package cli

import (
	"contractbench/internal/report"
	"contractbench/internal/runner"
)

var runCommand = command{
	name:    "run",
	summary: "run the suite's tasks with an agent and judge them by contract",
	run:     runRun,
}

const runHelp = `
Runs tasks of a suite: for each task a fresh Chromium, the judge's own CDP
session, the MCP tool server and the agent; then the judge captures the
browser's final state and contract.Evaluate grades it. Writes the report to
<out>/<git-sha>.{md,json} (a -dirty suffix when the tree has changes) and
<out>/junit.xml, prints the table, and with --gate checks the suite's
baseline.json.

The default agent replays the recorded transcripts (CI's mode: no network,
no API key). Paid agents need CONTRACTBENCH_REAL=1 and the provider's key
(ANTHROPIC_API_KEY, OPENAI_API_KEY); --web live needs the network.

Exit codes: 0 every task passed (and the gate, with --gate); 1 a task or the
gate failed; 2 bad usage or input file; 3 a task ended in a harness error.
`

// runFlags registers the flags run and record share.
type runFlags struct {
	runOptions
	tasks stringList
	web   string
}

func runRun(st *State, args []string) error {
	fs := newFlags(st, "contractbench run [flags]", runHelp)
	var f runFlags
	defaultAgent := st.Getenv("CONTRACTBENCH_AGENT")
	if defaultAgent == "" {
		defaultAgent = "replay"
	}
	fs.StringVar(&f.suiteDir, "suite", defaultSuite, "suite folder")
	fs.Var(&f.tasks, "task", "task id or number prefix (repeatable; default all)")
	fs.StringVar(&f.agent, "agent", defaultAgent, "replay (alias mock), reference, anthropic (alias claude) or openai; env CONTRACTBENCH_AGENT")
	fs.StringVar(&f.server, "server", "builtin", "MCP tool server under test: builtin, playwright or chrome-devtools (see --servers)")
	fs.StringVar(&f.serversFile, "servers", "", "file describing the MCP tool servers (default: servers.yaml beside the suite folder)")
	fs.StringVar(&f.web, "web", "replay", "replay (hermetic fixture web), live (real network) or record (live, saving an archive)")
	fs.IntVar(&f.parallel, "j", 1, "tasks run in parallel, each with its own browser")
	fs.IntVar(&f.repeat, "repeat", 1, "run every task K times (pass counts and a 95% Wilson interval)")
	out := fs.String("out", "", "report folder (default <suite>/reports)")
	gate := fs.Bool("gate", false, "fail unless every task of baseline.json passed")
	fs.StringVar(&f.model, "model", "", "model for paid agents (default: the provider's)")
	fs.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible server URL for --agent openai")
	var prices stringList
	fs.Var(&prices, "price", "price of a model missing from the table: MODEL=IN,OUT[,CACHE_READ,CACHE_WRITE] USD per million tokens (repeatable)")
	fs.StringVar(&f.browserURL, "browser-url", "", "use this running browser instead of launching one (-j 1)")
	fs.StringVar(&f.transcripts, "transcripts", "", "folder of transcripts to replay (default <suite>/transcripts/<server>)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("run: unexpected argument %q", fs.Arg(0))
	}
	if f.parallel < 1 || f.repeat < 1 {
		return usagef("run: -j and --repeat must be at least 1")
	}
	f.runOptions.tasks, f.runOptions.web, f.prices = f.tasks, runner.Web(f.web), prices
	cfg, err := newRunConfig(st, f.runOptions)
	if err != nil {
		return err
	}
	// Load the baseline before running, so a broken one fails fast.
	var baseline *report.Baseline
	if *gate {
		if baseline, err = report.LoadBaseline(cfg.Suite.BaselineFile()); err != nil {
			return asUsage(err)
		}
	}
	dir := *out
	if dir == "" {
		dir = cfg.Suite.ReportsDir()
	}
	run, err := execute(st, cfg)
	if err != nil {
		return err
	}
	run.GitSHA = gitSHA(st, cfg.Suite.Dir)
	if err := writeReport(st, dir, run); err != nil {
		return err
	}
	return verdictOf(st, run, baseline)
}
