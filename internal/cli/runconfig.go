package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/browser"
	"contractbench/internal/cdpconn"
	"contractbench/internal/llm"
	"contractbench/internal/phash"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/webreplay"
)

// agentReference runs a task's scripted reference solution.
const agentReference = "reference"

// runOptions are the flags shared by run, record and web check.
type runOptions struct {
	suiteDir string
	tasks    []string
	agent    string
	server   string
	web      runner.Web
	parallel int
	repeat   int
	model    string
	baseURL  string
	prices   []string
	// browserURLs attach the workers to running browsers, one each,
	// instead of launching them (--browser-url, each a URL or a file of
	// them).
	browserURLs []string
	// parallelSet reports that -j was given; without it, -j is the number
	// of browser endpoints.
	parallelSet bool
	// isolate is --isolate: context, process, or empty for the default.
	isolate string
	// transcripts is the folder replay reads from (default: the suite's).
	transcripts string
	// serversFile describes the tool servers (default: beside the suite).
	serversFile string
	// recordTo is where --web record writes its capture.
	recordTo string
	// agentCmd and agentCDP configure --agent exec.
	agentCmd string
	agentCDP bool
	// seed seeds --agent random.
	seed uint64
	// trace is --trace: auto, on, failed or off; empty is off.
	trace string
}

// autoTraceAttempts is the largest run (tasks times attempts) that --trace
// auto traces in full; a larger one keeps thumbnails of the results that
// did not pass only. Past a few tasks a reader looks at failures, and the
// report stays small (docs/benchmarks/webvoyager.md gives the cost).
const autoTraceAttempts = 20

// traceMode resolves --trace for a run of attempts task attempts.
func traceMode(flag string, attempts int) (runner.Trace, error) {
	switch flag {
	case "", "off":
		return runner.TraceOff, nil
	case "on":
		return runner.TraceOn, nil
	case "failed":
		return runner.TraceFailed, nil
	case "auto":
		if attempts <= autoTraceAttempts {
			return runner.TraceOn, nil
		}
		return runner.TraceFailed, nil
	}
	return "", usagef("unknown --trace %q: want auto, on, failed or off", flag)
}

// newRunConfig checks every input a run needs before anything starts, so a
// bad flag, task, transcript or archive ends the command with a usage
// error and no report: first what the run reads (loadRun), then what plays
// its agent (chooseAgent).
func newRunConfig(st *State, o runOptions) (*runner.Config, error) {
	cfg, server, err := loadRun(st, o)
	if err != nil {
		return nil, err
	}
	if err := chooseAgent(st, cfg, server, o); err != nil {
		return nil, err
	}
	return cfg, nil
}

// loadRun loads and checks what a run of o reads, whatever plays its
// agent: the suite and the selected tasks, the tool server's profile, the
// web, the browsers, prices, caps and screenshot classes. It returns the
// run's configuration without an agent, and the server's profile, which
// chooseAgent needs.
func loadRun(st *State, o runOptions) (*runner.Config, *servers.Profile, error) {
	s, tasks, err := loadSuite(o.suiteDir, o.tasks)
	if err != nil {
		return nil, nil, err
	}
	server, root, err := serverProfile(o.serversFile, o.suiteDir, o.server)
	if err != nil {
		return nil, nil, err
	}
	if err := checkWeb(o, tasks); err != nil {
		return nil, nil, err
	}
	cfg := &runner.Config{
		Suite:  s,
		Tasks:  tasks,
		Server: serverFunc(st, server, root),
		Allow:  server.Allow(),
		Unsafe: server.UnsafeTools(),
		Web:    o.web,
		Repeat: max(o.repeat, 1),
		Now:    st.Now,
	}
	if err := setBrowsers(st, cfg, o, server); err != nil {
		return nil, nil, err
	}
	if o.web == runner.WebLive || o.web == runner.WebRecord {
		if err := checkNetwork(st, tasks, o.web); err != nil {
			return nil, nil, err
		}
	}
	if cfg.Prices, err = loadPrices(o.prices); err != nil {
		return nil, nil, err
	}
	if cfg.Trace, err = traceMode(o.trace, len(tasks)*cfg.Repeat); err != nil {
		return nil, nil, err
	}
	if cfg.Caps, err = runCaps(tasks); err != nil {
		return nil, nil, err
	}
	if cfg.Inputs, err = taskInputs(tasks); err != nil {
		return nil, nil, err
	}
	cfg.Provenance.Contractbench = Version()
	if pkg := server.Package(); pkg != nil {
		cfg.Provenance.ServerPackage = pkg.Name + "@" + pkg.Version
	}
	if err := openWeb(cfg); err != nil {
		return nil, nil, err
	}
	if cfg.Classes, err = loadClasses(s.ClassesDir()); err != nil {
		return nil, nil, asUsage(err)
	}
	cfg.Settings = runSettings(cfg, o)
	return cfg, server, nil
}

