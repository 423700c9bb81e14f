package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/agent/agenttest"
	"contractbench/internal/cdpconn"
	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/suite"
	"contractbench/internal/toolserver"
)

// forgery is what a peer server's evaluate tool lets an agent do: stay on
// the Main Page, rewrite the address and the text, and satisfy task-09's
// contract without ever reading the article.
const forgery = `() => {
  history.replaceState(null, '', '/wiki/Speed_of_light');
  document.body.innerText = 'The speed of light in vacuum is 299,792,458 metres per second.';
}`

// serverWithEvaluate is the built-in tool server plus an evaluate_script
// tool that really runs the given function in the page, as
// chrome-devtools-mcp's does.
func serverWithEvaluate(ctx context.Context, browserURL, browserContext, workDir string) (mcp.Transport, error) {
	srv, err := toolserver.New(ctx, toolserver.Options{BrowserURL: browserURL, BrowserContext: cdp.BrowserContextID(browserContext)})
	if err != nil {
		return nil, err
	}
	type args struct {
		Function string `json:"function" jsonschema:"a JavaScript function to run in the page"`
	}
	mcp.AddTool(srv.MCP(), &mcp.Tool{Name: "evaluate_script", Description: "Runs a JavaScript function in the page."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
			v, err := evaluate(ctx, browserURL, browserContext, in.Function)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: v}}}, nil, nil
		})
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), serverEnd, nil)
	if err != nil {
		srv.Close()
		return nil, err
	}
	go func() {
		ss.Wait()
		srv.Close()
	}()
	return clientEnd, nil
}

// evaluate runs fn in the task's page (the task has one, in browser
// context browserContext when it is set), over a session of its own, as a
// peer server's evaluate tool would, and returns its value as JSON.
func evaluate(ctx context.Context, browserURL, browserContext, fn string) (string, error) {
	conn, err := cdpconn.Dial(ctx, browserURL, func(target.SessionID, *cdproto.Message) {})
	if err != nil {
		return "", err
	}
	conn.Listen()
	defer conn.Close() // detaches; the page stays
	targets, err := cdpconn.Send(ctx, conn, "", target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return "", err
	}
	for _, t := range targets.TargetInfos {
		if t.Type != "page" || browserContext != "" && string(t.BrowserContextID) != browserContext {
			continue
		}
		att, err := cdpconn.Send(ctx, conn, "", target.AttachToTarget, target.AttachToTargetParams{TargetID: t.TargetID, Flatten: new(true)})
		if err != nil {
			return "", err
		}
		res, err := cdpconn.Send(ctx, conn, att.SessionID, runtime.Evaluate, runtime.EvaluateParams{
			Expression: "(" + fn + ")()", ReturnByValue: new(true), AwaitPromise: new(true)})
		if err != nil {
			return "", err
		}
		if res.ExceptionDetails != nil {
			return "", fmt.Errorf("evaluate: %s", res.ExceptionDetails.Text)
		}
		if res.Result == nil {
			return "", nil
		}
		return string(res.Result.Value), nil
	}
	return "", fmt.Errorf("no page")
}

// A contract is only proof if the agent cannot write the evidence itself:
// a run that forges task-09's evidence never passes, whether the tool is
// offered (tainted) or not (refused, so the forgery never happens).
func TestForgedEvidenceNeverPasses(t *testing.T) {
	t.Parallel()
	script := func(*suite.Task) (llm.Provider, error) {
		fn, _ := json.Marshal(map[string]string{"function": forgery})
		return agenttest.NewScript("forger", []llm.ToolCall{{Name: "evaluate_script", Args: fn}}), nil
	}
	unsafe := map[string]string{"evaluate_script": "runs page script"}
	allowed := []string{"navigate", "read_page", "find", "click", "type"}
	tests := []struct {
		name        string
		allowUnsafe []string
		want        report.Outcome
		reason      string
	}{
		{"the task allows the tool", []string{"evaluate_script"}, report.OutcomeTainted, "call 1 used evaluate_script, which runs page script"},
		{"the tool is not offered", nil, report.OutcomeFailed, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			task := variant(t, "task-09-wikipedia-speed-of-light", "task-09-forged", func(task *suite.Task) {
				task.AllowUnsafe = tc.allowUnsafe
			})
			cfg := newConfig(t, task)
			cfg.Server.Start, cfg.Agent.Provider, cfg.Server.Allow, cfg.Server.Unsafe = serverWithEvaluate, script, allowed, unsafe
			run := runWithin(t, context.Background(), cfg)
			r := run.Results[0]
			if r.Outcome != tc.want {
				t.Fatalf("outcome %s (reason %q), want %s", r.Outcome, r.Reason, tc.want)
			}
			if !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("reason %q lacks %q", r.Reason, tc.reason)
			}
			call := r.Calls[0]
			switch tc.want {
			case report.OutcomeTainted:
				// The forgery worked: the contract alone would have passed.
				if r.Failed != nil || call.Refused {
					t.Errorf("the forged page failed %s (refused %v); the test no longer shows a forgery", r.Failed, call.Refused)
				}
				if want := (report.Taint{Seq: 1, Tool: "evaluate_script", Why: "runs page script"}); r.Taint == nil || *r.Taint != want {
					t.Errorf("taint %+v, want %+v", r.Taint, want)
				}
			case report.OutcomeFailed:
				if !call.Refused {
					t.Errorf("call to a tool that was not offered was not refused: %+v", call)
				}
			}
		})
	}
}
