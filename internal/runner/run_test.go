package runner_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contractbench/internal/agent/agenttest"
	"contractbench/internal/contract"
	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/transcript/transcripttest"
)

const exampleTask = "task-01-example-com-title"

// TestReferenceRunPasses runs task-01's reference solution in a real
// browser on the fixture web and checks the result down to the
// observation the contract was graded on.
func TestReferenceRunPasses(t *testing.T) {
	t.Parallel()
	tk := task(t, exampleTask)
	cfg := newConfig(t, tk)
	var mu sync.Mutex
	var events []string
	var done *report.TaskResult
	cfg.Progress = func(e runner.Event) {
		mu.Lock()
		defer mu.Unlock()
		ev := e.Step
		if e.Step == "call" {
			ev = fmt.Sprintf("call %d %s", e.Seq, e.Tool)
		}
		if e.Step == "done" {
			done = e.Result
		}
		events = append(events, fmt.Sprintf("%s#%d %s", e.Task, e.Attempt, ev))
	}
	created := time.Date(2026, 3, 21, 12, 0, 0, 0, time.UTC)
	cfg.Transcripts = func(t *suite.Task, p llm.Provider) transcript.Header {
		return transcript.Header{Task: t.ID, Server: "builtin", RecordedBy: transcript.RecordedByReference, Created: created}
	}
	var rec *transcript.Recorder
	cfg.TaskDone = func(_ *suite.Task, _ *report.TaskResult, r *transcript.Recorder) { rec = r }

	run := runWithin(t, context.Background(), cfg)

	if run.SchemaVersion != report.SchemaVersion || run.Incomplete || len(run.Results) != 1 {
		t.Fatalf("run: schema %d, incomplete %v, %d results; want schema %d, complete, 1 result",
			run.SchemaVersion, run.Incomplete, len(run.Results), report.SchemaVersion)
	}
	res := run.Results[0]
	if res.Outcome != report.OutcomePassed || res.Reason != "" || res.Failed != nil {
		t.Fatalf("outcome %s (reason %q, failed %s), want passed; evidence: %+v", res.Outcome, res.Reason, res.Failed, res.Evidence)
	}
	if res.Task != tk.ID || res.Attempt != 1 || res.Answer != "reference on builtin: all 2 steps done" {
		t.Errorf("result for %s attempt %d answered %q, want %s attempt 1 with the reference driver's answer", res.Task, res.Attempt, res.Answer, tk.ID)
	}
	var bytes int64
	var tools []string
	for _, c := range res.Calls {
		tools = append(tools, c.Tool)
		bytes += c.ResponseBytes
		if c.IsError || c.Refused || c.ResponseBytes <= 0 {
			t.Errorf("call %d (%s): is_error %v, refused %v, %d bytes; want a plain result with content", c.Seq, c.Tool, c.IsError, c.Refused, c.ResponseBytes)
		}
	}
	if !slices.Equal(tools, []string{"navigate", "read_page"}) || res.ToolCalls != 2 || res.ResponseBytes != bytes {
		t.Errorf("calls %v (tool_calls %d, response_bytes %d), want navigate, read_page and bytes summing to %d", tools, res.ToolCalls, res.ResponseBytes, bytes)
	}
	if res.DurationMS <= 0 || run.DurationMS < res.DurationMS {
		t.Errorf("task took %d ms in a run of %d ms, want a positive duration within the run's", res.DurationMS, run.DurationMS)
	}
	if len(res.WebMisses) != 0 {
		t.Errorf("web misses %q, want none: the fixture web has every page of the task", res.WebMisses)
	}
	if len(res.Evidence) != len(tk.Postconditions) {
		t.Errorf("%d pieces of evidence, want one per leaf (%d)", len(res.Evidence), len(tk.Postconditions))
	}

	obs := res.Observation
	if obs == nil {
		t.Fatal("no observation in the result")
	}
	if obs.URL != "https://example.com/" || obs.Title != "Example Domain" {
		t.Errorf("observed page %q (%q), want https://example.com/ (Example Domain)", obs.URL, obs.Title)
	}
	wantH1 := contract.Elements{Count: 1, Texts: []string{"Example Domain"},
		Contains: map[string]contract.Hit{"Example Domain": {Match: 1, Excerpt: "Example Domain"}}}
	if got := obs.Elements["h1"]; !reflect.DeepEqual(got, wantH1) {
		t.Errorf("observed h1 = %+v, want %+v", got, wantH1)
	}
	i := slices.IndexFunc(obs.Network, func(n contract.NetworkEntry) bool { return n.URL == "https://example.com/" })
	if i < 0 {
		t.Fatalf("the network log has no request for https://example.com/: %+v", obs.Network)
	}
	doc := obs.Network[i]
	// The page was loaded by navigate, the first call; read_page came after.
	wantDoc := contract.NetworkEntry{URL: "https://example.com/", Method: "GET", Status: 200,
		ResourceType: "Document", StartMS: doc.StartMS, AfterLastToolCall: false}
	if doc != wantDoc || doc.StartMS < 0 {
		t.Errorf("document request %+v, want %+v with a start time since the task began", doc, wantDoc)
	}

	wantEvents := []string{"setup", "start", "call 1 navigate", "call 2 read_page", "judge", "done"}
	for i, e := range wantEvents {
		wantEvents[i] = tk.ID + "#1 " + e
	}
	if !slices.Equal(events, wantEvents) {
		t.Errorf("progress events %q, want %q", events, wantEvents)
	}
	if done == nil || done.Outcome != report.OutcomePassed {
		t.Errorf("the done event carried result %+v, want the passed result", done)
	}

	// The run recorded the same calls as the committed transcript.
	if rec == nil {
		t.Fatal("TaskDone got no recorder although Transcripts is set")
	}
	committed, err := transcripttest.ReadFile(webSuite.TranscriptFile("builtin", tk.ID))
	if err != nil {
		t.Fatal(err)
	}
	got := rec.Transcript()
	if len(got.Calls) != len(committed.Calls) {
		t.Fatalf("recorded %d calls, the committed transcript has %d", len(got.Calls), len(committed.Calls))
	}
	for i, c := range got.Calls {
		w := committed.Calls[i]
		if c.Tool != w.Tool || c.ArgsDigest != w.ArgsDigest || c.ResponseKind != w.ResponseKind {
			t.Errorf("recorded call %d = {%s %s %s}, committed {%s %s %s}", i+1, c.Tool, c.ArgsDigest, c.ResponseKind, w.Tool, w.ArgsDigest, w.ResponseKind)
		}
	}
	if got.Final == nil || got.Final.Answer != committed.Final.Answer {
		t.Errorf("recorded final %+v, want the committed answer %q", got.Final, committed.Final.Answer)
	}
}