// loadSuite loads the suite in dir and selects the tasks ids name (every
// task for none). Every file of the suite must be valid, not only the
// selected tasks' (validate's check, but for stale transcripts, which the
// replay reports).
func loadSuite(dir string, ids []string) (*suite.Suite, []*suite.Task, error) {
	s, _, err := validateSuite(dir, false)
	if err != nil {
		return nil, nil, asUsage(err)
	}
	tasks, err := s.Select(ids)
	if err != nil {
		return nil, nil, asUsage(err)
	}
	return s, tasks, nil
}

// checkWeb checks --web and --record-to, and refuses the network for
// tasks on the sandbox's sites.
func checkWeb(o runOptions, tasks []*suite.Task) error {
	switch o.web {
	case runner.WebReplay, runner.WebLive, runner.WebRecord:
	default:
		return usagef("unknown --web %q: want replay, live or record", o.web)
	}
	if o.recordTo != "" && o.web != runner.WebRecord {
		return usagef("--record-to applies only with --web record")
	}
	return refuseSandboxLive(o.web, tasks)
}

// setBrowsers sets how cfg's tasks get their browsers: the isolation, how
// to launch a browser, or the running browsers the workers attach to
// instead (--browser-url), and the number of workers (-j, by default one
// per running browser).
func setBrowsers(st *State, cfg *runner.Config, o runOptions, server *servers.Profile) error {
	isolate, err := isolation(o.isolate, server, o.agentCDP)
	if err != nil {
		return err
	}
	endpoints, err := browserEndpoints(o.browserURLs)
	if err != nil {
		return err
	}
	parallel := o.parallel
	if len(endpoints) > 0 {
		if !o.parallelSet {
			parallel = len(endpoints)
		} else if parallel != len(endpoints) {
			return usagef("--browser-url: %d browser endpoints for -j %d: each worker needs a browser of its own (pass as many endpoints as -j, or leave -j out)", len(endpoints), parallel)
		}
		// Under process isolation a running browser keeps the network
		// it has: the hermetic web reaches a browser through its launch
		// flags (host mapping, certificate pin) or a context's proxy,
		// and a shared default context has neither.
		if o.web != runner.WebLive && isolate == runner.IsolateProcess {
			why := "--isolate process"
			if !server.Confined() {
				why = fmt.Sprintf("server %s cannot be confined to a browser context (its command takes no {browser_context}), so its tasks share the browser's default context", o.server)
			}
			return usagef("--browser-url with --web %s: %s, which a running browser cannot be given the %s web in (it is wired in through launch flags or a browser context's proxy); pass --web live to use that browser's own network, or drop --browser-url", o.web, why, o.web)
		}
	}
	cfg.Isolate, cfg.BrowserURLs, cfg.Parallel = isolate, endpoints, max(parallel, 1)
	cfg.Browser = browser.Options{
		ExecPath:  st.Getenv("CONTRACTBENCH_CHROMIUM"),
		NoSandbox: st.Root,
		Env:       servers.ChildEnv(st.Environ()),
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

// runCaps returns a run's budget caps, after checking that no task's
// budget asks for more than they allow.
func runCaps(tasks []*suite.Task) (llm.Caps, error) {
	caps := llm.DefaultCaps()
	for _, t := range tasks {
		if _, err := caps.Lower(runner.TaskCaps(t.Budget)); err != nil {
			// Lower's error starts with "budget: " and names the cap.
			return llm.Caps{}, usagef("%s: %v", t.File, err)
		}
	}
	return caps, nil
}

// openWeb sets what answers cfg's browsers: under replay the suite's
// fixture archive, behind the sandbox's sites when it has them; under
// record a recorder of the live web. The live web needs neither.
func openWeb(cfg *runner.Config) error {
	switch cfg.Web {
	case runner.WebReplay:
		archive, err := webreplay.Open(cfg.Suite.WebDir())
		if err != nil {
			return asUsage(err)
		}
		cfg.Archive, cfg.Sites = archive, sandboxSites(archive)
	case runner.WebRecord:
		cfg.Recorder = webreplay.Record(webreplay.NewArchive("recorded by contractbench run --web record"),
			&http.Client{Timeout: 60 * time.Second})
	}
	return nil
}

// runSettings is what the report says of how cfg runs; what it says of
// the agent is chooseAgent's.
func runSettings(cfg *runner.Config, o runOptions) report.Settings {
	ids := make([]string, len(cfg.Tasks))
	for i, t := range cfg.Tasks {
		ids[i] = t.ID
	}
	set := report.Settings{
		Suite: o.suiteDir, Server: o.server, Web: string(cfg.Web),
		Caps:   report.Caps{MaxTokensPerTurn: cfg.Caps.MaxTokensPerTurn, MaxToolIterations: cfg.Caps.MaxToolIterations, MaxUSD: cfg.Caps.MaxUSD},
		Repeat: cfg.Repeat, Parallel: cfg.Parallel, Tasks: ids, Trace: string(cfg.Trace), AllTasks: len(cfg.Tasks) == len(cfg.Suite.Tasks),
		Isolate: string(cfg.Isolate), Browsers: "launched", WebRoute: "direct",
	}
	if len(cfg.BrowserURLs) > 0 {
		set.Browsers = "remote"
	}
	if cfg.Web != runner.WebLive {
		set.WebRoute = "flags"
		if cfg.Isolate == runner.IsolateContext {
			set.WebRoute = "proxy"
		}
	}
	return set
}

// chooseAgent sets what plays the agent of cfg's tasks on server, as o
// names it: an outside command (--agent exec), or a provider for each
// task (the reference solution, a replay of transcripts, a null agent or
// a paid model); and says which in the run's settings.
func chooseAgent(st *State, cfg *runner.Config, server *servers.Profile, o runOptions) error {
	var err error
	if cfg.Exec, err = execAgent(st, o); err != nil {
		return err
	}
	if cfg.Exec == nil {
		if cfg.Provider, err = providerFunc(st, cfg.Suite, cfg.Tasks, o, cfg.Prices, server); err != nil {
			return err
		}
	}
	if err := addTranscripts(cfg, o); err != nil {
		return err
	}
	cfg.Settings.Agent, cfg.Settings.Model = o.agent, o.model
	if name, err := llm.ResolveName(o.agent); err == nil {
		cfg.Settings.Agent = name // "replay" for mock, "anthropic" for claude
	}
	if cfg.Exec != nil && cfg.Exec.CDP {
		cfg.Settings.Trust = report.TrustUnrestricted
	}
	markNull(&cfg.Settings, o)
	return nil
}

// isolation returns the isolation of a run of the server: flag when given,
// else context for a server that can be confined to a browser context and
// process for one that cannot (docs/decisions/0011-browser-per-worker.md).
// An agent given the browser's raw CDP endpoint (agentCDP) reaches every
// context of it, so it gets a browser per task too.
func isolation(flag string, profile *servers.Profile, agentCDP bool) (runner.Isolate, error) {
	switch runner.Isolate(flag) {
	case "":
		if !profile.Confined() || agentCDP {
			return runner.IsolateProcess, nil
		}
		return runner.IsolateContext, nil
	case runner.IsolateProcess:
		return runner.IsolateProcess, nil
	case runner.IsolateContext:
		if agentCDP {
			return "", usagef("--isolate context: --agent-cdp gives the agent the whole browser, every context of it; run it with --isolate process, its default")
		}
		if !profile.Confined() {
			return "", usagef("--isolate context: server %s cannot be confined to a browser context (its command takes no {browser_context}: it would list and open tabs outside the task's context); run it with --isolate process, its default", profile.Name())
		}
		return runner.IsolateContext, nil
	}
	return "", usagef("unknown --isolate %q: want context or process", flag)
}

// browserEndpoints reads --browser-url's values: each a DevTools endpoint
// (http://HOST:PORT or ws://...), or the name of a file of them, one a
// line (blank lines and # comments skipped).
func browserEndpoints(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		if strings.Contains(v, "://") {
			u, err := cdpconn.Endpoint(v)
			if err != nil {
				return nil, usagef("--browser-url %q: %v", v, err)
			}
			out = append(out, u)
			continue
		}
		data, err := os.ReadFile(v)
		if err != nil {
			return nil, usagef("--browser-url %q: not a URL (http://HOST:PORT), and not a file of them: %v", v, err)
		}
		n := 0
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			u, err := cdpconn.Endpoint(line)
			if err != nil {
				return nil, usagef("%s:%d: %v", v, i+1, err)
			}
			out = append(out, u)
			n++
		}
		if n == 0 {
			return nil, usagef("--browser-url %s: the file lists no endpoint", v)
		}
	}
	seen := map[string]bool{}
	for _, u := range out {
		if seen[u] {
			return nil, usagef("--browser-url: %s is given twice; each worker needs a browser of its own", u)
		}
		seen[u] = true
	}
	return out, nil
}

