package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
	"contractbench/internal/transcript"
)

// systemPrompt states the rules of the game, briefly: every token of it is
// paid on every turn.
const systemPrompt = `You operate a web browser through the tools provided. Complete the user's task by using the tools: navigate, read the page, and interact as a person would. Do not guess page content; read it. When the task is done, reply with a short final answer and no tool call.`

// Options configure one run of the loop.
type Options struct {
	// Instruction is the task, as the user would ask it.
	Instruction string
	// Budget caps the run; it is charged for every response and tool call.
	// Required: an agent without caps is not something this loop runs.
	Budget *llm.Budget
	// Recorder, when set, receives every tool call and the final answer.
	Recorder *transcript.Recorder
	// BeforeCall is called just before each tool call goes to the server
	// (the runner marks the judge's network log with it).
	BeforeCall func(seq int, tool string)
	// AfterCall is called once the reply of each tool call is in, before
	// the next call starts (the runner has the judge photograph the page
	// with it).
	AfterCall func(seq int, tool string)
}

// Stop says why the loop ended.
type Stop string

const (
	StopAnswer  Stop = "answer"  // the provider gave a final answer
	StopBudget  Stop = "budget"  // a cap was exceeded (Err is *llm.BudgetExceededError)
	StopDrift   Stop = "drift"   // the replay provider diverged (Err is *llm.DriftError)
	StopTimeout Stop = "timeout" // the context's deadline passed
	// StopInterrupted: the context was cancelled before its deadline (the
	// run was stopped); the agent did not get its time.
	StopInterrupted Stop = "interrupted"
	StopError       Stop = "error" // the provider or the tool server failed
)

// Call is one tool call the agent made.
type Call struct {
	Seq      int             `json:"seq"`
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	IsError  bool            `json:"is_error,omitempty"`
	Refused  bool            `json:"refused,omitempty"`
	Bytes    int             `json:"response_bytes"`
	Duration time.Duration   `json:"-"`
	// Reply is the reply's text as the agent read it (mcpclient.Result.Text).
	Reply string `json:"-"`
	// Turn is the 1-based LLM turn that asked for the call. Usage and USD
	// are that turn's, set on the first call of the turn only, so they add
	// up to the run's.
	Turn  int       `json:"-"`
	Usage llm.Usage `json:"-"`
	USD   float64   `json:"-"`
}

// Outcome is what the agent did.
type Outcome struct {
	Stop   Stop
	Err    error // why, for every Stop but StopAnswer
	Answer string
	Calls  []Call
	Turns  int
	Usage  llm.Usage
	USD    float64
}

// ResponseBytes is the total size of the tool results the agent read.
func (o *Outcome) ResponseBytes() int64 {
	var n int64
	for _, c := range o.Calls {
		n += int64(c.Bytes)
	}
	return n
}

// Run drives provider p against the tools of session s until a stop.
func Run(ctx context.Context, p llm.Provider, s *mcpclient.Session, opts Options) *Outcome {
	tools, err := llmTools(s)
	out := &Outcome{}
	if err != nil {
		return out.stop(StopError, err)
	}
	msgs := []llm.Message{{Role: llm.RoleUser, Text: opts.Instruction}}
	for {
		if err := ctx.Err(); err != nil {
			return out.stop(ended(ctx), err)
		}
		req := llm.Request{System: systemPrompt, Messages: msgs, Tools: tools, MaxTokens: opts.Budget.Caps().MaxTokensPerTurn}
		resp, err := p.Next(ctx, req)
		out.Turns++
		usdBefore := out.USD
		if err != nil {
			return out.stop(classify(ctx, err), err)
		}
		out.Usage = out.Usage.Add(resp.Usage)
		err = opts.Budget.Charge(p.Model(), resp.Usage)
		out.USD = opts.Budget.USD()
		if err != nil {
			return out.stop(classify(ctx, err), err)
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls})
		if len(resp.ToolCalls) == 0 {
			out.Answer = resp.Text
			if opts.Recorder != nil {
				if err := opts.Recorder.Final(resp.Text); err != nil {
					return out.stop(StopError, err)
				}
			}
			out.Stop = StopAnswer
			return out
		}
		results := make([]llm.ToolResult, 0, len(resp.ToolCalls))
		for i, tc := range resp.ToolCalls {
			if err := opts.Budget.CountToolCall(); err != nil {
				return out.stop(StopBudget, err)
			}
			seq := len(out.Calls) + 1
			if opts.BeforeCall != nil {
				opts.BeforeCall(seq, tc.Name)
			}
			r, err := s.Call(ctx, tc.Name, tc.Args)
			if err != nil {
				return out.stop(classify(ctx, err), fmt.Errorf("tool server: %w", err))
			}
			call := Call{Seq: seq, Tool: tc.Name, Args: tc.Args, IsError: r.IsError,
				Refused: r.Refused, Bytes: r.Bytes, Duration: r.Duration, Reply: r.Text, Turn: out.Turns}
			if i == 0 {
				call.Usage, call.USD = resp.Usage, out.USD-usdBefore
			}
			out.Calls = append(out.Calls, call)
			if opts.AfterCall != nil {
				opts.AfterCall(seq, tc.Name)
			}
			if opts.Recorder != nil {
				if err := opts.Recorder.Call(tc.Name, tc.Args, r.IsError, r.Bytes); err != nil {
					return out.stop(StopError, err)
				}
			}
			results = append(results, llm.ToolResult{CallID: tc.ID, Name: tc.Name, Content: r.Text, IsError: r.IsError})
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, ToolResults: results})
	}
}

func (o *Outcome) stop(s Stop, err error) *Outcome {
	o.Stop, o.Err = s, err
	return o
}

// classify tells a deadline, a replay drift and a budget stop from other
// failures.
func classify(ctx context.Context, err error) Stop {
	var drift *llm.DriftError
	var budget *llm.BudgetExceededError
	switch {
	case errors.As(err, &drift):
		return StopDrift
	case errors.As(err, &budget):
		return StopBudget
	case ctx.Err() != nil:
		return ended(ctx)
	case errors.Is(err, context.DeadlineExceeded):
		return StopTimeout
	}
	return StopError
}

// ended tells a deadline from a cancellation of a context that is done.
func ended(ctx context.Context) Stop {
	if errors.Is(ctx.Err(), context.Canceled) {
		return StopInterrupted
	}
	return StopTimeout
}

// llmTools converts the session's offered MCP tools to the provider's
// form; the input schema passes through unchanged.
func llmTools(s *mcpclient.Session) ([]llm.Tool, error) {
	var tools []llm.Tool
	for _, t := range s.Tools() {
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		tools = append(tools, llm.Tool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return tools, nil
}
