package runner_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"contractbench/internal/llm"
	"contractbench/internal/report"
	"contractbench/internal/runner"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// A plan's fields are unexported: once NewPlan made it, only the runner
// can reach them, so no command can change a plan after it was checked.
func TestPlanHasNoExportedField(t *testing.T) {
	typ := reflect.TypeFor[runner.Plan]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.IsExported() {
			t.Errorf("runner.Plan.%s is exported: a plan must not change once NewPlan checked it", f.Name)
		}
	}
}

// The report's settings are derived from the plan, never given: a spec
// holds no report.Settings, at any depth.
func TestSpecHoldsNoSettings(t *testing.T) {
	settings := reflect.TypeFor[report.Settings]()
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			switch {
			case f.Type == settings:
				t.Errorf("%s.%s is a report.Settings: the settings must be derived from the plan", path, f.Name)
			case f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == typ.PkgPath():
				walk(f.Type, path+"."+f.Name)
			}
		}
	}
	walk(reflect.TypeFor[runner.Spec](), "runner.Spec")
}

// NewPlan derives the report's settings from the spec, and its attempts
// are those the settings select: the shard's part, less what the resumed
// run finished.
func TestPlanDerivesItsSettings(t *testing.T) {
	a, b := variant(t, exampleTask, "plan-a", nil), variant(t, exampleTask, "plan-b", nil)
	cfg := newConfig(t, a, b)
	cfg.Repeat, cfg.Parallel, cfg.Shard = 2, 2, &report.Shard{Index: 1, Count: 2}
	cfg.GitSHA, cfg.Agent.Model, cfg.Trace = "abc", "m", runner.TraceFailed
	cfg.Agent.Provider, cfg.Agent.Exec = nil, &runner.ExecAgent{Command: "true", CDP: true}
	set := cfg.plan(t).Settings()
	want := report.Settings{
		Suite: webSuite.Dir, Agent: "reference", Model: "m", Server: "builtin", Web: "replay",
		Caps:   report.Caps{MaxTokensPerTurn: cfg.Caps.MaxTokensPerTurn, MaxToolIterations: cfg.Caps.MaxToolIterations, MaxUSD: cfg.Caps.MaxUSD},
		Repeat: 2, Parallel: 2, Tasks: []string{"plan-a", "plan-b"}, Shard: cfg.Shard, Trust: report.TrustUnrestricted,
		Trace: "failed", Isolate: "process", Browsers: "launched", WebRoute: "flags",
	}
	if !reflect.DeepEqual(set, want) {
		t.Fatalf("settings\n%+v\nwant\n%+v", set, want)
	}
	if got := report.Attempts(set); !slices.Equal(got, []report.Attempt{{Task: "plan-a", Attempt: 1}, {Task: "plan-b", Attempt: 1}}) {
		t.Errorf("the settings select %v, want the first attempt of each task", got)
	}
	cfg.Resume = &report.Run{GitSHA: "abc", Settings: set, Results: []report.TaskResult{
		{Task: "plan-a", Attempt: 1, Outcome: report.OutcomePassed},
		{Task: "plan-b", Attempt: 1, Outcome: report.OutcomeError},
	}}
	if n := cfg.plan(t).Pending(); n != 1 {
		t.Errorf("a resumed plan makes %d attempts, want 1: plan-b#1, which ended in an error", n)
	}

	// Shared browsers and a pace are stated too, and told in words.
	cfg = newConfig(t, a, b)
	cfg.Parallel, cfg.Browsers, cfg.Agent.Name = 4, 2, llm.NameReplay
	cfg.Pace = &runner.Pace{Fixed: 3 * time.Second, Jitter: 500 * time.Millisecond, Seed: 7}
	set = cfg.plan(t).Settings()
	if set.SharedBrowsers != 2 || set.Pace != "3s ±500ms, seed 7" {
		t.Errorf("shared browsers %d, pace %q; want 2, \"3s ±500ms, seed 7\"", set.SharedBrowsers, set.Pace)
	}
	if note, want := set.BrowserNote(), "launched, 2 shared by 4 workers, a fresh browser context per task"; !strings.HasPrefix(note, want) {
		t.Errorf("browser note %q; want it to start %q", note, want)
	}
}

