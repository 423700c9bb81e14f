package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/cdpconn"
	"contractbench/internal/inputs"
	"contractbench/internal/llm"
	"contractbench/internal/nullagent"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/servers"
	"contractbench/internal/webreplay"
)

// A run is planned in two steps, each once: loadSuite reads the suite's
// files (the ones validate checks, with the same code), and newPlan checks
// the flags, reads what else the run needs, and has the runner check the
// whole and make it the run's plan, which nothing changes after.

// agentReference runs a task's scripted reference solution.
const agentReference = "reference"

// runFlags are the flags of run, record, compare and web check as parsed:
// a field a flag, of the type the flag parses into.
type runFlags struct {
	suiteDir, server, model, baseURL, agentCmd string
	// agent is --agent, once parsed resolved to the name all after use.
	agent string
	// web is --web: replay, live or record; recordTo is where record
	// writes its capture.
	web, recordTo string
	// serversFile describes the tool servers (default: beside the suite);
	// transcripts is the folder replay reads from (default: the suite's).
	serversFile, transcripts string
	// isolate is --isolate: context, process, or empty for the default.
	isolate string
	// trace is --trace: auto, on, failed or off; empty is off.
	trace string
	// shard is --shard I/N; resume the report --resume continues.
	shard, resume string
	tasks, prices stringList
	// browserURLs attach the workers to running browsers, one each,
	// instead of launching them (--browser-url, each a URL or a file of
	// them).
	browserURLs      stringList
	parallel, repeat int
	// parallelSet reports that -j was given; without it, -j is the number
	// of browser endpoints.
	parallelSet bool
	agentCDP    bool
	seed        uint64
	// maxTotalUSD, when positive, is the most a run (or a compare's
	// runs together) may spend (--max-total-usd).
	maxTotalUSD float64
	// pace is run's --pace: empty, "recorded" or a duration; paceJitter
	// its --pace-jitter. browsers is --browsers (0: one per worker).
	pace       string
	paceJitter time.Duration
	browsers   int
}

// register adds the flags run and record share to fs; the agent flag gets
// its default and usage from the command.
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
	fs.StringVar(&f.recordTo, "record-to", "", "with --web record: folder the captured archive is written to (default <suite>/web-recorded)")
	fs.StringVar(&f.agentCmd, "agent-cmd", "", "with --agent exec: the agent's command, run with sh -c for each task (docs/agents.md)")
	fs.BoolVar(&f.agentCDP, "agent-cdp", false, "with --agent exec: also give the agent the browser's raw CDP endpoint; every verdict is then labelled unrestricted and never counts as passed")
	fs.Var(&f.prices, "price", "price of a model missing from the table: MODEL=IN,OUT[,CACHE_READ,CACHE_WRITE] USD per million tokens (repeatable)")
}

// resolve checks what the parsed flags of fs say alone, and resolves
// --agent, once, to the name everything after uses: reference, exec,
// noop, random, or a provider's (replay for mock, anthropic for claude).
func (f *runFlags) resolve(fs *flag.FlagSet) error {
	seedSet := false
	fs.Visit(func(fl *flag.Flag) {
		f.parallelSet = f.parallelSet || fl.Name == "j"
		seedSet = seedSet || fl.Name == "seed"
	})
	switch f.agent {
	case agentReference, agentExec, nullagent.NameNoop, nullagent.NameRandom:
	default:
		name, err := llm.ResolveName(f.agent)
		if err != nil {
			return usagef("unknown agent %q: want replay (alias mock), reference, anthropic (alias claude) or openai", f.agent)
		}
		f.agent = name
	}
	if seedSet && f.agent != nullagent.NameRandom && f.paceJitter == 0 {
		return usagef("--seed applies only to --agent %s and to --pace-jitter", nullagent.NameRandom)
	}
	if f.parallel < 1 || f.repeat < 1 {
		return usagef("%s: -j and --repeat must be at least 1", fs.Name())
	}
	return nil
}

// recordHint is the command that records task's transcript for a run of
// f, to copy as it is.
func (f *runFlags) recordHint(task string) string {
	return inputs.RecordHint(f.suiteDir, f.server, f.serversFile, task)
}

