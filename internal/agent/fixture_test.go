package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
)

// env is a tool server in memory and a session to it, with a log that
// shows the order in which the loop's hook and the server's handlers ran.
type env struct {
	session *mcpclient.Session
	server  *mcp.ServerSession

	mu  sync.Mutex
	log []string
}

func (e *env) record(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, fmt.Sprintf(format, args...))
}

// events returns the log so far.
func (e *env) events() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.log)
}

// beforeCall is the loop's BeforeCall hook; it logs what it was told.
func (e *env) beforeCall(seq int, tool string) { e.record("before %d %s", seq, tool) }

// afterCall is the loop's AfterCall hook; it logs what it was told.
func (e *env) afterCall(seq int, tool string) { e.record("after %d %s", seq, tool) }

// serverCalls counts the calls that reached the server's handlers.
func (e *env) serverCalls() int {
	n := 0
	for _, ev := range e.events() {
		if strings.HasPrefix(ev, "server ") {
			n++
		}
	}
	return n
}

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

type failArgs struct {
	Reason string `json:"reason" jsonschema:"the error message the tool answers with"`
}

// newEnv starts a server with three tools, echo (answers its text), fail
// (answers a tool error) and hang (answers when its call is cancelled),
// and connects a session to it with opts.
func newEnv(t *testing.T, opts mcpclient.Options) *env {
	t.Helper()
	e := &env{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test-tools", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Send the text back."},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			e.record("server echo %s", in.Text)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail", Description: "Always fails."},
		func(ctx context.Context, req *mcp.CallToolRequest, in failArgs) (*mcp.CallToolResult, any, error) {
			e.record("server fail %s", in.Reason)
			return nil, nil, errors.New(in.Reason)
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "hang", Description: "Answers only when cancelled."},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			e.record("server hang")
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), serverEnd, nil)
	if err != nil {
		t.Fatalf("connecting the test server: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	s, err := mcpclient.Connect(context.Background(), clientEnd, opts)
	if err != nil {
		t.Fatalf("connecting to the test server: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	e.session, e.server = s, ss
	return e
}

// fakeModel is a provider that plays scripted turns, one per Next, and
// keeps every request it was sent.
type fakeModel struct {
	model string
	turns []turn

	mu   sync.Mutex
	reqs []llm.Request
}

// turn is one scripted model turn: a response, or an error, or (wait) a
// model that answers only when its context ends.
type turn struct {
	resp llm.Response
	err  error
	wait bool
}

func (f *fakeModel) Name() string  { return "fake" }
func (f *fakeModel) Model() string { return f.model }

func (f *fakeModel) Next(ctx context.Context, req llm.Request) (llm.Response, error) {
	f.mu.Lock()
	// The loop appends to its message list after this returns; keep the
	// request as it was sent.
	req.Messages = slices.Clone(req.Messages)
	f.reqs = append(f.reqs, req)
	n := len(f.reqs)
	f.mu.Unlock()
	if n > len(f.turns) {
		return llm.Response{}, fmt.Errorf("fake model: request %d, but only %d turns are scripted", n, len(f.turns))
	}
	tr := f.turns[n-1]
	if tr.wait {
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}
	return tr.resp, tr.err
}

func (f *fakeModel) requests() []llm.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reqs)
}

func call(id, tool, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: tool, Args: json.RawMessage(args)}
}

func calls(cs ...llm.ToolCall) turn {
	return turn{resp: llm.Response{ToolCalls: cs, StopReason: "tool_use"}}
}

func answer(text string) turn {
	return turn{resp: llm.Response{Text: text, StopReason: "end_turn"}}
}

// withUsage sets the usage a turn reports.
func withUsage(tr turn, u llm.Usage) turn {
	tr.resp.Usage = u
	return tr
}

// textBytes is the wire size of a result holding one text part.
func textBytes(t *testing.T, text string) int {
	t.Helper()
	raw, err := json.Marshal([]mcp.Content{&mcp.TextContent{Text: text}})
	if err != nil {
		t.Fatal(err)
	}
	return len(raw)
}