// Every check of a spec is NewPlan's, and names the fields to change.
func TestNewPlanRefuses(t *testing.T) {
	tests := []struct {
		name string
		edit func(*runner.Spec)
		want string
	}{
		{"one browser for two workers", func(s *runner.Spec) { s.Parallel, s.BrowserURLs = 2, []string{"http://127.0.0.1:9222"} },
			"browser_urls: 1 browser endpoints for parallel 2: each worker needs a browser of its own (pass as many endpoints as parallel, or leave parallel out)"},
		{"unknown isolation", func(s *runner.Spec) { s.Isolate = "thread" },
			`unknown isolate "thread": want context or process`},
		{"a context for an agent given the whole browser", func(s *runner.Spec) {
			s.Isolate, s.Agent.Provider, s.Agent.Exec = runner.IsolateContext, nil, &runner.ExecAgent{Command: "true", CDP: true}
		}, "isolate context: agent_cdp gives the agent the whole browser, every context of it; run it with isolate process, its default"},
		{"a context for a server that cannot be confined to one", func(s *runner.Spec) {
			s.Isolate, s.Server.Unconfined = runner.IsolateContext, true
		}, "isolate context: server builtin cannot be confined to a browser context (its command takes no {browser_context}: it would list and open tabs outside the task's context); run it with isolate process, its default"},
		{"a running browser under process isolation", func(s *runner.Spec) {
			s.Server.Unconfined, s.BrowserURLs = true, []string{"http://127.0.0.1:9222"}
		}, "browser_urls with web replay: server builtin cannot be confined to a browser context (its command takes no {browser_context}), so its tasks share the browser's default context, which a running browser cannot be given the replay web in (it is wired in through launch flags or a browser context's proxy); pass web live to use that browser's own network, or drop browser_urls"},
		{"a resumed run of another question", func(s *runner.Spec) {
			s.Resume = &report.Run{Settings: report.Settings{Suite: s.Suite.Dir, Agent: "replay"}}
		}, `resume: not the same run: settings.agent differs: "replay" against "reference"`},
		{"a resumed run of another shard", func(s *runner.Spec) {
			p, err := runner.NewPlan(*s)
			if err != nil {
				t.Fatal(err)
			}
			s.Resume = &report.Run{Settings: p.Settings()}
			s.Shard = &report.Shard{Index: 1, Count: 2}
		}, "resume: it is shard <nil>, this run is 1/2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := newConfig(t, task(t, exampleTask))
			tt.edit(&cfg.Spec)
			p, err := runner.NewPlan(cfg.Spec)
			var fe *runner.FieldError
			if !errors.As(err, &fe) || err.Error() != tt.want {
				t.Errorf("NewPlan = %v, %v; want the *FieldError %q", p, err, tt.want)
			}
		})
	}
}

// Run reads its plan and never changes it, nor anything the plan reaches
// (tasks, the resumed report, the archive): the plan dumped after a run
// that resumed one attempt and made three, two at a time, is the plan
// dumped before.
func TestRunLeavesThePlanAsItWas(t *testing.T) {
	t.Parallel()
	cfg := newConfig(t, variant(t, exampleTask, "same-a", nil), variant(t, exampleTask, "same-b", nil))
	cfg.Repeat, cfg.Parallel, cfg.GitSHA = 2, 2, "abc"
	cfg.Transcripts = func(t *suite.Task, _ llm.Provider) transcript.Header {
		return transcript.Header{Task: t.ID, Server: "builtin", RecordedBy: transcript.RecordedByReference}
	}
	kept := report.TaskResult{Task: "same-a", Attempt: 1, Outcome: report.OutcomePassed, Answer: "kept"}
	cfg.Resume = &report.Run{GitSHA: "abc", Settings: cfg.plan(t).Settings(), Results: []report.TaskResult{kept}}
	plan := cfg.plan(t)
	before := runner.Dump(plan)

	run := runWithin(t, context.Background(), cfg)
	if after := runner.Dump(plan); after != before {
		i := 0
		for i < min(len(before), len(after)) && before[i] == after[i] {
			i++
		}
		from := max(i-300, 0)
		t.Errorf("the plan changed during the run; from byte %d:\nbefore …%.600s\nafter  …%.600s", i, before[from:], after[from:])
	}
	if !reflect.DeepEqual(run.Settings, plan.Settings()) || run.GitSHA != "abc" {
		t.Errorf("the report says %+v at %q, want the plan's settings %+v at abc", run.Settings, run.GitSHA, plan.Settings())
	}
	if len(run.Results) != 4 || !reflect.DeepEqual(run.Results[0], kept) {
		t.Fatalf("%d results, the first %+v; want 4, the first the kept one", len(run.Results), run.Results[0])
	}
	for _, res := range run.Results[1:] {
		if res.Outcome != report.OutcomePassed {
			t.Errorf("%s#%d: %s (%s), want passed", res.Task, res.Attempt, res.Outcome, res.Reason)
		}
	}
}