// loadSuite loads the suite in dir for a run with the tool servers of
// serversFile ("" for the suite's own); its problems are usage errors.
func loadSuite(dir, serversFile string) (*inputs.Suite, error) {
	ls, err := inputs.Load(dir, serversFile)
	return ls, asUsage(err)
}

// planRun loads the suite f names and plans a run of f on it.
func planRun(st *State, f *runFlags) (*inputs.Suite, *runner.Plan, error) {
	ls, err := loadSuite(f.suiteDir, f.serversFile)
	if err != nil {
		return nil, nil, err
	}
	plan, err := newPlan(st, f, ls)
	return ls, plan, err
}

// newPlan checks what a run of f asks of the suite ls, reads what else it
// needs (the transcripts when they are not the suite's, the report it
// resumes), and has runner.NewPlan check the rest and make it the run's
// plan; then, for a run on the live web, it checks that the network is
// there (runner.ProbeNetwork). A bad flag, task or input ends the
// command with a usage error before anything starts.
func newPlan(st *State, f *runFlags, ls *inputs.Suite) (*runner.Plan, error) {
	tasks, err := ls.Select(f.tasks)
	if err != nil {
		return nil, asUsage(err)
	}
	server, root, err := inputs.Server(ls.Servers, ls.ServersFile, f.server)
	if err != nil {
		return nil, asUsage(err)
	}
	spec := runner.Spec{
		Suite: ls.Suite, GitSHA: inputs.Commit(ls.Dir, st.Now()), Tasks: tasks, Repeat: f.repeat, Classes: ls.Classes,
		Server:     runner.Server{Name: f.server, Start: serverFunc(st, server, root, ls.UploadsDir()), Allow: server.Allow(), Unsafe: server.UnsafeTools()},
		Provenance: report.Provenance{Contractbench: buildVersion()},
	}
	if pkg := server.Package(); pkg != nil {
		spec.Provenance.ServerPackage = pkg.Name + "@" + pkg.Version
	}
	setWeb(&spec, f, ls)
	if file := st.Getenv("CONTRACTBENCH_WEB_FAULTS"); file != "" {
		spec.WebFaults = webreplay.FaultFile(file)
	}
	if err := setBrowsers(st, &spec, f, server); err != nil {
		return nil, err
	}
	if spec.Prices, err = loadPrices(f.prices); err != nil {
		return nil, err
	}
	spec.Trace = runner.Trace(f.trace)
	spec.Caps = llm.DefaultCaps()
	if spec.Inputs, err = inputs.TaskInputs(tasks); err != nil {
		return nil, err
	}
	if err := setAgent(st, &spec, f, ls, server); err != nil {
		return nil, err
	}
	if err := setSelection(&spec, f); err != nil {
		return nil, err
	}
	if spec.Pace, err = paceOf(f); err != nil {
		return nil, err
	}
	plan, err := runner.NewPlan(spec)
	if err != nil {
		return nil, planError(err)
	}
	if spec.Web == runner.WebLive || spec.Web == runner.WebRecord {
		if addr, err := runner.ProbeNetwork(st.Dial, tasks); err != nil {
			return nil, usagef("--web %s needs the network, but %s cannot be reached (%v); without it every task would end as an error or a failure blamed on the agent. Use --web replay for the hermetic fixture web", spec.Web, addr, err)
		}
	}
	return plan, nil
}

// setWeb sets what answers the browsers, as --web and --record-to say:
// under replay the suite's fixture archive, behind the sandbox's sites
// when it has them; under record a recorder of the live web, and where
// what it records goes. The live web needs neither. runner.NewPlan
// checks them against each other and the tasks.
func setWeb(spec *runner.Spec, f *runFlags, ls *inputs.Suite) {
	spec.Web, spec.RecordTo = runner.Web(f.web), f.recordTo
	switch {
	case spec.Web == runner.WebReplay && ls.Archive != nil:
		spec.Archive, spec.Sites = ls.Archive, runner.Sites(ls.Archive)
	case spec.Web == runner.WebRecord:
		spec.Recorder = webreplay.Record(webreplay.NewArchive("recorded by contractbench run --web record"),
			&http.Client{Timeout: 60 * time.Second})
	}
}

