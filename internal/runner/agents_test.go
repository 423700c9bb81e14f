package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"

	"contractbench/internal/llm"
	"contractbench/internal/runner"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/transcript/transcripttest"
)

// The reference agent is refused, naming the task's file, when the server
// cannot play a task's reference; otherwise each task gets a player of
// its own reference.
func TestReferenceAgent(t *testing.T) {
	t.Parallel()
	good := task(t, exampleTask)
	bad := variant(t, exampleTask, "bad", func(tk *suite.Task) {
		tk.File = "tasks/bad.yaml"
		tk.Reference = []suite.Step{{Tool: "no_such_tool", Args: json.RawMessage(`{}`)}}
	})
	if _, err := runner.ReferenceAgent([]*suite.Task{good, bad}, servers.Builtin()); err == nil ||
		!strings.HasPrefix(err.Error(), "tasks/bad.yaml: reference on server builtin: ") {
		t.Errorf("a reference the server cannot play: %v, want an error naming the task's file and the server", err)
	}
	provider, err := runner.ReferenceAgent([]*suite.Task{good}, servers.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider(good)
	if err != nil || p == nil {
		t.Fatalf("provider of %s: %v, %v", good.ID, p, err)
	}
}

// The replayed agent plays a task's own transcript, and finds it stale at
// the first turn once what the task asks of the agent has changed.
func TestReplayAgent(t *testing.T) {
	t.Parallel()
	tk := task(t, exampleTask)
	tr, err := transcripttest.ReadFile(webSuite.TranscriptFile("builtin", tk.ID))
	if err != nil {
		t.Fatal(err)
	}
	replay := runner.ReplayAgent(map[string]*transcript.Transcript{tk.ID: tr})
	var tools []llm.Tool
	for _, c := range tr.Calls {
		tools = append(tools, llm.Tool{Name: c.Tool})
	}
	next := func(tk *suite.Task) (llm.Response, error) {
		p, err := replay(tk)
		if err != nil {
			t.Fatal(err)
		}
		return p.Next(context.Background(), llm.Request{Tools: tools})
	}
	if r, err := next(tk); err != nil || len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != tr.Calls[0].Tool {
		t.Errorf("first turn of %s: %+v, %v; want the recorded call %s", tk.ID, r, err, tr.Calls[0].Tool)
	}
	edited := variant(t, exampleTask, tk.ID, func(tk *suite.Task) { tk.Instruction += " Then stop." })
	var drift *llm.DriftError
	if _, err := next(edited); !errors.As(err, &drift) || !drift.Stale {
		t.Errorf("first turn of an edited task: %v, want a stale transcript", err)
	}
}

// named is a provider that only names itself; PaidAgent asks no more.
type named struct {
	llm.Provider
	name, model string
}

func (n named) Name() string  { return n.name }
func (n named) Model() string { return n.model }

// A paid agent is refused before the run when its provider cannot be
// built, or its model has no price (a FieldError naming the prices);
// otherwise each task gets a provider of its own.
func TestPaidAgent(t *testing.T) {
	t.Parallel()
	prices, err := llm.DefaultPrices()
	if err != nil {
		t.Fatal(err)
	}
	broken := errors.New("no key")
	if _, err := runner.PaidAgent(func() (llm.Provider, error) { return nil, broken }, prices); !errors.Is(err, broken) {
		t.Errorf("a provider that cannot be built: %v, want its error", err)
	}
	unpriced := func() (llm.Provider, error) { return named{name: "openai", model: "no-such-model"}, nil }
	_, err = runner.PaidAgent(unpriced, prices)
	var fe *runner.FieldError
	if !errors.As(err, &fe) || !slices.Equal(fe.Fields, []runner.Field{runner.FieldPrices}) ||
		!strings.HasPrefix(err.Error(), "openai: ") || !strings.HasSuffix(err.Error(), "(pass prices no-such-model=IN,OUT[,CACHE_READ,CACHE_WRITE])") {
		t.Errorf("an unpriced model: %v, want a FieldError naming prices and the model", err)
	}
	builds := 0
	priced := func() (llm.Provider, error) { builds++; return named{name: "openai", model: "x"}, nil }
	withX, err := prices.With("x", llm.Price{Input: 1, Output: 2})
	if err != nil {
		t.Fatal(err)
	}
	provider, err := runner.PaidAgent(priced, withX)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := provider(task(t, exampleTask)); err != nil {
			t.Fatal(err)
		}
	}
	if builds != 3 {
		t.Errorf("built %d providers, want one to check and one for each of two tasks", builds)
	}
}

// The network is probed at the host of the first task that names one,
// through its start URL or its reference's first navigation, on the
// scheme's port unless the URL names one; a run of tasks that name none
// dials nothing.
func TestProbeNetwork(t *testing.T) {
	t.Parallel()
	navigate := func(url string) []suite.Step {
		return []suite.Step{{Tool: "read_page", Args: json.RawMessage(`{}`)}, {Tool: "navigate", Args: json.RawMessage(`{"url":"` + url + `"}`)}}
	}
	with := func(start string, ref []suite.Step) *suite.Task {
		return &suite.Task{ID: "t", StartURL: start, Reference: ref}
	}
	down := errors.New("unreachable")
	for _, c := range []struct {
		name  string
		tasks []*suite.Task
		want  string
	}{
		{"https start URL", []*suite.Task{with("https://example.com/a", nil)}, "example.com:443"},
		{"http start URL", []*suite.Task{with("http://example.com/a", nil)}, "example.com:80"},
		{"a port of its own", []*suite.Task{with("http://example.com:8080/", nil)}, "example.com:8080"},
		{"the reference's navigation", []*suite.Task{with("", nil), with("", navigate("https://example.org/"))}, "example.org:443"},
		{"none", []*suite.Task{with("", nil)}, ""},
	} {
		var dialled []string
		dial := func(_ context.Context, network, addr string) (net.Conn, error) {
			dialled = append(dialled, network+" "+addr)
			return nil, down
		}
		addr, err := runner.ProbeNetwork(dial, c.tasks)
		switch {
		case c.want == "" && (addr != "" || err != nil || dialled != nil):
			t.Errorf("%s: %q, %v after dialling %q; want nothing dialled", c.name, addr, err, dialled)
		case c.want != "" && (addr != c.want || !errors.Is(err, down) || !slices.Equal(dialled, []string{"tcp " + c.want})):
			t.Errorf("%s: %q, %v after dialling %q; want %s dialled once and its error", c.name, addr, err, dialled, c.want)
		}
	}
}
