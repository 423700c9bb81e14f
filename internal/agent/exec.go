package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
	"contractbench/internal/transcript"
)

// The environment an outside agent is started with. docs/agents.md is the
// contract these names make with agents; they never change meaning.
const (
	envTask        = "CONTRACTBENCH_TASK"
	envInstruction = "CONTRACTBENCH_INSTRUCTION"
	envStartURL    = "CONTRACTBENCH_START_URL"
	envMCPURL      = "CONTRACTBENCH_MCP_URL"
	envCDPURL      = "CONTRACTBENCH_CDP_URL"
	envUsageFile   = "CONTRACTBENCH_USAGE_FILE"
)

// maxAnswerBytes bounds the answer read from an outside agent's stdout;
// anything past it is dropped and the answer says so.
const maxAnswerBytes = 64 << 10

// stderrTail is how much of an outside agent's stderr is kept for the
// reason of a failed run.
const stderrTail = 2 << 10

// killGrace is how long an outside agent has between SIGTERM and SIGKILL
// once its time is up.
const killGrace = 2 * time.Second

// ExecOptions configure one run of an outside agent: a command that gets
// the task through its environment, reaches the browser through the
// harness's MCP endpoint, and prints its answer on stdout.
type ExecOptions struct {
	// Command is run with `sh -c`, in a process group of its own that is
	// killed when the run ends, whichever way.
	Command string
	// Env is the command's base environment; the CONTRACTBENCH_ variables
	// above are set over it (any of the same name in Env are dropped).
	Env []string

	Task        string
	Instruction string
	StartURL    string
	// CDPURL, when set, is given to the agent as CONTRACTBENCH_CDP_URL: raw
	// access to the browser, with which the agent could write the evidence
	// itself. The caller labels the verdict accordingly.
	CDPURL string

	// Budget caps the run: every tool call through the endpoint is counted,
	// and the usage the agent reports is checked against max_usd.
	// Required.
	Budget *llm.Budget
	// Model prices reported tokens when the agent reports no usd; it is
	// also the model named in the report when the agent names none.
	Model string
	// Recorder, when set, receives every tool call and the final answer.
	Recorder *transcript.Recorder
	// BeforeCall is called just before each tool call goes to the server.
	BeforeCall func(seq int, tool string)
	// Stderr receives the agent's stderr as it runs; nil discards it. The
	// last lines are kept for the reason of a failure either way.
	Stderr io.Writer
	// Version is the version the endpoint reports.
	Version string
}

// execUsage is what an outside agent writes to CONTRACTBENCH_USAGE_FILE:
// its totals for the task so far (the file is read whole, so each write
// replaces the last). USD, when present, is taken as the agent's own
// reckoning; without it the tokens are priced for Model with the run's
// price table.
type execUsage struct {
	Model            string   `json:"model,omitempty"`
	InputTokens      int64    `json:"input_tokens"`
	OutputTokens     int64    `json:"output_tokens"`
	CacheReadTokens  int64    `json:"cache_read_tokens"`
	CacheWriteTokens int64    `json:"cache_write_tokens"`
	USD              *float64 `json:"usd,omitempty"`
}

// RunExec runs the outside agent of opts against the tools of session s,
// offered over MCP streamable HTTP on loopback, until it exits, the
// context ends (the task's timeout) or a cap is passed. Tools s does not
// offer are neither listed nor forwarded: a call to one is refused and
// recorded, as with the harness's own agents.
func RunExec(ctx context.Context, s *mcpclient.Session, opts ExecOptions) *Outcome {
	out := &Outcome{}
	runCtx, stopAgent := context.WithCancelCause(ctx)
	defer stopAgent(nil)
	p := &execProxy{session: s, opts: &opts, out: out, stopAgent: stopAgent}

	dir, err := os.MkdirTemp("", "contractbench-agent-")
	if err != nil {
		return out.stop(StopError, fmt.Errorf("agent: %w", err))
	}
	defer os.RemoveAll(dir)
	p.usageFile = filepath.Join(dir, "usage.json")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return out.stop(StopError, fmt.Errorf("agent endpoint: %w", err))
	}
	srv := &http.Server{Handler: p.handler(ctx), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	mcpURL := "http://" + ln.Addr().String() + "/mcp"

	cmd, stdout, stderr := agentCommand(opts, mcpURL, p.usageFile)
	if err := cmd.Start(); err != nil {
		return out.stop(StopError, fmt.Errorf("agent: start %q: %w", opts.Command, err))
	}
	waitErr := waitAgent(runCtx, cmd)
	// No call is in flight past this point, and none can start.
	p.close()

	// The agent holds its own keys; what it prints must not carry them
	// into reports.
	secrets := envSecrets(opts.Env)
	out.Answer = llm.Redact(stdout.answer(), secrets...)
	p.chargeFinalUsage()
	out.Usage = opts.Budget.Usage()
	out.USD = opts.Budget.USD()

	if p.stopKind != "" {
		return out.stop(p.stopKind, p.stopErr)
	}
	if ctx.Err() != nil {
		return out.stop(ended(ctx), fmt.Errorf("agent: %w", ctx.Err()))
	}
	if waitErr != nil {
		msg := fmt.Sprintf("agent command %q: %v", opts.Command, waitErr)
		if tail := stderr.String(); tail != "" {
			msg += "; its stderr ends: " + tail
		}
		msg = llm.Redact(msg, secrets...)
		return out.stop(StopError, errors.New(msg))
	}
	if opts.Recorder != nil {
		if err := opts.Recorder.Final(out.Answer); err != nil {
			return out.stop(StopError, err)
		}
	}
	out.Stop = StopAnswer
	return out
}