// setBrowsers sets how spec's tasks get their browsers: the isolation, how
// to launch a browser, or the running browsers the workers attach to
// instead (--browser-url), and the number of workers (-j, by default one
// per running browser). runner.NewPlan checks them and sets the
// isolation's default.
func setBrowsers(st *State, spec *runner.Spec, f *runFlags, server *servers.Profile) error {
	endpoints, err := browserEndpoints(f.browserURLs)
	if err != nil {
		return err
	}
	spec.Parallel = f.parallel
	if len(endpoints) > 0 && !f.parallelSet {
		spec.Parallel = len(endpoints)
	}
	spec.Isolate, spec.BrowserURLs, spec.Browsers = runner.Isolate(f.isolate), endpoints, f.browsers
	spec.Server.Unconfined = !server.Confined()
	spec.Browser = browser.Options{
		ExecPath:  st.Getenv("CONTRACTBENCH_CHROMIUM"),
		NoSandbox: st.Root,
		Env:       servers.ChildEnv(st.Environ()),
	}
	return nil
}

// runFlag names the flag of run that sets each field of a runner.Spec
// that runner.NewPlan checks.
var runFlag = map[runner.Field]string{
	runner.FieldIsolate: "--isolate", runner.FieldParallel: "-j", runner.FieldBrowsers: "--browsers",
	runner.FieldBrowserURLs: "--browser-url", runner.FieldWeb: "--web", runner.FieldPace: "--pace",
	runner.FieldResume: "--resume", runner.FieldAgentCDP: "--agent-cdp", runner.FieldAgent: "--agent",
	runner.FieldAgentCmd: "--agent-cmd", runner.FieldPaceJitter: "--pace-jitter", runner.FieldRecordTo: "--record-to",
	runner.FieldMaxTotalUSD: "--max-total-usd", runner.FieldTrace: "--trace", runner.FieldPrices: "--price",
}

// planError is runner.NewPlan's refusal as a usage error, naming the
// flags that set the fields it names.
func planError(err error) error {
	var fe *runner.FieldError
	if errors.As(err, &fe) {
		return usagef("%s", fe.Render(func(f runner.Field) string { return runFlag[f] }))
	}
	return asUsage(err)
}

// setSelection sets the part of the selection the run makes (--shard)
// and the report it resumes (--resume); runner.NewPlan checks that the
// report asked the same question.
func setSelection(spec *runner.Spec, f *runFlags) error {
	if f.shard != "" {
		s, err := report.ParseShard(f.shard)
		if err != nil {
			return usagef("run: --shard: %v", err)
		}
		spec.Shard = &s
	}
	if f.resume != "" {
		var err error
		if spec.Resume, err = readRunReport(f.resume, true); err != nil {
			return err
		}
	}
	return nil
}

// loadPrices returns the price table with the models of --price added.
func loadPrices(flags []string) (*llm.Prices, error) {
	prices, err := llm.DefaultPrices()
	if err != nil {
		return nil, err
	}
	for _, p := range flags {
		model, price, err := llm.ParsePrice(p)
		if err != nil {
			return nil, usagef("--price %q: %v", p, err)
		}
		if prices, err = prices.With(model, price); err != nil {
			return nil, usagef("--price %q: %v", p, err)
		}
	}
	return prices, nil
}

// setAgent sets what plays the agent of spec's tasks on server, as f
// names it, and how the report names it: an outside command (--agent
// exec), or a provider for each task (the reference solution, a replay of
// transcripts, a null agent or a paid model). Everything that can be
// checked before the run (keys, the paid-call opt-in, the model's price,
// transcripts) is checked here; runner.NewPlan checks that the agent is
// played one way, by a provider or by the command (--agent-cmd,
// --agent-cdp).
func setAgent(st *State, spec *runner.Spec, f *runFlags, ls *inputs.Suite, server *servers.Profile) error {
	a := runner.Agent{Name: f.agent, Model: f.model}
	var err error
	switch f.agent {
	case agentExec:
	case agentReference:
		a.Provider, err = runner.ReferenceAgent(spec.Tasks, server)
	case nullagent.NameNoop, nullagent.NameRandom:
		a, err = nullAgent(f, server)
	case llm.NameReplay:
		a.Replays, err = ls.Replays(spec.Tasks, f.server, f.transcripts, f.recordHint, spec.Inputs)
		a.Provider = runner.ReplayAgent(a.Replays)
	default:
		a.Provider, err = paidAgent(st, f, spec.Prices)
	}
	if f.agent == agentExec || f.agentCmd != "" || f.agentCDP {
		a.Exec = execAgent(st, f)
	}
	spec.Agent = a
	// Each refusal of the agent is the caller's: a flag, a key or a file.
	return asUsage(err)
}

