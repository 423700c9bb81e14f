package runner_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// recording returns a transcript of one call and an answer, each turn
// with the think time think, or none when think is negative.
func recording(think time.Duration) *transcript.Transcript {
	var d *time.Duration
	if think >= 0 {
		d = &think
	}
	return &transcript.Transcript{Calls: []transcript.Call{{Seq: 1, Tool: "navigate", Think: d}}, Final: &transcript.Final{Answer: "done", Think: d}}
}

// replayed makes the agent of s the replayed one, playing replays.
func replayed(s *runner.Spec, replays map[string]*transcript.Transcript) {
	s.Agent.Name, s.Agent.Replays = llm.NameReplay, replays
}

// Each check of a run's settings is NewPlan's: it refuses what is wrong
// with a *FieldError naming the fields to change (none for a task's
// budget, which its task file names), and accepts what is right.
func TestNewPlanChecksTheSettings(t *testing.T) {
	t.Parallel()
	sandboxTask := func(s *runner.Spec) {
		s.Tasks = []*suite.Task{variant(t, exampleTask, "forum-01", func(t *suite.Task) { t.StartURL = "http://forum.sandbox.test/latest" })}
	}
	tests := []struct {
		name string
		edit func(*runner.Spec)
		// field is the first field the refusal names, "-" for one that
		// names none; want is its text, empty when the spec is accepted.
		field runner.Field
		want  string
	}{
		{name: "an unknown trace", edit: func(s *runner.Spec) { s.Trace = "some" },
			field: runner.FieldTrace, want: `unknown trace "some": want auto, on, failed or off`},
		{name: "one browser twice", edit: func(s *runner.Spec) {
			s.Parallel, s.BrowserURLs = 2, []string{"http://127.0.0.1:9222", "http://127.0.0.1:9222"}
		}, field: runner.FieldBrowserURLs, want: "browser_urls: http://127.0.0.1:9222 is given twice; each worker needs a browser of its own"},
		{name: "two browsers", edit: func(s *runner.Spec) {
			s.Parallel, s.BrowserURLs = 2, []string{"http://127.0.0.1:9222", "http://127.0.0.1:9223"}
		}},
		{name: "a recording's folder without a recording", edit: func(s *runner.Spec) { s.RecordTo = "captured" },
			field: runner.FieldRecordTo, want: "record_to applies only with web record"},
		{name: "a recording's folder for a recording", edit: func(s *runner.Spec) {
			s.Web, s.Archive, s.Recorder, s.RecordTo = runner.WebRecord, nil, nil, "captured"
		}},
		{name: "an unknown web", edit: func(s *runner.Spec) { s.Web = "cached" },
			field: runner.FieldWeb, want: `unknown web "cached": want replay, live or record`},
		{name: "the replay web without a fixture web", edit: func(s *runner.Spec) { s.Archive = nil },
			field: runner.FieldWeb, want: "web replay: the suite has no fixture web (" + filepath.Join(webSuite.Dir, "web") + ")"},
		{name: "the live web without a fixture web", edit: func(s *runner.Spec) { s.Web, s.Archive = runner.WebLive, nil }},
		{name: "a sandbox site on the live web", edit: func(s *runner.Spec) { sandboxTask(s); s.Web = runner.WebLive },
			field: runner.FieldWeb, want: "web live: forum-01 starts on forum.sandbox.test, a sandbox site that exists only in this repository (internal/sandbox), so there is nothing on the network to use; run it with web replay"},
		{name: "a sandbox site recorded", edit: func(s *runner.Spec) { sandboxTask(s); s.Web = runner.WebRecord },
			field: runner.FieldWeb, want: "web record: forum-01 starts on forum.sandbox.test, a sandbox site that exists only in this repository (internal/sandbox), so there is nothing on the network to record; run it with web replay"},
		{name: "a sandbox site replayed", edit: sandboxTask},
		{name: "a task's budget above the run's cap", edit: func(s *runner.Spec) {
			s.Tasks = []*suite.Task{variant(t, exampleTask, "dear", func(t *suite.Task) { t.File, t.Budget.MaxUSD = "tasks/dear.yaml", 0.75 })}
		}, field: "-", want: "tasks/dear.yaml: budget: max_usd 0.75 would raise the cap of 0.50; caps can be lowered, never raised"},
		{name: "a task's budget below the run's cap", edit: func(s *runner.Spec) {
			s.Tasks = []*suite.Task{variant(t, exampleTask, "cheap", func(t *suite.Task) { t.Budget.MaxUSD = 0.25 })}
		}},
		{name: "a command for a provider's agent", edit: func(s *runner.Spec) { s.Agent.Exec = &runner.ExecAgent{Command: "true"} },
			field: runner.FieldAgentCmd, want: "agent_cmd applies only with agent exec"},
		{name: "a command and the browser for a provider's agent", edit: func(s *runner.Spec) {
			s.Agent.Exec = &runner.ExecAgent{Command: "true", CDP: true}
		}, field: runner.FieldAgentCmd, want: "agent_cmd applies only with agent exec"},
		{name: "the browser for a provider's agent", edit: func(s *runner.Spec) { s.Agent.Exec = &runner.ExecAgent{CDP: true} },
			field: runner.FieldAgentCDP, want: "agent_cdp applies only with agent exec"},
		{name: "an outside agent without a command", edit: func(s *runner.Spec) { s.Agent = runner.Agent{Name: "exec", Exec: &runner.ExecAgent{}} },
			field: runner.FieldAgent, want: "agent exec needs agent_cmd 'COMMAND' (docs/agents.md)"},
		{name: "an outside agent with a command", edit: func(s *runner.Spec) {
			s.Agent = runner.Agent{Name: "exec", Exec: &runner.ExecAgent{Command: "true", CDP: true}}
		}},
		{name: "a pace of no wait for an agent that is not replayed", edit: func(s *runner.Spec) { s.Pace = &runner.Pace{} },
			field: runner.FieldPace, want: "pace applies only to agent replay: every other agent answers at its own pace"},
		{name: "a pace for an outside agent", edit: func(s *runner.Spec) {
			s.Agent, s.Pace = runner.Agent{Name: "exec", Exec: &runner.ExecAgent{Command: "true"}}, &runner.Pace{Fixed: time.Second}
		}, field: runner.FieldPace, want: "pace applies only to agent replay: every other agent answers at its own pace"},
		{name: "recorded think times that were not recorded", edit: func(s *runner.Spec) {
			s.Tasks = []*suite.Task{variant(t, exampleTask, "a", nil), variant(t, exampleTask, "b", nil), variant(t, exampleTask, "c", nil)}
			replayed(s, map[string]*transcript.Transcript{"a": recording(-1), "b": recording(time.Second), "c": recording(-1)})
			s.Pace = &runner.Pace{Recorded: true}
		}, field: runner.FieldPace, want: "pace recorded: 2 of the 3 transcripts record no think times (a reference solution's, an outside agent's, or a model's recorded before think times were kept): a, c; pace them with pace DURATION"},
		{name: "recorded think times", edit: func(s *runner.Spec) {
			replayed(s, map[string]*transcript.Transcript{exampleTask: recording(time.Second)})
			s.Pace = &runner.Pace{Recorded: true, Jitter: time.Second}
		}},
		{name: "a fixed pace of transcripts without think times", edit: func(s *runner.Spec) {
			replayed(s, map[string]*transcript.Transcript{exampleTask: recording(-1)})
			s.Pace = &runner.Pace{Fixed: time.Second}
		}},
		{name: "a negative jitter", edit: func(s *runner.Spec) {
			replayed(s, map[string]*transcript.Transcript{exampleTask: recording(-1)})
			s.Pace = &runner.Pace{Fixed: time.Second, Jitter: -time.Second}
		}, field: runner.FieldPaceJitter, want: "pace_jitter -1s: want a duration of zero or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := newConfig(t, task(t, exampleTask))
			tt.edit(&cfg.Spec)
			p, err := runner.NewPlan(cfg.Spec)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("NewPlan: %v; want it accepted", err)
				}
				return
			}
			var fe *runner.FieldError
			if !errors.As(err, &fe) || err.Error() != tt.want {
				t.Fatalf("NewPlan = %v, %v; want the *FieldError %q", p, err, tt.want)
			}
			first := runner.Field("-")
			if len(fe.Fields) > 0 {
				first = fe.Fields[0]
			}
			if first != tt.field {
				t.Errorf("the refusal names the fields %v; want %q first", fe.Fields, tt.field)
			}
			// The command names each field as it sets it.
			rendered := fe.Render(func(f runner.Field) string { return "<" + string(f) + ">" })
			for _, f := range fe.Fields {
				if !strings.Contains(rendered, "<"+string(f)+">") {
					t.Errorf("rendered %q does not name %s", rendered, f)
				}
			}
		})
	}
}

