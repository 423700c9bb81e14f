package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveEnv, when set in the environment of this test binary, makes it an
// MCP server over stdio instead of running tests; TestOverStdio starts it that
// way to cross a real process boundary.
const serveEnv = "MCPCLIENT_TEST_SERVE_STDIO"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		srv, _ := newToolServer(nil)
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(os.Stderr, "test server: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type echoArgs struct {
	Text  string `json:"text" jsonschema:"the text to send back"`
	Lines int    `json:"lines,omitempty" jsonschema:"how many copies to send, one text part each (default 1)"`
}

type failArgs struct {
	Reason string `json:"reason" jsonschema:"the error message the tool answers with"`
}

type snapshotArgs struct{}

// pngData stands in for a screenshot: the client never decodes it.
var pngData = []byte("\x89PNG\r\n\x1a\nnot really an image")

// snapshotCaption is the text part that follows the image.
const snapshotCaption = "viewport 1280x800"

// toolCalls counts the calls that reached a server's handlers.
type toolCalls struct{ n atomic.Int32 }

func (c *toolCalls) Load() int { return int(c.n.Load()) }

// newToolServer builds the server the tests talk to, with three tools:
// echo answers with text parts, fail answers with a tool error, snapshot
// with an image and a caption. The tools are added in an order other than
// their names' so that listing order is the server's, not the insertion's.
func newToolServer(opts *mcp.ServerOptions) (*mcp.Server, *toolCalls) {
	calls := &toolCalls{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test-tools", Version: "1"}, opts)
	mcp.AddTool(srv, &mcp.Tool{Name: "snapshot", Description: "A picture of the page."},
		func(ctx context.Context, req *mcp.CallToolRequest, in snapshotArgs) (*mcp.CallToolResult, any, error) {
			calls.n.Add(1)
			return &mcp.CallToolResult{Content: snapshotContent()}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Send the text back."},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			calls.n.Add(1)
			return &mcp.CallToolResult{Content: echoContent(in)}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail", Description: "Always fails."},
		func(ctx context.Context, req *mcp.CallToolRequest, in failArgs) (*mcp.CallToolResult, any, error) {
			calls.n.Add(1)
			return nil, nil, errors.New(in.Reason)
		})
	return srv, calls
}

func echoContent(in echoArgs) []mcp.Content {
	var out []mcp.Content
	for range max(in.Lines, 1) {
		out = append(out, &mcp.TextContent{Text: in.Text})
	}
	return out
}

func snapshotContent() []mcp.Content {
	return []mcp.Content{
		&mcp.ImageContent{MIMEType: "image/png", Data: pngData},
		&mcp.TextContent{Text: snapshotCaption},
	}
}

// serve connects a new tool server to one end of an in-memory pipe and
// returns the other end for the client, the server's session (closing it
// is how a test makes the server die) and its call counter.
func serve(t *testing.T, opts *mcp.ServerOptions) (mcp.Transport, *mcp.ServerSession, *toolCalls) {
	t.Helper()
	srv, calls := newToolServer(opts)
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	// The server end must be connected first: the client initializes the
	// session as it connects.
	ss, err := srv.Connect(context.Background(), serverEnd, nil)
	if err != nil {
		t.Fatalf("connecting the test server: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	return clientEnd, ss, calls
}

func names(tools []*mcp.Tool) []string {
	out := make([]string, len(tools))
	for i, tool := range tools {
		out[i] = tool.Name
	}
	return out
}

func join(s []string) string { return "[" + strings.Join(s, " ") + "]" }
