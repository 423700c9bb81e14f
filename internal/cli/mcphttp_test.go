package cli

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// `contractbench mcp --http` as an MCP client that connects by URL sees
// it: the built binary, the official SDK's streamable HTTP client, the
// same tools as over stdio, driving the shared browser.
func TestMCPServerOverHTTP(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(e2e.bin, "mcp", "--http", "127.0.0.1:0", "--cdp", e2e.browserURL)
	cmd.Env = os.Environ()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			t.Errorf("mcp --http after an interrupt: %v (want a clean exit)", err)
		}
	})
	// The server prints its URL once it listens.
	lines := bufio.NewScanner(stderr)
	var url string
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "MCP streamable HTTP: "); ok {
			url = u
			break
		}
	}
	if url == "" {
		t.Fatalf("mcp --http printed no URL (%v)", lines.Err())
	}
	go func() {
		for lines.Scan() { // keep the pipe drained
		}
	}()

	client := mcp.NewClient(&mcp.Implementation{Name: "contractbench-cli-test", Version: "test"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	defer cs.Close()
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
	// The stdio test may drive the same page at once; both go to
	// example.com, so either reads the same text.
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": "https://example.com/"}}); err != nil || res.IsError {
		t.Fatalf("navigate: %v %v", err, res)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_page", Arguments: map[string]any{"mode": "text"}})
	if err != nil || res.IsError {
		t.Fatalf("read_page: %v %v", err, res)
	}
	if text := callText(res); !strings.Contains(text, "Example Domain") {
		t.Errorf("read_page: text lacks %q:\n%s", "Example Domain", text)
	}
}

func TestMCPHTTPRefusesOtherAddresses(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:8931", "example.com:80", "8931"} {
		r := run(t, nil, "mcp", "--http", addr)
		if r.code != exitUsage || !strings.Contains(r.stderr, addr) {
			t.Errorf("--http %s: want exit %d naming the address, got %s", addr, exitUsage, r)
		}
	}
}