// A trace of auto keeps every result's thumbnails in a run of up to 20
// task attempts; in a larger one, those of the results that did not pass,
// or none for an agent a rerun repeats. No trace is off.
func TestNewPlanResolvesTheTrace(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		trace  runner.Trace
		repeat int
		agent  string // the reference agent, a model, or an outside command
		want   string
	}{
		{runner.TraceAuto, 20, "model", "on"}, {runner.TraceAuto, 21, "model", "failed"}, {runner.TraceAuto, 21, "exec", "failed"},
		{"", 1, "model", "off"}, {runner.TraceOn, 21, "model", "on"},
		{runner.TraceAuto, 20, "reference", "on"}, {runner.TraceAuto, 21, "reference", "off"}, {runner.TraceFailed, 21, "reference", "failed"},
	} {
		cfg := newConfig(t, task(t, exampleTask))
		cfg.Trace, cfg.Repeat = tt.trace, tt.repeat
		switch tt.agent {
		case "model":
			cfg.Agent.Name = llm.NameAnthropic
		case "exec":
			cfg.Agent.Provider, cfg.Agent.Exec = nil, &runner.ExecAgent{Command: "true"}
		}
		if got := cfg.plan(t).Settings().Trace; got != tt.want {
			t.Errorf("trace %q of %d attempts (%s agent): %q, want %q", tt.trace, tt.repeat, tt.agent, got, tt.want)
		}
	}
}