// agentCommand is the agent's command, not yet started, in a process group
// of its own, with its stdout bounded and the tail of its stderr kept.
func agentCommand(opts ExecOptions, mcpURL, usageFile string) (*exec.Cmd, *boundedBuffer, *tailBuffer) {
	stdout := &boundedBuffer{limit: maxAnswerBytes}
	stderr := &tailBuffer{limit: stderrTail}
	cmd := exec.Command("sh", "-c", opts.Command)
	cmd.Env = execEnv(opts, mcpURL, usageFile)
	cmd.Stdin = nil
	cmd.Stdout = stdout
	if opts.Stderr != nil {
		cmd.Stderr = io.MultiWriter(stderr, opts.Stderr)
	} else {
		cmd.Stderr = stderr
	}
	ownGroup(cmd)
	// Without a WaitDelay, a grandchild that keeps stdout open would hold
	// Wait forever after the group is killed.
	cmd.WaitDelay = killGrace
	return cmd, stdout, stderr
}

// waitAgent waits for the started agent to exit, or for runCtx to end and
// then ends it: SIGTERM, and SIGKILL after killGrace. Either way nothing of
// its process group is left running.
func waitAgent(runCtx context.Context, cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var waitErr error
	select {
	case waitErr = <-done:
		// Whatever it left behind in its group goes with it.
		killGroup(cmd)
	case <-runCtx.Done():
		terminateGroup(cmd)
		select {
		case waitErr = <-done:
		case <-time.After(killGrace):
			killGroup(cmd)
			waitErr = <-done
		}
		killGroup(cmd)
	}
	return waitErr
}

// execEnv is the agent's environment: the base one without any variable
// of the contract, then the contract's.
func execEnv(opts ExecOptions, mcpURL, usageFile string) []string {
	ours := []string{envTask, envInstruction, envStartURL, envMCPURL, envCDPURL, envUsageFile}
	env := slices.DeleteFunc(slices.Clone(opts.Env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(ours, name)
	})
	env = append(env,
		envTask+"="+opts.Task,
		envInstruction+"="+opts.Instruction,
		envStartURL+"="+opts.StartURL,
		envMCPURL+"="+mcpURL,
		envUsageFile+"="+usageFile,
	)
	if opts.CDPURL != "" {
		env = append(env, envCDPURL+"="+opts.CDPURL)
	}
	return env
}

// envSecrets returns the values of env's credential variables (*_API_KEY,
// *_TOKEN), for redaction.
func envSecrets(env []string) []string {
	var out []string
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if value != "" && (strings.HasSuffix(name, "_API_KEY") || strings.HasSuffix(name, "_TOKEN")) {
			out = append(out, value)
		}
	}
	return out
}

// execProxy is the outside agent's MCP endpoint: it lists the session's
// offered tools and forwards each call to the session, counting,
// recording and marking it like the harness's own loop does.
type execProxy struct {
	session   *mcpclient.Session
	opts      *ExecOptions
	out       *Outcome
	usageFile string
	stopAgent context.CancelCauseFunc

	mu       sync.Mutex
	closed   bool
	stopKind Stop
	stopErr  error
}

// handler serves the endpoint. Calls run under ctx, the task's context,
// rather than the HTTP request's: an agent that hangs up mid-call does not
// leave the browser half way through an action.
func (p *execProxy) handler(ctx context.Context) http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "contractbench", Version: p.opts.Version}, nil)
	for _, t := range p.session.Tools() {
		server.AddTool(t, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return p.call(ctx, req.Params.Name, req.Params.Arguments)
		})
	}
	// A call to a tool the session does not offer never reaches a handler
	// of the SDK's; it is refused here and recorded, so the report shows
	// what the agent tried.
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(rctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && !p.session.Offered(call.Params.Name) {
				return p.call(ctx, call.Params.Name, call.Params.Arguments)
			}
			return next(rctx, method, req)
		}
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
}

