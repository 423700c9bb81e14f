package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/mcpclient"
)

// connect starts a test server and a session to it, closed at cleanup.
func connect(t *testing.T, opts mcpclient.Options, server *mcp.ServerOptions) (*mcpclient.Session, *mcp.ServerSession, *toolCalls) {
	t.Helper()
	transport, ss, calls := serve(t, server)
	s, err := mcpclient.Connect(context.Background(), transport, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ss, calls
}

func TestConnectOffersTheAllowList(t *testing.T) {
	t.Parallel()
	all := []string{"echo", "fail", "snapshot"}
	tests := []struct {
		name  string
		allow []string
		want  []string
	}{
		{name: "nil offers every tool", allow: nil, want: all},
		{name: "one tool", allow: []string{"echo"}, want: []string{"echo"}},
		{name: "server order, not allow-list order", allow: []string{"snapshot", "echo"}, want: []string{"echo", "snapshot"}},
		{name: "names the server lacks are ignored", allow: []string{"echo", "teleport"}, want: []string{"echo"}},
		{name: "empty list offers nothing", allow: []string{}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _, _ := connect(t, mcpclient.Options{Allow: tt.allow}, nil)
			if got := names(s.Tools()); !slices.Equal(got, tt.want) {
				t.Errorf("Tools() = %s, want %s", join(got), join(tt.want))
			}
			if got := s.ServerTools(); !slices.Equal(got, all) {
				t.Errorf("ServerTools() = %s, want every tool the server lists, %s", join(got), join(all))
			}
			for _, name := range append(all, "teleport") {
				if got, want := s.Offered(name), slices.Contains(tt.want, name); got != want {
					t.Errorf("Offered(%q) = %v, want %v", name, got, want)
				}
			}
		})
	}
}

// A server may list its tools in pages; the session must read them all.
func TestConnectReadsEveryPageOfTools(t *testing.T) {
	t.Parallel()
	s, _, _ := connect(t, mcpclient.Options{}, &mcp.ServerOptions{PageSize: 1})
	want := []string{"echo", "fail", "snapshot"}
	if got := s.ServerTools(); !slices.Equal(got, want) {
		t.Errorf("with one tool per page, ServerTools() = %s, want %s", join(got), join(want))
	}
	if got := names(s.Tools()); !slices.Equal(got, want) {
		t.Errorf("with one tool per page, Tools() = %s, want %s", join(got), join(want))
	}
}

func TestToolsKeepTheirInputSchema(t *testing.T) {
	t.Parallel()
	s, _, _ := connect(t, mcpclient.Options{Allow: []string{"echo"}}, nil)
	raw, err := json.Marshal(s.Tools()[0].InputSchema)
	if err != nil {
		t.Fatalf("marshalling echo's input schema: %v", err)
	}
	var schema struct {
		Type       string
		Required   []string
		Properties map[string]struct{ Type, Description string }
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatalf("echo's input schema %s: %v", raw, err)
	}
	if schema.Type != "object" || !slices.Equal(schema.Required, []string{"text"}) {
		t.Errorf("echo's schema has type %q and required %v, want object and [text]; schema: %s", schema.Type, schema.Required, raw)
	}
	text := schema.Properties["text"]
	if text.Type != "string" || text.Description != "the text to send back" {
		t.Errorf("echo's text property = %+v, want a string described by its jsonschema tag; schema: %s", text, raw)
	}
}