// paceRecorded is the --pace that waits the think times transcripts
// recorded.
const paceRecorded = "recorded"

// paceOf parses --pace and --pace-jitter and returns the pace they ask
// for: none (nil), the recorded think times, or a duration before each
// turn, with a jitter drawn from --seed; runner.NewPlan checks it.
// --pace-jitter only modifies --pace: alone it is refused here, since
// without --pace the run has no Pace to give it to.
func paceOf(f *runFlags) (*runner.Pace, error) {
	if f.pace == "" {
		if f.paceJitter != 0 {
			return nil, usagef("--pace-jitter applies only with --pace")
		}
		return nil, nil
	}
	p := &runner.Pace{Recorded: f.pace == paceRecorded, Jitter: f.paceJitter, Seed: f.seed}
	if !p.Recorded {
		d, err := time.ParseDuration(f.pace)
		if err != nil || d < 0 {
			return nil, usagef("--pace %q: want recorded or a duration of zero or more (3s, 1m)", f.pace)
		}
		p.Fixed = d
	}
	return p, nil
}

// paidAgent checks the paid-call opt-in and the provider's key, and
// returns how to build each task's provider from the environment and
// flags (runner.PaidAgent checks that it builds, and the model's price).
func paidAgent(st *State, f *runFlags, prices *llm.Prices) (runner.ProviderFunc, error) {
	keyVar := "ANTHROPIC_API_KEY"
	if f.agent == llm.NameOpenAI {
		keyVar = "OPENAI_API_KEY"
	}
	key := st.Getenv(keyVar)
	if err := llm.Gate(st.Getenv("CONTRACTBENCH_REAL") == "1", key != "", f.agent); err != nil {
		return nil, asUsage(err)
	}
	anthropic := llm.AnthropicOptions{APIKey: key, BaseURL: st.Getenv("ANTHROPIC_BASE_URL"), Model: f.model}
	newProvider := func() (llm.Provider, error) { return llm.NewAnthropic(anthropic) }
	if f.agent == llm.NameOpenAI {
		opts := llm.OpenAIOptions{APIKey: key, BaseURL: cmp.Or(f.baseURL, st.Getenv("OPENAI_BASE_URL")), Model: f.model}
		newProvider = func() (llm.Provider, error) { return llm.NewOpenAI(opts) }
	}
	provider, err := runner.PaidAgent(newProvider, prices)
	return provider, planError(err)
}

// browserEndpoints reads --browser-url's values: each a DevTools endpoint
// (http://HOST:PORT or ws://...), or the name of a file of them, one a
// line (blank lines and # comments skipped).
func browserEndpoints(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		lines, at := []string{v}, func(int) string { return fmt.Sprintf("--browser-url %q", v) }
		if !strings.Contains(v, "://") {
			data, err := os.ReadFile(v)
			if err != nil {
				return nil, usagef("--browser-url %q: not a URL (http://HOST:PORT), and not a file of them: %v", v, err)
			}
			lines, at = strings.Split(string(data), "\n"), func(i int) string { return fmt.Sprintf("%s:%d", v, i+1) }
		}
		n := 0
		for i, line := range lines {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			u, err := cdpconn.Endpoint(line)
			if err != nil {
				return nil, usagef("%s: %v", at(i), err)
			}
			n, out = n+1, append(out, u)
		}
		if n == 0 {
			return nil, usagef("--browser-url %s: the file lists no endpoint", v)
		}
	}
	return out, nil
}

// serverFunc starts the server of profile for each task, over stdio, so
// the agent's tools cross a real MCP boundary. The built-in server is this
// binary's own "mcp" command; peers run from root/node_modules (make
// peers). Only an allow-list of the environment is passed on
// (servers.ChildEnv): no server has any use for keys or passwords.
func serverFunc(st *State, profile *servers.Profile, root, uploads string) runner.ServerFunc {
	return func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		return profile.Transport(servers.Spawn{Root: root, Self: st.Executable, CDPURL: browserURL, BrowserContext: browserContext,
			WorkDir: workDir, Environ: st.Environ(), Abort: ctx, Uploads: uploads})
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
