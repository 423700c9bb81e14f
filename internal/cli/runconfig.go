package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/agent"
	"contractbench/internal/browser"
	"contractbench/internal/llm"
	"contractbench/internal/phash"
	"contractbench/internal/report"
	"contractbench/internal/runner"
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
	// browserURL attaches to a running browser instead of launching one.
	browserURL string
	// transcripts is the folder replay reads from (default: the suite's).
	transcripts string
}

// newRunConfig checks every input a run needs before anything starts, so a
// bad flag, task, transcript or archive ends the command with a usage
// error and no report.
func newRunConfig(st *State, o runOptions) (*runner.Config, error) {
	s, err := suite.Load(o.suiteDir)
	if err != nil {
		return nil, asUsage(err)
	}
	tasks, err := s.Select(o.tasks)
	if err != nil {
		return nil, asUsage(err)
	}
	if o.server != "builtin" {
		return nil, usagef("unknown server %q: the built-in server is the only one (builtin)", o.server)
	}
	web := o.web
	switch web {
	case runner.WebReplay, runner.WebLive, runner.WebRecord:
	default:
		return nil, usagef("unknown --web %q: want replay, live or record", web)
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
	caps := llm.DefaultCaps()
	for _, t := range tasks {
		if _, err := caps.Lower(runner.TaskCaps(t.Budget)); err != nil {
			return nil, usagef("%s: budget: %v", t.File, err)
		}
	}

	cfg := &runner.Config{
		Suite:    s,
		Tasks:    tasks,
		Server:   builtinServer(st),
		Web:      web,
		Caps:     caps,
		Prices:   prices,
		Parallel: max(o.parallel, 1),
		Repeat:   max(o.repeat, 1),
		Browser: browser.Options{
			ExecPath:  st.Getenv("CONTRACTBENCH_CHROMIUM"),
			NoSandbox: st.Root,
		},
		BrowserURL: o.browserURL,
		Now:        st.Now,
	}
	cfg.Provider, err = providerFunc(st, s, tasks, o)
	if err != nil {
		return nil, err
	}
	switch web {
	case runner.WebReplay:
		if cfg.Archive, err = webreplay.Open(s.WebDir()); err != nil {
			return nil, asUsage(err)
		}
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
	cfg.Settings = report.Settings{
		Suite: o.suiteDir, Agent: o.agent, Server: o.server, Model: o.model, Web: string(web),
		Caps:   report.Caps{MaxTokensPerTurn: caps.MaxTokensPerTurn, MaxToolIterations: caps.MaxToolIterations, MaxUSD: caps.MaxUSD},
		Repeat: cfg.Repeat, Parallel: cfg.Parallel, Tasks: ids,
	}
	return cfg, nil
}

// providerFunc returns what plays the agent in each task. Everything that
// can be checked before the run (keys, the paid-call opt-in, transcripts)
// is checked here.
func providerFunc(st *State, s *suite.Suite, tasks []*suite.Task, o runOptions) (runner.ProviderFunc, error) {
	if o.agent == agentReference {
		return func(t *suite.Task) (llm.Provider, error) {
			calls := make([]llm.ToolCall, len(t.Reference))
			for i, step := range t.Reference {
				calls[i] = llm.ToolCall{Name: step.Tool, Args: step.Args}
			}
			return agent.NewScript(agentReference, calls), nil
		}, nil
	}
	name, err := llm.ResolveName(o.agent)
	if err != nil {
		return nil, asUsage(err)
	}
	switch name {
	case llm.NameReplay:
		dir := o.transcripts
		records := map[string]*transcript.Transcript{}
		for _, t := range tasks {
			path := s.TranscriptFile(o.server, t.ID)
			if dir != "" {
				path = dir + "/" + t.ID + ".jsonl"
			}
			tr, err := transcript.ReadFile(path)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil, usagef("%s: no transcript for %s (record one with: contractbench record --agent reference --task %s)", path, t.ID, t.ID)
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
	case llm.NameAnthropic:
		key := st.Getenv("ANTHROPIC_API_KEY")
		if err := llm.Gate(st.Getenv("CONTRACTBENCH_REAL") == "1", key != "", name); err != nil {
			return nil, asUsage(err)
		}
		opts := llm.AnthropicOptions{APIKey: key, BaseURL: st.Getenv("ANTHROPIC_BASE_URL"), Model: o.model}
		if _, err := llm.NewAnthropic(opts); err != nil {
			return nil, asUsage(err)
		}
		return func(*suite.Task) (llm.Provider, error) { return llm.NewAnthropic(opts) }, nil
	case llm.NameOpenAI:
		key := st.Getenv("OPENAI_API_KEY")
		base := o.baseURL
		if base == "" {
			base = st.Getenv("OPENAI_BASE_URL")
		}
		if err := llm.Gate(st.Getenv("CONTRACTBENCH_REAL") == "1", key != "", name); err != nil {
			return nil, asUsage(err)
		}
		opts := llm.OpenAIOptions{APIKey: key, BaseURL: base, Model: o.model}
		if _, err := llm.NewOpenAI(opts); err != nil {
			return nil, asUsage(err)
		}
		return func(*suite.Task) (llm.Provider, error) { return llm.NewOpenAI(opts) }, nil
	}
	return nil, usagef("unknown agent %q", o.agent)
}

// taskDigest is the digest a transcript of t carries.
func taskDigest(t *suite.Task) (string, error) {
	canon, err := t.Canonical()
	if err != nil {
		return "", fmt.Errorf("task %s: %w", t.ID, err)
	}
	return transcript.TaskDigest(canon)
}

// builtinServer spawns this binary's own MCP server for each task, so the
// agent's tools cross a real stdio MCP boundary. API keys are not passed
// on: the tool server has no use for them.
func builtinServer(st *State) runner.ServerFunc {
	return func(ctx context.Context, browserURL string) (mcp.Transport, error) {
		if st.Executable == "" {
			return nil, errors.New("cannot find this program's executable to start its MCP server")
		}
		cmd := exec.Command(st.Executable, "mcp", "--cdp", browserURL)
		cmd.Env = childEnv(st.Environ())
		cmd.Stderr = nil
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
	}
}

// childEnv drops secrets from an environment passed to a child process.
func childEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(name, "_API_KEY") || strings.HasSuffix(name, "_TOKEN") {
			continue
		}
		out = append(out, kv)
	}
	return out
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