func TestCall(t *testing.T) {
	t.Parallel()
	snapshotText := fmt.Sprintf("[image/png, %d bytes]\n%s", len(pngData), snapshotCaption)
	tests := []struct {
		name string
		tool string
		args string
		// content is what the tool answers; Bytes must be its JSON size.
		content    []mcp.Content
		wantText   string
		wantError  bool
		wantImages []mcpclient.Image
	}{
		{
			name:     "one text part",
			tool:     "echo",
			args:     `{"text": "hello"}`,
			content:  echoContent(echoArgs{Text: "hello"}),
			wantText: "hello",
		},
		{
			name:     "text parts joined by newlines",
			tool:     "echo",
			args:     `{"text": "row", "lines": 3}`,
			content:  echoContent(echoArgs{Text: "row", Lines: 3}),
			wantText: "row\nrow\nrow",
		},
		{
			name:       "image summarized in the text and kept whole",
			tool:       "snapshot",
			args:       `{}`,
			content:    snapshotContent(),
			wantText:   snapshotText,
			wantImages: []mcpclient.Image{{MIMEType: "image/png", Data: pngData}},
		},
		{
			name:       "no arguments are sent as an empty object",
			tool:       "snapshot",
			args:       "",
			content:    snapshotContent(),
			wantText:   snapshotText,
			wantImages: []mcpclient.Image{{MIMEType: "image/png", Data: pngData}},
		},
		{
			name:      "a tool's failure is a result with IsError",
			tool:      "fail",
			args:      `{"reason": "no element matches #go"}`,
			content:   []mcp.Content{&mcp.TextContent{Text: "no element matches #go"}},
			wantText:  "no element matches #go",
			wantError: true,
		},
		{
			name:      "arguments the schema rejects are a tool error too",
			tool:      "echo",
			args:      `{"text": 7}`,
			wantError: true,
		},
	}
	s, _, calls := connect(t, mcpclient.Options{}, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := s.Call(context.Background(), tt.tool, json.RawMessage(tt.args))
			if err != nil {
				t.Fatalf("Call(%s, %s): %v", tt.tool, tt.args, err)
			}
			if res.IsError != tt.wantError || res.Refused {
				t.Errorf("Call(%s): IsError %v, Refused %v; want IsError %v, not refused (text %q)", tt.tool, res.IsError, res.Refused, tt.wantError, res.Text)
			}
			if res.Duration <= 0 {
				t.Errorf("Call(%s): Duration %v, want the call's positive wall time", tt.tool, res.Duration)
			}
			if tt.content == nil {
				// Only the outcome is pinned; the message is the SDK's.
				if res.Text == "" {
					t.Errorf("Call(%s, %s): empty text, want the validation error", tt.tool, tt.args)
				}
				return
			}
			if res.Text != tt.wantText {
				t.Errorf("Call(%s).Text = %q, want %q", tt.tool, res.Text, tt.wantText)
			}
			wire, err := json.Marshal(tt.content)
			if err != nil {
				t.Fatal(err)
			}
			if res.Bytes != len(wire) {
				t.Errorf("Call(%s).Bytes = %d, want %d, the size of %s", tt.tool, res.Bytes, len(wire), wire)
			}
			if !slices.EqualFunc(res.Images, tt.wantImages, func(a, b mcpclient.Image) bool {
				return a.MIMEType == b.MIMEType && string(a.Data) == string(b.Data)
			}) {
				t.Errorf("Call(%s).Images = %v, want %v", tt.tool, res.Images, tt.wantImages)
			}
		})
	}
	t.Cleanup(func() {
		if got, want := calls.Load(), len(tests)-1; got != want {
			// The call with invalid arguments is rejected by the SDK
			// before the handler runs.
			t.Errorf("the server's handlers ran %d times, want %d", got, want)
		}
	})
}

