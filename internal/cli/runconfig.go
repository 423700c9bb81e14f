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
// error and no report.
func newRunConfig(st *State, o runOptions) (*runner.Config, error) {
	// Every file of the suite, not only the selected tasks' (validate's
	// check, but for stale transcripts, which the replay reports).
	if _, err := validateSuite(o.suiteDir, false); err != nil {
		return nil, asUsage(err)
	}
	s, err := suite.Load(o.suiteDir)
	if err != nil {
		return nil, asUsage(err)
	}
	tasks, err := s.Select(o.tasks)
	if err != nil {
		return nil, asUsage(err)
	}
	profile, root, err := serverProfile(o.serversFile, o.suiteDir, o.server)
	if err != nil {
		return nil, err
	}
	web := o.web
	switch web {
	case runner.WebReplay, runner.WebLive, runner.WebRecord:
	default:
		return nil, usagef("unknown --web %q: want replay, live or record", web)
	}
	if o.recordTo != "" && web != runner.WebRecord {
		return nil, usagef("--record-to applies only with --web record")
	}
	if err := refuseSandboxLive(web, tasks); err != nil {
		return nil, err
	}
	isolate, err := isolation(o.isolate, profile, o.agentCDP)
	if err != nil {
		return nil, err
	}
	endpoints, err := browserEndpoints(o.browserURLs)
	if err != nil {
		return nil, err
	}
	if len(endpoints) > 0 {
		if !o.parallelSet {
			o.parallel = len(endpoints)
		} else if o.parallel != len(endpoints) {
			return nil, usagef("--browser-url: %d browser endpoints for -j %d: each worker needs a browser of its own (pass as many endpoints as -j, or leave -j out)", len(endpoints), o.parallel)
		}
		// Under process isolation a running browser keeps the network
		// it has: the hermetic web reaches a browser through its launch
		// flags (host mapping, certificate pin) or a context's proxy,
		// and a shared default context has neither.
		if web != runner.WebLive && isolate == runner.IsolateProcess {
			why := "--isolate process"
			if !profile.Confined() {
				why = fmt.Sprintf("server %s cannot be confined to a browser context (its command takes no {browser_context}), so its tasks share the browser's default context", o.server)
			}
			return nil, usagef("--browser-url with --web %s: %s, which a running browser cannot be given the %s web in (it is wired in through launch flags or a browser context's proxy); pass --web live to use that browser's own network, or drop --browser-url", web, why, web)
		}
	}
	if web == runner.WebLive || web == runner.WebRecord {
		if err := checkNetwork(st, tasks, web); err != nil {
			return nil, err
		}
	}
	prices, err := llm.DefaultPrices()
	if err != nil {
		return nil, err
	}
	for _, p := range o.prices {
		model, price, err := llm.ParsePrice(p)
		if err != nil {
			return nil, usagef("--price %q: %v", p, err)
		}
		if prices, err = prices.With(model, price); err != nil {
			return nil, usagef("--price %q: %v", p, err)
		}
	}
	trace, err := traceMode(o.trace, len(tasks)*max(o.repeat, 1))
	if err != nil {
		return nil, err
	}
	caps := llm.DefaultCaps()
	for _, t := range tasks {
		if _, err := caps.Lower(runner.TaskCaps(t.Budget)); err != nil {
			// Lower's error starts with "budget: " and names the cap.
			return nil, usagef("%s: %v", t.File, err)
		}
	}

	cfg := &runner.Config{
		Suite:    s,
		Tasks:    tasks,
		Server:   serverFunc(st, profile, root),
		Allow:    profile.Allow(),
		Unsafe:   profile.UnsafeTools(),
		Web:      web,
		Caps:     caps,
		Prices:   prices,
		Parallel: max(o.parallel, 1),
		Repeat:   max(o.repeat, 1),
		Browser: browser.Options{
			ExecPath:  st.Getenv("CONTRACTBENCH_CHROMIUM"),
			NoSandbox: st.Root,
			Env:       servers.ChildEnv(st.Environ()),
		},
		BrowserURLs: endpoints,
		Isolate:     isolate,
		Trace:       trace,
		Now:         st.Now,
	}
	if cfg.Exec, err = execAgent(st, o); err != nil {
		return nil, err
	}
	if cfg.Exec == nil {
		if cfg.Provider, err = providerFunc(st, s, tasks, o, prices, profile); err != nil {
			return nil, err
		}
	}
	if cfg.Inputs, err = taskInputs(s, tasks, o); err != nil {
		return nil, err
	}
	cfg.Provenance.Contractbench = Version()
	if pkg := profile.Package(); pkg != nil {
		cfg.Provenance.ServerPackage = pkg.Name + "@" + pkg.Version
	}
	switch web {
	case runner.WebReplay:
		if cfg.Archive, err = webreplay.Open(s.WebDir()); err != nil {
			return nil, asUsage(err)
		}
		cfg.Sites = sandboxSites(cfg.Archive)
	case runner.WebRecord:
		cfg.Recorder = webreplay.Record(webreplay.NewArchive("recorded by contractbench run --web record"),
			&http.Client{Timeout: 60 * time.Second})
	}
	if classes, err := loadClasses(s.ClassesDir()); err != nil {
		return nil, asUsage(err)
	} else if classes != nil {
		cfg.Classes = classes
	}
	ids := make([]string, len(tasks))
	for i, t := range tasks {
		ids[i] = t.ID
	}
	agentName := o.agent
	if name, err := llm.ResolveName(o.agent); err == nil {
		agentName = name // "replay" for mock, "anthropic" for claude
	}
	cfg.Settings = report.Settings{
		Suite: o.suiteDir, Agent: agentName, Server: o.server, Model: o.model, Web: string(web),
		Caps:   report.Caps{MaxTokensPerTurn: caps.MaxTokensPerTurn, MaxToolIterations: caps.MaxToolIterations, MaxUSD: caps.MaxUSD},
		Repeat: cfg.Repeat, Parallel: cfg.Parallel, Tasks: ids, Trace: string(trace), AllTasks: len(tasks) == len(s.Tasks),
		Isolate: string(isolate), Browsers: "launched", WebRoute: "direct",
	}
	if len(endpoints) > 0 {
		cfg.Settings.Browsers = "remote"
	}
	if web != runner.WebLive {
		cfg.Settings.WebRoute = "flags"
		if isolate == runner.IsolateContext {
			cfg.Settings.WebRoute = "proxy"
		}
	}
	if cfg.Exec != nil && cfg.Exec.CDP {
		cfg.Settings.Trust = report.TrustUnrestricted
	}
	markNull(&cfg.Settings, o)
	return cfg, nil
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
// provenance: the spec, the contract and, for a replay, the transcript.
func taskInputs(s *suite.Suite, tasks []*suite.Task, o runOptions) (map[string]report.TaskProvenance, error) {
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
		p := report.TaskProvenance{Spec: sha256Of(spec), Contract: sha256Of(pc)}
		if name, _ := llm.ResolveName(o.agent); name == llm.NameReplay {
			data, err := os.ReadFile(transcriptPath(s, o, t.ID))
			if err != nil {
				return nil, asUsage(err)
			}
			p.Transcript = sha256Of(data)
		}
		out[t.ID] = p
	}
	return out, nil
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