// checkNetwork makes sure, once before a run on the live web, that the
// network is there: without it every task would end as an error (one
// with a start page) or a failure blamed on the agent (one without). It
// connects to the host of the first task's start URL, or of its reference's
// first navigation.
func checkNetwork(st *State, tasks []*suite.Task, web runner.Web) error {
	var target *url.URL
	for _, t := range tasks {
		raw := t.StartURL
		for _, step := range t.Reference {
			if raw != "" {
				break
			}
			var args struct {
				URL string `json:"url"`
			}
			if step.Tool == "navigate" && json.Unmarshal(step.Args, &args) == nil {
				raw = args.URL
			}
		}
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			target = u
			break
		}
	}
	if target == nil {
		return nil // nothing to check against
	}
	port := target.Port()
	if port == "" {
		port = map[string]string{"http": "80"}[target.Scheme]
		if port == "" {
			port = "443"
		}
	}
	addr := net.JoinHostPort(target.Hostname(), port)
	dial := st.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return usagef("--web %s needs the network, but %s cannot be reached (%v); without it every task would end as an error or a failure blamed on the agent. Use --web replay for the hermetic fixture web", web, addr, err)
	}
	conn.Close()
	return nil
}

// providerFunc returns what plays the agent in each task. Everything that
// can be checked before the run (keys, the paid-call opt-in, the model's
// price, transcripts) is checked here.
func providerFunc(st *State, s *suite.Suite, tasks []*suite.Task, o runOptions, prices *llm.Prices, server *servers.Profile) (runner.ProviderFunc, error) {
	if o.agent == agentReference {
		for _, t := range tasks {
			if err := server.CheckReference(t.Reference); err != nil {
				return nil, usagef("%s: reference on server %s: %v", t.File, server.Name(), err)
			}
		}
		return func(t *suite.Task) (llm.Provider, error) { return server.Reference(t.Reference), nil }, nil
	}
	if null, err := nullAgent(o, server); null != nil || err != nil {
		return null, err
	}
	name, err := llm.ResolveName(o.agent)
	if err != nil {
		return nil, usagef("unknown agent %q: want replay (alias mock), reference, anthropic (alias claude) or openai", o.agent)
	}
	switch name {
	case llm.NameReplay:
		records := map[string]*transcript.Transcript{}
		for _, t := range tasks {
			path := transcriptPath(s, o, t.ID)
			if _, err := os.Stat(path); err == nil {
				if _, err := readTranscript(path); err != nil {
					return nil, asUsage(err)
				}
			}
			tr, err := transcript.ReadFile(path)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil, usagef("%s: no transcript for %s (record one with: %s)", path, t.ID, recordHint(o, t.ID))
				}
				return nil, asUsage(err)
			}
			records[t.ID] = tr
		}
		return func(t *suite.Task) (llm.Provider, error) {
			digest, err := taskDigest(t)
			if err != nil {
				return nil, err
			}
			return llm.NewReplay(records[t.ID], digest), nil
		}, nil
	case llm.NameAnthropic, llm.NameOpenAI:
		newProvider, err := paidProvider(st, name, o)
		if err != nil {
			return nil, err
		}
		// One is built now so a bad key, URL or unpriced model stops the
		// run before it starts; each task then gets its own.
		p, err := newProvider()
		if err != nil {
			return nil, asUsage(err)
		}
		if err := checkPriced(prices, p); err != nil {
			return nil, err
		}
		return func(*suite.Task) (llm.Provider, error) { return newProvider() }, nil
	}
	return nil, usagef("unknown agent %q", o.agent)
}