// A total budget holds every run it is given to its total: an attempt
// starts only while the spend so far, every running attempt's cap and its
// own stay within it, and none starts once one was held back. A total
// below one paid attempt's cap, which could start none, is refused.
func TestSpendLimit(t *testing.T) {
	t.Parallel()
	cfg := newConfig(t, task(t, exampleTask))
	cfg.Repeat = 3
	free := cfg.plan(t)
	cfg.Agent.Name = llm.NameAnthropic
	paid := cfg.plan(t)
	if free.Paid() || !paid.Paid() {
		t.Fatalf("Paid: %v for the reference agent, %v for anthropic; want false, true", free.Paid(), paid.Paid())
	}

	_, err := runner.NewSpendLimit(0.2, free, paid)
	var fe *runner.FieldError
	if want := "max_total_usd 0.20 is below the $0.50 cap of one attempt: no attempt could start"; !errors.As(err, &fe) || err.Error() != want || fe.Fields[0] != runner.FieldMaxTotalUSD {
		t.Errorf("NewSpendLimit(0.2) of a paid plan = %v; want the *FieldError %q", err, want)
	}
	for _, total := range []float64{0, 0.5} {
		if _, err := runner.NewSpendLimit(total, paid); err != nil {
			t.Errorf("NewSpendLimit(%v) of a paid plan: %v; want it accepted", total, err)
		}
	}
	if _, err := runner.NewSpendLimit(0.2, free); err != nil {
		t.Errorf("NewSpendLimit(0.2) of a plan that pays nothing: %v; want it accepted", err)
	}

	none, _ := runner.NewSpendLimit(0, paid)
	if h := none.Hooks(paid); h.Admit != nil || h.TaskDone != nil {
		t.Error("no total, yet hooks that hold the run")
	}

	// What was spent counts, and a running attempt's cap.
	limit, err := runner.NewSpendLimit(1, paid)
	if err != nil {
		t.Fatal(err)
	}
	h, tk := limit.Hooks(paid), task(t, exampleTask)
	if !h.Admit(tk) {
		t.Fatal("an attempt capped at $0.50 held back under a total of $1")
	}
	h.TaskDone(tk, &report.TaskResult{USD: 0.375}, nil)
	if !h.Admit(tk) {
		t.Fatal("held back at $0.375 spent: with its $0.50 cap it stays within $1")
	}
	if spent, stopped := limit.Stopped(); spent != 0.375 || stopped {
		t.Errorf("Stopped = %v, %v; want 0.375, false", spent, stopped)
	}
	h.TaskDone(tk, &report.TaskResult{USD: 0.25}, nil)
	if h.Admit(tk) {
		t.Error("admitted at $0.625 spent: with its $0.50 cap it could pass $1")
	}
	if spent, stopped := limit.Stopped(); spent != 0.625 || !stopped {
		t.Errorf("Stopped = %v, %v; want 0.625, true", spent, stopped)
	}

	// Once one attempt is held back, none starts, whatever is freed.
	limit, _ = runner.NewSpendLimit(1.25, paid)
	h = limit.Hooks(paid)
	first, second, third := h.Admit(tk), h.Admit(tk), h.Admit(tk)
	if !first || !second || third {
		t.Fatal("want two attempts capped at $0.50 admitted under a total of $1.25, and a third held back")
	}
	h.TaskDone(tk, &report.TaskResult{USD: 0.125}, nil)
	if h.Admit(tk) {
		t.Error("an attempt admitted after the limit held one back")
	}
}