func TestCallRefusesToolsNotOffered(t *testing.T) {
	t.Parallel()
	s, _, calls := connect(t, mcpclient.Options{Allow: []string{"echo", "snapshot"}}, nil)
	for _, tool := range []string{"fail", "teleport"} {
		res, err := s.Call(context.Background(), tool, json.RawMessage(`{"reason": "x"}`))
		if err != nil {
			t.Fatalf("Call(%s): %v; a refusal is a result, not an error", tool, err)
		}
		want := `tool "` + tool + `" is not offered; available tools: echo, snapshot`
		if !res.Refused || !res.IsError || res.Text != want {
			t.Errorf("Call(%s) = {Refused %v, IsError %v, Text %q}, want a refused error result saying %q", tool, res.Refused, res.IsError, res.Text, want)
		}
		if res.Bytes != len(want) {
			t.Errorf("Call(%s).Bytes = %d, want %d, the size of the refusal the agent reads", tool, res.Bytes, len(want))
		}
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("refused calls reached the server: %d handler calls, want 0", n)
	}
	if _, err := s.Call(context.Background(), "echo", json.RawMessage(`{"text": "hi"}`)); err != nil {
		t.Fatalf("Call(echo): %v", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("after one offered call the server counted %d calls, want 1", n)
	}
}

func TestCallFailsWhenTheSessionBroke(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		breakSession func(ss *mcp.ServerSession, s *mcpclient.Session) context.Context
	}{
		{
			name: "server closed",
			breakSession: func(ss *mcp.ServerSession, s *mcpclient.Session) context.Context {
				ss.Close()
				// Wait until the client has seen the connection go, so the
				// call below meets a dead session rather than racing it.
				s.Wait()
				return context.Background()
			},
		},
		{
			name: "client closed",
			breakSession: func(ss *mcp.ServerSession, s *mcpclient.Session) context.Context {
				s.Close()
				return context.Background()
			},
		},
		{
			name: "context cancelled",
			breakSession: func(ss *mcp.ServerSession, s *mcpclient.Session) context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, ss, _ := connect(t, mcpclient.Options{}, nil)
			ctx := tt.breakSession(ss, s)
			res, err := s.Call(ctx, "echo", json.RawMessage(`{"text": "hi"}`))
			if err == nil {
				t.Fatalf("Call on a broken session returned a result (%+v), want an error", res)
			}
			if !strings.HasPrefix(err.Error(), "mcp: call echo: ") {
				t.Errorf("error %q does not name the call (want prefix %q)", err, "mcp: call echo: ")
			}
			if res.Text != "" || res.IsError || res.Bytes != 0 {
				t.Errorf("with the error came a result with content: %+v", res)
			}
		})
	}
}

func TestConnectFailsWithoutAServer(t *testing.T) {
	t.Parallel()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	conn, err := serverEnd.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := mcpclient.Connect(ctx, clientEnd, mcpclient.Options{})
	if err == nil {
		s.Close()
		t.Fatal("Connect to a closed pipe succeeded, want an error")
	}
	if !strings.HasPrefix(err.Error(), "mcp: connect: ") {
		t.Errorf("error %q, want it to say the connect failed (prefix %q)", err, "mcp: connect: ")
	}
}

func TestCloseEndsTheServerSession(t *testing.T) {
	t.Parallel()
	s, ss, _ := connect(t, mcpclient.Options{}, nil)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	done := make(chan struct{})
	go func() {
		ss.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server session still runs 10s after the client closed")
	}
}

// TestOverStdio runs this test binary as an MCP server over stdio: the
// same boundary the runner crosses with every server.
func TestOverStdio(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"=1")
	s, err := mcpclient.Connect(ctx, &mcp.CommandTransport{Command: cmd}, mcpclient.Options{Allow: []string{"echo"}})
	if err != nil {
		t.Fatalf("Connect over stdio: %v", err)
	}
	res, err := s.Call(ctx, "echo", json.RawMessage(`{"text": "over stdio"}`))
	if err != nil || res.Text != "over stdio" {
		t.Errorf("Call(echo) over stdio = %q, %v; want %q, nil", res.Text, err, "over stdio")
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if cmd.ProcessState == nil {
		t.Errorf("Close returned while the server process (pid %d) was still running", cmd.Process.Pid)
	}
}

func TestConnectNamesTheCommandThatFailed(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("/nonexistent/mcp-server")
	_, err := mcpclient.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, mcpclient.Options{})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/mcp-server") {
		t.Errorf("Connect to a missing program: error %v, want one naming /nonexistent/mcp-server", err)
	}
}