// recordHint is the command that records the transcript of task for the
// run o describes, to copy as it is.
func recordHint(o runOptions, task string) string {
	h := "contractbench record --suite " + o.suiteDir + " --server " + o.server
	if o.serversFile != "" {
		h += " --servers " + o.serversFile
	}
	return h + " --agent reference --task " + task
}

// paidProvider checks the paid-call opt-in and the provider's key, and
// returns how to build the provider from the environment and flags.
func paidProvider(st *State, name string, o runOptions) (func() (llm.Provider, error), error) {
	keyVar := "ANTHROPIC_API_KEY"
	if name == llm.NameOpenAI {
		keyVar = "OPENAI_API_KEY"
	}
	key := st.Getenv(keyVar)
	if err := llm.Gate(st.Getenv("CONTRACTBENCH_REAL") == "1", key != "", name); err != nil {
		return nil, asUsage(err)
	}
	if name == llm.NameAnthropic {
		opts := llm.AnthropicOptions{APIKey: key, BaseURL: st.Getenv("ANTHROPIC_BASE_URL"), Model: o.model}
		return func() (llm.Provider, error) { return llm.NewAnthropic(opts) }, nil
	}
	base := o.baseURL
	if base == "" {
		base = st.Getenv("OPENAI_BASE_URL")
	}
	opts := llm.OpenAIOptions{APIKey: key, BaseURL: base, Model: o.model}
	return func() (llm.Provider, error) { return llm.NewOpenAI(opts) }, nil
}