// idle answers at once without a tool call, leaving the browser on the
// start page.
func idle(*suite.Task) (llm.Provider, error) { return agenttest.NewScript("idle", nil), nil }

// TestStartURLOutsideTheArchive pins what a start page the fixture web
// cannot serve does. A host the archive lacks does not resolve at all, so
// the task never starts: a harness error. A page the archive lacks on a
// host it has is answered 404 and logged as a miss: the task runs and the
// contract grades it, with the miss in the reason.
func TestStartURLOutsideTheArchive(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		startURL string
		provider runner.ProviderFunc
		check    func(t *testing.T, res report.TaskResult)
	}{
		{
			name:     "host outside the archive",
			startURL: "https://unarchived.example/",
			provider: reference,
			check: func(t *testing.T, res report.TaskResult) {
				// The task's context reaches the web through its replay
				// server as a proxy, which refuses the tunnel to a host
				// outside the archive (with a browser per task, the
				// resolver rules make it not resolve).
				prefix := "start page: open https://unarchived.example/: "
				if res.Outcome != report.OutcomeError || !strings.HasPrefix(res.Reason, prefix) ||
					!strings.Contains(res.Reason, "net::ERR_TUNNEL_CONNECTION_FAILED") {
					t.Errorf("outcome %s, reason %q; want error, %q ... net::ERR_TUNNEL_CONNECTION_FAILED", res.Outcome, res.Reason, prefix)
				}
				if res.Observation != nil || res.ToolCalls != 0 || len(res.WebMisses) != 0 {
					t.Errorf("observation %v, %d tool calls, misses %q; want none: the task never started", res.Observation != nil, res.ToolCalls, res.WebMisses)
				}
			},
		},
		{
			name:     "page outside the archive",
			startURL: "https://example.com/no-such-page",
			provider: idle,
			check: func(t *testing.T, res report.TaskResult) {
				miss := "GET https://example.com/no-such-page"
				if res.Outcome != report.OutcomeFailed || res.Failed.String() != "postconditions[0] (url)" {
					t.Errorf("outcome %s failing %s, want failed at postconditions[0] (url)", res.Outcome, res.Failed)
				}
				if !slices.Equal(res.WebMisses, []string{miss}) || res.Reason != "replay misses: "+miss {
					t.Errorf("web misses %q, reason %q; want [%s] and the reason naming it", res.WebMisses, res.Reason, miss)
				}
				if res.Observation == nil || res.Observation.URL != "https://example.com/no-such-page" {
					t.Fatalf("observation %+v, want the browser still on the start page", res.Observation)
				}
				i := slices.IndexFunc(res.Observation.Network, func(n contract.NetworkEntry) bool {
					return n.URL == "https://example.com/no-such-page"
				})
				if i < 0 || res.Observation.Network[i].Status != 404 {
					t.Errorf("network log %+v, want the start page answered 404", res.Observation.Network)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tk := variant(t, exampleTask, "start-outside", func(tk *suite.Task) { tk.StartURL = tt.startURL })
			cfg := newConfig(t, tk)
			cfg.Agent.Provider = tt.provider
			run := runWithin(t, context.Background(), cfg)
			if len(run.Results) != 1 {
				t.Fatalf("%d results, want 1", len(run.Results))
			}
			tt.check(t, run.Results[0])
		})
	}
}

