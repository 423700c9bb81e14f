package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

func TestBaseName(t *testing.T) {
	t.Parallel()
	const sha = "4f2a9c1e8b7d"
	def := Settings{Agent: "replay", Server: "builtin", Web: "replay", Repeat: 1,
		Tasks: []string{"task-01-a", "task-02-b", "task-03-c"}, AllTasks: true}
	with := func(edit func(*Settings)) Settings {
		s := def
		edit(&s)
		return s
	}
	tests := []struct {
		name string
		sha  string
		s    Settings
		want string
	}{
		{"the default run of a commit", sha, def, sha},
		{"the default run of a dirty tree", sha + "-dirty", def, sha + "-dirty"},
		{"one task", sha, with(func(s *Settings) { s.Tasks, s.AllTasks = []string{"task-01-a"}, false }),
			sha + "-replay-builtin-replay-task-01-a"},
		{"a selection of several", sha, with(func(s *Settings) { s.Tasks, s.AllTasks = []string{"task-01-a", "task-02-b"}, false }),
			sha + "-replay-builtin-replay-2tasks-" + selectionName(Settings{Tasks: []string{"task-01-a", "task-02-b"}})[len("2tasks-"):]},
		{"a model", sha, with(func(s *Settings) { s.Agent, s.Model = "anthropic", "claude-sonnet-4-5" }),
			sha + "-anthropic-claude-sonnet-4-5-builtin-replay-all"},
		{"a model name with a slash", sha, with(func(s *Settings) { s.Agent, s.Model = "openai", "meta/llama 3" }),
			sha + "-openai-meta_llama_3-builtin-replay-all"},
		{"a model described in words", sha, with(func(s *Settings) { s.Agent, s.Model = "exec", "my-agent (beta) / v2" }),
			sha + "-exec-my-agent_beta_v2-builtin-replay-all"},
		{"the null agent noop, which describes its model in words", sha, with(func(s *Settings) { s.Agent, s.Model = "noop", "none (null agent: no model ran)" }),
			sha + "-noop-builtin-replay-all"},
		{"the null agent random", sha, with(func(s *Settings) { s.Agent, s.Model = "random --seed 3", "none (null agent: no model ran)" }),
			sha + "-random_--seed_3-builtin-replay-all"},
		{"the reference agent", sha, with(func(s *Settings) { s.Agent = "reference" }),
			sha + "-reference-builtin-replay-all"},
		{"a peer server", sha, with(func(s *Settings) { s.Server = "playwright" }),
			sha + "-replay-playwright-replay-all"},
		{"the live web", sha, with(func(s *Settings) { s.Web = "live" }),
			sha + "-replay-builtin-live-all"},
		{"repeated", sha, with(func(s *Settings) { s.Repeat = 3 }),
			sha + "-replay-builtin-replay-all-x3"},
	}
	seen := map[string]string{}
	for _, tc := range tests {
		got := BaseName(&Run{GitSHA: tc.sha, Settings: tc.s})
		if got != tc.want {
			t.Errorf("%s: BaseName = %q, want %q", tc.name, got, tc.want)
		}
		if !SafeName(got) {
			t.Errorf("%s: BaseName %q is not a plain file name", tc.name, got)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("%s and %s share the report name %q: one would overwrite the other", prev, tc.name, got)
		}
		seen[got] = tc.name
	}
	// Two different selections of the same size get different names.
	a := selectionName(Settings{Tasks: []string{"task-01-a", "task-02-b"}})
	b := selectionName(Settings{Tasks: []string{"task-01-a", "task-03-c"}})
	if a == b {
		t.Errorf("two different selections share the name %q", a)
	}
}

// Every view says what played the agent, so replayed or scripted calls are
// never read as a model's work.
func TestAgentSaidEverywhere(t *testing.T) {
	t.Parallel()
	tests := []struct {
		agent, model, want string
	}{
		{"replay", "", "replayed transcripts, no model ran"},
		{"reference", "", "the tasks' scripted reference solutions, no model ran"},
		{"noop", "", "null agent noop, no model ran"},
		{"anthropic", "claude-sonnet-4-5", "anthropic model claude-sonnet-4-5"},
	}
	for _, tc := range tests {
		r := testRun(t)
		r.Settings.Agent, r.Settings.Model = tc.agent, tc.model
		var md bytes.Buffer
		if err := WriteMarkdown(&md, r); err != nil {
			t.Fatal(err)
		}
		var header, row string
		for _, l := range strings.Split(md.String(), "\n") {
			if strings.HasPrefix(l, "- agent: ") {
				header = l
			}
			if strings.HasPrefix(l, "| this run") {
				row = l
			}
		}
		want := escape(tc.want)
		if !strings.Contains(header, want) {
			t.Errorf("agent %s: header line %q does not say %q", tc.agent, header, want)
		}
		if !strings.Contains(row, ", agent: "+tc.want+" |") {
			t.Errorf("agent %s: comparison row %q does not say %q", tc.agent, row, tc.want)
		}
	}
}

// An interrupted attempt says nothing about the agent: the score leaves it
// out rather than counting it as an error.
func TestInterruptedLeftOutOfTheScore(t *testing.T) {
	t.Parallel()
	r := testRun(t)
	r.Incomplete = true
	before := Summarize(r)
	r.Results = append(r.Results, TaskResult{Task: "task-11-extra", Attempt: 1, Outcome: OutcomeInterrupted,
		Reason: "interrupted before the agent finished"})
	after := Summarize(r)
	if after.Total != before.Total || after.Passed != before.Passed || after.Score != before.Score || after.Tasks != before.Tasks {
		t.Errorf("an interrupted result changed the score: total %d→%d, passed %d→%d, tasks %d→%d",
			before.Total, after.Total, before.Passed, after.Passed, before.Tasks, after.Tasks)
	}
	if after.ByOutcome[OutcomeInterrupted] != 1 || after.ByOutcome[OutcomeError] != before.ByOutcome[OutcomeError] {
		t.Errorf("by outcome: %v; want interrupted 1 and errors unchanged", after.ByOutcome)
	}
	doc := parseJUnit(t, r)
	last := doc.Suites[0].Cases[len(doc.Suites[0].Cases)-1]
	if last.Skipped == nil || last.Error != nil || last.Failure != nil {
		t.Errorf("JUnit case %s: want skipped, not an error or failure", last.Name)
	}
}

// compare writes one junit.xml for all its servers.
func TestJUnitRuns(t *testing.T) {
	t.Parallel()
	a, b := testRun(t), testRun(t)
	b.Settings.Server = "playwright"
	var out bytes.Buffer
	if err := WriteJUnitRuns(&out, []*Run{a, b}); err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 2 || doc.Suites[0].Name != "webvoyager [builtin]" || doc.Suites[1].Name != "webvoyager [playwright]" {
		t.Fatalf("want a testsuite per server, got %d: %+v", len(doc.Suites), doc.Suites)
	}
	if doc.Tests != len(a.Results)+len(b.Results) || doc.Failures != doc.Suites[0].Failures+doc.Suites[1].Failures {
		t.Errorf("totals %d tests %d failures do not add up the suites", doc.Tests, doc.Failures)
	}
}
