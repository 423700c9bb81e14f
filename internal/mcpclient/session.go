package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Session. The zero value offers every tool the server
// lists.
type Options struct {
	// Allow lists the tools offered to the agent; nil offers all of them.
	// Tools the server does not list are ignored.
	Allow []string
	// ClientName is reported to the server at initialization.
	ClientName string
}

// Session is a connected MCP tool server.
type Session struct {
	cs      *mcp.ClientSession
	offered []*mcp.Tool
	all     []string
}

// Result is the outcome of one tool call as the agent sees it.
type Result struct {
	// Text is the result's content as text: text parts joined by newlines,
	// other parts summarized ("[image/png, 10240 bytes]").
	Text string
	// IsError is the tool's own error flag, or true for a refused call.
	IsError bool
	// Refused is set when the tool was not offered and the call never
	// reached the server.
	Refused bool
	// Bytes is the size of the result's content as JSON, the payload the
	// server put on the wire for the agent to read.
	Bytes int
	// Images holds image parts (for providers that can show them).
	Images []Image
	// Duration is the call's wall time as the client measured it.
	Duration time.Duration
	// Raw is the server's result as it came, for a caller that passes it
	// on unchanged (an outside agent's MCP endpoint); nil for a refused
	// call.
	Raw *mcp.CallToolResult
}

// Image is an image part of a tool result.
type Image struct {
	MIMEType string
	Data     []byte
}

// Connect initializes a session over t and lists the server's tools. The
// session owns t: Close ends it (for a command transport, the process).
func Connect(ctx context.Context, t mcp.Transport, opts Options) (*Session, error) {
	name := opts.ClientName
	if name == "" {
		name = "contractbench"
	}
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("mcp: connect: %w", err)
	}
	s := &Session{cs: cs}
	// Tools follows the server's page cursors: a server may split its list
	// into pages, and a tool on a later page must not silently vanish.
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			cs.Close()
			return nil, fmt.Errorf("mcp: list tools: %w", err)
		}
		s.all = append(s.all, tool.Name)
		if opts.Allow == nil || slices.Contains(opts.Allow, tool.Name) {
			s.offered = append(s.offered, tool)
		}
	}
	return s, nil
}

// Tools returns the tools offered to the agent, in the server's order.
func (s *Session) Tools() []*mcp.Tool { return s.offered }

// ServerTools names every tool the server lists, offered or not.
func (s *Session) ServerTools() []string { return s.all }

// Offered reports whether the tool is offered to the agent.
func (s *Session) Offered(name string) bool {
	return slices.ContainsFunc(s.offered, func(t *mcp.Tool) bool { return t.Name == name })
}

// Call calls a tool. A tool that is not offered is refused without
// contacting the server. The error is non-nil only when the session itself
// broke (the server died, the protocol failed, ctx ended): the tool's own
// failures are results with IsError.
func (s *Session) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	if !s.Offered(name) {
		msg := fmt.Sprintf("tool %q is not offered; available tools: %s", name, strings.Join(s.offeredNames(), ", "))
		return Result{Text: msg, IsError: true, Refused: true, Bytes: len(msg)}, nil
	}
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	start := time.Now()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	d := time.Since(start)
	if err != nil {
		return Result{Duration: d}, fmt.Errorf("mcp: call %s: %w", name, err)
	}
	out := Result{IsError: res.IsError, Duration: d, Raw: res}
	if raw, err := json.Marshal(res.Content); err == nil {
		out.Bytes = len(raw)
	}
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			out.Images = append(out.Images, Image{MIMEType: c.MIMEType, Data: c.Data})
			parts = append(parts, fmt.Sprintf("[%s, %d bytes]", c.MIMEType, len(c.Data)))
		default:
			raw, _ := json.Marshal(c)
			parts = append(parts, string(raw))
		}
	}
	out.Text = strings.Join(parts, "\n")
	return out, nil
}

func (s *Session) offeredNames() []string {
	names := make([]string, len(s.offered))
	for i, t := range s.offered {
		names[i] = t.Name
	}
	return names
}

// Close ends the session and, for a spawned server, the process.
func (s *Session) Close() error { return s.cs.Close() }

// Wait returns when the server ends the session.
func (s *Session) Wait() error { return s.cs.Wait() }