// TestRunKeepsTaskThenAttemptOrder makes attempts finish out of order and
// checks that the report lists them in task, then attempt order anyway.
func TestRunKeepsTaskThenAttemptOrder(t *testing.T) {
	t.Parallel()
	a := variant(t, exampleTask, "order-a", nil)
	b := variant(t, exampleTask, "order-b", nil)
	cfg := newConfig(t, a, b)
	cfg.Parallel, cfg.Repeat = 2, 2

	otherDone := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var finished []string
	cfg.TaskDone = func(_ *suite.Task, r *report.TaskResult, _ *transcript.Recorder) {
		mu.Lock()
		finished = append(finished, fmt.Sprintf("%s#%d", r.Task, r.Attempt))
		mu.Unlock()
		if r.Task != "order-a" || r.Attempt != 1 {
			once.Do(func() { close(otherDone) })
		}
	}
	// The first attempt of the first task waits at its first call until
	// another attempt has finished; that can only happen if attempts run
	// side by side.
	var held atomic.Bool
	cfg.Progress = func(e runner.Event) {
		if e.Task == "order-a" && e.Attempt == 1 && e.Step == "call" && e.Seq == 1 {
			select {
			case <-otherDone:
				held.Store(true)
			case <-time.After(40 * time.Second):
			}
		}
	}

	run := runWithin(t, context.Background(), cfg)

	if !held.Load() {
		t.Fatalf("no other attempt finished while order-a #1 was held: with -j 2 attempts should run in parallel (finished: %q)", finished)
	}
	var got []string
	for _, r := range run.Results {
		got = append(got, fmt.Sprintf("%s#%d", r.Task, r.Attempt))
		if r.Outcome != report.OutcomePassed {
			t.Errorf("%s#%d: %s (%s), want passed", r.Task, r.Attempt, r.Outcome, r.Reason)
		}
	}
	want := []string{"order-a#1", "order-a#2", "order-b#1", "order-b#2"}
	if !slices.Equal(got, want) {
		t.Errorf("results in the order %q, want %q (they finished as %q)", got, want, finished)
	}
	if finished[0] == "order-a#1" {
		t.Errorf("attempts finished as %q: the test meant order-a#1 to finish after another", finished)
	}
	if run.Incomplete {
		t.Error("a run that finished every attempt is marked incomplete")
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// cancelAfter is how many attempts finish before the run is
		// cancelled; 0 cancels it before it starts.
		cancelAfter int
		want        []string
	}{
		{name: "before the first task", cancelAfter: 0, want: nil},
		{name: "after the first task", cancelAfter: 1, want: []string{"cancel-a#1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := variant(t, exampleTask, "cancel-a", nil)
			b := variant(t, exampleTask, "cancel-b", nil)
			cfg := newConfig(t, a, b)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAfter == 0 {
				cancel()
			}
			var finished int
			cfg.TaskDone = func(*suite.Task, *report.TaskResult, *transcript.Recorder) {
				if finished++; finished == tt.cancelAfter {
					cancel()
				}
			}
			var started []string
			cfg.Progress = func(e runner.Event) {
				if e.Step == "start" {
					started = append(started, fmt.Sprintf("%s#%d", e.Task, e.Attempt))
				}
			}

			run := runner.Run(ctx, cfg.plan(t), cfg.Hooks)
			if !run.Incomplete {
				t.Error("a cancelled run is not marked incomplete")
			}
			var got []string
			for _, r := range run.Results {
				got = append(got, fmt.Sprintf("%s#%d", r.Task, r.Attempt))
			}
			if !slices.Equal(got, tt.want) || !slices.Equal(started, tt.want) {
				t.Errorf("started %q and reported %q, want %q for both: no task starts once the run is cancelled", started, got, tt.want)
			}
		})
	}
}
