package servers

import (
	"context"
	"strings"
	"testing"

	"contractbench/internal/mcpclient"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeBuiltin serves the built-in server's navigate, read_page and find
// over an in-memory transport, each answering with replies[tool] (an
// error result for a tool in failing), and connects a session to it.
func fakeBuiltin(t *testing.T, replies map[string]string, failing ...string) *mcpclient.Session {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake-builtin", Version: "1"}, nil)
	for _, name := range []string{"navigate", "read_page", "find"} {
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "fake " + name},
			func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
				isErr := false
				for _, f := range failing {
					isErr = isErr || f == name
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: replies[name]}}, IsError: isErr}, nil, nil
			})
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s, err := mcpclient.Connect(t.Context(), clientEnd, mcpclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// WritePage writes the page's text, each find's reply, and the targets:
// a link find met carries its URL, and two links of one name are told
// apart only by it.
func TestWritePage(t *testing.T) {
	t.Parallel()
	sess := fakeBuiltin(t, map[string]string{
		"navigate":  "url: https://a.test/\ntitle: A",
		"read_page": "url: https://a.test/\ntitle: A\n[Map](e1) [Map](e2) [Search](e3 textbox)\n",
		"find":      "url: https://a.test/\ntitle: A\n1 match for \"Map\":\n- [Map](e2 /other-map)",
	})
	var out strings.Builder
	if err := Builtin().WritePage(t.Context(), &out, sess, "https://a.test/", []string{"role:link Map"}); err != nil {
		t.Fatal(err)
	}
	want := "## read_page (builtin)\nurl: https://a.test/\ntitle: A\n[Map](e1) [Map](e2) [Search](e3 textbox)\n" +
		"\n## find \"role:link Map\"\nurl: https://a.test/\ntitle: A\n1 match for \"Map\":\n- [Map](e2 /other-map)\n" +
		"\n## targets (3)\n" +
		"target: {role: link, name: \"Map\"}  # e1; 2 links have this name: add href, or the reference stops as ambiguous\n" +
		"target: {role: link, name: \"Map\", href: \"/other-map\"}  # e2; 2 links have this name: add href, or the reference stops as ambiguous\n" +
		"target: {role: field, name: \"Search\"}  # e3\n"
	if out.String() != want {
		t.Errorf("WritePage wrote\n%s\nwant\n%s", out.String(), want)
	}
}

// A server that cannot reach the page leaves nothing to write: its tool
// error is WritePage's, named by the tool.
func TestWritePageToolError(t *testing.T) {
	t.Parallel()
	sess := fakeBuiltin(t, map[string]string{"navigate": "net::ERR_NAME_NOT_RESOLVED"}, "navigate")
	var out strings.Builder
	err := Builtin().WritePage(t.Context(), &out, sess, "https://nowhere.test/", nil)
	if err == nil || err.Error() != "navigate: net::ERR_NAME_NOT_RESOLVED" || out.Len() != 0 {
		t.Errorf("got error %v and output %q; want the navigate error and nothing written", err, out.String())
	}
}