func (p *execProxy) call(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.stopKind != "" {
		return toolError("the task is over: no more tool calls"), nil
	}
	budget := p.opts.Budget
	if err := budget.CountToolCall(); err != nil {
		p.setStopLocked(StopBudget, err)
		return toolError(err.Error()), nil
	}
	// The usage the agent reported so far counts against the task's caps
	// at every call, so an agent over budget is stopped while it runs.
	if u, ok, err := readUsage(p.usageFile); err == nil && ok {
		if err := p.checkUsage(u); err != nil {
			p.setStopLocked(StopBudget, err)
			return toolError(err.Error()), nil
		}
	}
	seq := len(p.out.Calls) + 1
	if p.opts.BeforeCall != nil {
		p.opts.BeforeCall(seq, name)
	}
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	r, err := p.session.Call(ctx, name, args)
	if err != nil {
		p.setStopLocked(classify(ctx, err), fmt.Errorf("tool server: %w", err))
		return nil, err
	}
	p.out.Calls = append(p.out.Calls, Call{Seq: seq, Tool: name, Args: args, IsError: r.IsError,
		Refused: r.Refused, Bytes: r.Bytes, Duration: r.Duration})
	if p.opts.Recorder != nil {
		if err := p.opts.Recorder.Call(name, args, r.IsError, r.Bytes); err != nil {
			p.setStopLocked(StopError, err)
			return toolError(err.Error()), nil
		}
	}
	if r.Raw != nil {
		return r.Raw, nil
	}
	return toolError(r.Text), nil
}

func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// setStop records the first reason the agent must stop and stops it.
func (p *execProxy) setStop(kind Stop, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setStopLocked(kind, err)
}

func (p *execProxy) setStopLocked(kind Stop, err error) {
	if p.stopKind == "" {
		p.stopKind, p.stopErr = kind, err
		p.stopAgent(err)
	}
}

// close refuses every later call; it waits for a call in flight.
func (p *execProxy) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
}

// reported turns the agent's usage report into tokens and dollars.
func (p *execProxy) reported(u execUsage) (llm.Usage, float64, error) {
	usage := llm.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
	if u.USD != nil {
		return usage, *u.USD, nil
	}
	if usage.IsZero() {
		return usage, 0, nil
	}
	model := u.Model
	if model == "" {
		model = p.opts.Model
	}
	usd, err := p.opts.Budget.Price(model, usage)
	if err != nil {
		return usage, 0, fmt.Errorf("%s: %w (report usd in the file, or pass --price)", envUsageFile, err)
	}
	return usage, usd, nil
}

// checkUsage reports a cap the usage so far passes.
func (p *execProxy) checkUsage(u execUsage) error {
	_, usd, err := p.reported(u)
	if err != nil {
		return nil // reported once the agent is done, as a failure of its report
	}
	if usd > p.opts.Budget.Caps().MaxUSD {
		return &llm.BudgetExceededError{Cap: llm.CapMaxUSD, Limit: p.opts.Budget.Caps().MaxUSD, Seen: usd}
	}
	return nil
}

// chargeFinalUsage charges the usage the agent last reported to the
// budget once it is done; a report that cannot be read or priced, or that
// passes a cap, stops the run.
func (p *execProxy) chargeFinalUsage() {
	if u, ok, err := readUsage(p.usageFile); err != nil {
		p.setStop(StopError, err)
	} else if ok {
		if usage, usd, err := p.reported(u); err != nil {
			p.setStop(StopError, err)
		} else if err := p.opts.Budget.ChargeReported(usage, usd); err != nil {
			p.setStop(StopBudget, err)
		}
	}
}

// readUsage reads the usage file; ok is false when the agent wrote none.
func readUsage(path string) (execUsage, bool, error) {
	var u execUsage
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return u, false, nil
	}
	if err != nil {
		return u, false, fmt.Errorf("%s: %w", envUsageFile, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return u, false, fmt.Errorf("%s: the agent's usage report: %w", envUsageFile, err)
	}
	if u.InputTokens < 0 || u.OutputTokens < 0 || u.CacheReadTokens < 0 || u.CacheWriteTokens < 0 || (u.USD != nil && *u.USD < 0) {
		return u, false, fmt.Errorf("%s: the agent's usage report has a negative count", envUsageFile)
	}
	return u, true, nil
}

// boundedBuffer keeps the first limit bytes written to it and counts the
// rest.
type boundedBuffer struct {
	mu      sync.Mutex
	limit   int
	buf     bytes.Buffer
	dropped int64
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.limit - b.buf.Len()
	if room >= len(p) {
		b.buf.Write(p)
	} else {
		b.buf.Write(p[:max(room, 0)])
		b.dropped += int64(len(p) - max(room, 0))
	}
	return len(p), nil
}

// answer is the agent's stdout without surrounding blank space, with a
// note when it was cut.
func (b *boundedBuffer) answer() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.TrimSpace(strings.ToValidUTF8(b.buf.String(), "\uFFFD"))
	if b.dropped > 0 {
		s += fmt.Sprintf("\n[answer cut at %d bytes: %d more bytes dropped]", b.limit, b.dropped)
	}
	return s
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.limit {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.limit:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(b.buf), "\uFFFD"))
}
