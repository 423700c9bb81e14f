package cli

// `contractbench mcp` as any MCP client sees it: the built binary spawned
// over stdio with the official SDK's client, driving task-01's reference
// solution.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"contractbench/internal/suite"
)

// builtinTools are the tools the built-in server offers, sorted.
var builtinTools = []string{
	"click", "drag", "find", "go_back", "navigate", "press_key", "read_page",
	"screenshot", "scroll", "select_option", "tabs", "type", "upload_file", "wait_for",
}

func TestMCPServerOverStdio(t *testing.T) {
	t.Parallel()
	task, err := suite.LoadTask(filepath.Join(suiteDir, "tasks", task01+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
	}{
		{"own browser on the fixture web", []string{"mcp", "--web", "replay", "--suite", suiteDir}},
		{"attached to a running browser", []string{"mcp", "--cdp", e2e.browserURL}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.Command(e2e.bin, tc.args...)
			cmd.Env = os.Environ()
			client := mcp.NewClient(&mcp.Implementation{Name: "contractbench-cli-test", Version: "test"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
			if err != nil {
				t.Fatalf("connect to %s: %v", strings.Join(tc.args, " "), err)
			}
			closed := false
			defer func() {
				if !closed {
					cs.Close()
				}
			}()

			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
			}
			slices.Sort(names)
			if !slices.Equal(names, builtinTools) {
				t.Errorf("tools/list: %q, want %q", names, builtinTools)
			}

			var last string
			for i, step := range task.Reference {
				var args map[string]any
				if err := json.Unmarshal(step.Args, &args); err != nil {
					t.Fatalf("reference[%d]: %v", i, err)
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: step.Tool, Arguments: args})
				if err != nil {
					t.Fatalf("reference[%d] %s: %v", i, step.Tool, err)
				}
				last = callText(res)
				if res.IsError {
					t.Fatalf("reference[%d] %s %s: tool error: %s", i, step.Tool, step.Args, last)
				}
			}
			if got := task.Reference[len(task.Reference)-1].Tool; got != "read_page" {
				t.Fatalf("task-01's reference ends with %s, not read_page; this test reads its text", got)
			}
			if !strings.Contains(last, "Example Domain") {
				t.Errorf("read_page after the reference steps: text lacks %q:\n%s", "Example Domain", last)
			}

			closed = true
			if err := cs.Close(); err != nil {
				t.Errorf("closing the session (the server should exit when stdin closes): %v", err)
			}
		})
	}
}

// callText joins the text parts of a tool result.
func callText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