// checkPriced refuses a paid model the price table does not list, before
// its first call: without a price the max_usd cap could not be enforced,
// and finding out after the first response would already have cost money.
func checkPriced(prices *llm.Prices, p llm.Provider) error {
	if _, err := prices.Lookup(p.Model()); err != nil {
		return usagef("%s: %v (pass --price %s=IN,OUT[,CACHE_READ,CACHE_WRITE])", p.Name(), err, p.Model())
	}
	return nil
}

// transcriptPath is the transcript a replay of task id plays.
func transcriptPath(s *suite.Suite, o runOptions, id string) string {
	if o.transcripts != "" {
		return filepath.Join(o.transcripts, id+".jsonl")
	}
	return s.TranscriptFile(o.server, id)
}

// taskInputs digests what each task is loaded from, for its results'
// provenance: the spec and the contract (addTranscripts adds a replay's
// transcript).
func taskInputs(tasks []*suite.Task) (map[string]report.TaskProvenance, error) {
	out := make(map[string]report.TaskProvenance, len(tasks))
	for _, t := range tasks {
		spec, err := t.Canonical()
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", t.ID, err)
		}
		pc, err := t.Postconditions.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("task %s: contract: %w", t.ID, err)
		}
		out[t.ID] = report.TaskProvenance{Spec: sha256Of(spec), Contract: sha256Of(pc)}
	}
	return out, nil
}

// addTranscripts adds to the provenance of a replay's tasks the digest of
// the transcript each one replays.
func addTranscripts(cfg *runner.Config, o runOptions) error {
	if name, _ := llm.ResolveName(o.agent); name != llm.NameReplay {
		return nil
	}
	for _, t := range cfg.Tasks {
		data, err := os.ReadFile(transcriptPath(cfg.Suite, o, t.ID))
		if err != nil {
			return asUsage(err)
		}
		p := cfg.Inputs[t.ID]
		p.Transcript = sha256Of(data)
		cfg.Inputs[t.ID] = p
	}
	return nil
}

func sha256Of(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// taskDigest is the digest a transcript of t carries: of what the task
// asks of the agent (suite.Task.AgentTask), so that editing the contract,
// the timeout or the rationale re-grades a recording instead of making it
// stale.
func taskDigest(t *suite.Task) (string, error) {
	canon, err := t.AgentTask()
	if err != nil {
		return "", fmt.Errorf("task %s: %w", t.ID, err)
	}
	return transcript.TaskDigest(canon)
}

// serverFunc starts the server of profile for each task, over stdio, so
// the agent's tools cross a real MCP boundary. The built-in server is this
// binary's own "mcp" command; peers run from root/node_modules (make
// peers). Only an allow-list of the environment is passed on
// (servers.ChildEnv): no server has any use for keys or passwords.
func serverFunc(st *State, profile *servers.Profile, root string) runner.ServerFunc {
	return func(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
		return profile.Transport(servers.Spawn{Root: root, Self: st.Executable, CDPURL: browserURL, BrowserContext: browserContext,
			WorkDir: workDir, Environ: st.Environ(), Abort: ctx})
	}
}

// serversFileOf is where a suite's server profiles live by default: beside
// the suite's folder (benchmarks/servers.yaml for benchmarks/webvoyager).
func serversFileOf(suiteDir string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(suiteDir)), "servers.yaml")
}

// serverProfile loads the named server's profile from file (default: the
// one beside the suite; a suite without one has the built-in server only)
// and checks it can start. root is the folder whose node_modules holds the
// peers: the nearest folder above the profiles file with a package.json.
func serverProfile(file, suiteDir, name string) (*servers.Profile, string, error) {
	if file == "" {
		file = serversFileOf(suiteDir)
		if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) && name == "builtin" {
			return servers.Builtin(), "", nil
		}
	}
	set, err := servers.Load(file)
	if err != nil {
		return nil, "", asUsage(err)
	}
	p, err := set.Get(name)
	if err != nil {
		return nil, "", asUsage(err)
	}
	root, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, "", err
	}
	for dir := root; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
			root = dir
			break
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if err := p.Installed(root); err != nil {
		return nil, "", asUsage(err)
	}
	return p, root, nil
}

// loadClasses loads the suite's screenshot classes; a suite without the
// folder has none.
func loadClasses(dir string) (phash.Classes, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	c, err := phash.LoadClasses(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return c, nil
}
