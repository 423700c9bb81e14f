package suite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contractbench/internal/problem"
)

const goodTask = `id: task-99-demo
instruction: Open example.com.
start_url: https://example.com/
timeout: 90s
budget: {max_tool_iterations: 10, max_usd: 0.1}
tags: [smoke]
postconditions:
  - kind: url
    pattern: '^https://example\.com/$'
reference:
  - tool: navigate
    args: {url: "https://example.com/"}
rationale: A demo.
`

func TestParseTaskGood(t *testing.T) {
	t.Parallel()
	task, err := ParseTask("tasks/task-99-demo.yaml", []byte(goodTask))
	if err != nil {
		t.Fatalf("ParseTask: %v", err)
	}
	if task.ID != "task-99-demo" || task.Timeout != 90*time.Second || task.StartURL != "https://example.com/" {
		t.Errorf("decoded %+v", task)
	}
	if task.Budget.MaxToolIterations != 10 || task.Budget.MaxUSD != 0.1 || task.Budget.MaxTokensPerTurn != 0 {
		t.Errorf("budget = %+v", task.Budget)
	}
	if len(task.Reference) != 1 || string(task.Reference[0].Args) != `{"url":"https://example.com/"}` {
		t.Errorf("reference = %s", task.Reference[0].Args)
	}
	if len(task.Postconditions) != 1 {
		t.Errorf("postconditions = %d", len(task.Postconditions))
	}
}

func TestParseTaskProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(string) string
		want []string // "line: path: message fragment"
	}{
		{"id differs from file name", repl("id: task-99-demo", "id: task-98-other"),
			[]string{`:1: id: "task-98-other" must equal the file name "task-99-demo"`}},
		{"unknown field", repl("tags: [smoke]", "tags: [smoke]\ncolour: blue"),
			[]string{`:7: colour: unknown field "colour"`}},
		{"bad timeout", repl("timeout: 90s", "timeout: soon"),
			[]string{`:4: timeout: "soon" is not a duration`}},
		{"timeout too long", repl("timeout: 90s", "timeout: 2h"),
			[]string{`:4: timeout: 2h0m0s must be at least 10s (starting the browser and the tool server alone takes seconds) and at most 30m0s`}},
		{"timeout too short to start", repl("timeout: 90s", "timeout: 1ns"),
			[]string{`:4: timeout: 1ns must be at least 10s`}},
		{"a second YAML document", func(s string) string { return s + "---\nid: task-98-other\n" },
			[]string{`a second YAML document: a file holds one document`}},
		{"relative start url", repl("start_url: https://example.com/", "start_url: /index.html"),
			[]string{`:3: start_url: "/index.html" must be an absolute http(s) URL`}},
		{"budget raised field unknown", repl("max_usd: 0.1", "max_dollars: 0.1"),
			[]string{`:5: budget.max_dollars: unknown field`}},
		{"negative budget", repl("max_tool_iterations: 10", "max_tool_iterations: -1"),
			[]string{`:5: budget.max_tool_iterations: -1 must be a positive integer`}},
		{"contract problems carry paths", repl(`pattern: '^https://example\.com/$'`, `pattern: '('`),
			[]string{`:9: postconditions[0].pattern: invalid regexp`}},
		{"reference args not a mapping", repl(`args: {url: "https://example.com/"}`, `args: [1]`),
			[]string{`:12: reference[0].args: expected a mapping, got a list`}},
		{"missing fields all reported", func(string) string { return "id: task-99-demo\n" },
			[]string{"instruction: missing", "timeout: missing", "postconditions: missing", "reference: missing", "rationale: missing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseTask("tasks/task-99-demo.yaml", []byte(tc.edit(goodTask)))
			var ps problem.List
			if !errors.As(err, &ps) {
				t.Fatalf("want problem.List, got %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("problems do not contain %q:\n%s", w, err)
				}
			}
		})
	}
}

func repl(old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			panic("test edit does not apply: " + old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

func TestCanonicalIgnoresFormatting(t *testing.T) {
	t.Parallel()
	a, err := ParseTask("task-99-demo.yaml", []byte(goodTask))
	if err != nil {
		t.Fatal(err)
	}
	reformatted := "# a comment\n" + strings.Replace(goodTask, "tags: [smoke]", "tags:\n  - smoke", 1)
	b, err := ParseTask("task-99-demo.yaml", []byte(reformatted))
	if err != nil {
		t.Fatal(err)
	}
	if ca, cb := canonical(t, a), canonical(t, b); ca != cb {
		t.Errorf("formatting changed the canonical form:\n%s\n%s", ca, cb)
	}
	c, err := ParseTask("task-99-demo.yaml", []byte(strings.Replace(goodTask, "Open example.com.", "Open example.com now.", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if canonical(t, a) == canonical(t, c) {
		t.Error("a changed instruction kept the canonical form")
	}
}

func canonical(t *testing.T, task *Task) string {
	t.Helper()
	c, err := task.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return string(c)
}

// suiteOf writes a suite whose tasks folder holds files, by name, and
// returns its folder.
func suiteOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks")
	if err := os.MkdirAll(tasks, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(tasks, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadSuiteCollectsAllFiles(t *testing.T) {
	t.Parallel()
	dir := suiteOf(t, map[string]string{
		"task-99-demo.yaml": goodTask,
		"task-98-bad.yaml":  strings.Replace(goodTask, "task-99-demo", "task-98-bad", 1) + "extra: 1\n",
		"task-97-bad.yaml":  "id: [\n",
	})
	_, err := Load(dir)
	if err == nil {
		t.Fatal("Load accepted bad files")
	}
	for _, w := range []string{"task-98-bad.yaml:14: extra: unknown field", "task-97-bad.yaml:1: not valid YAML"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in:\n%v", w, err)
		}
	}
}

func TestRealSuiteLoads(t *testing.T) {
	t.Parallel()
	s, err := Load("../../benchmarks/webvoyager")
	if err != nil {
		t.Fatalf("the shipped suite does not load:\n%v", err)
	}
	if len(s.Tasks) < 10 {
		t.Errorf("suite has %d tasks, want at least the seed's 10", len(s.Tasks))
	}
	sel, err := s.Select([]string{"task-03", "task-01-example-com-title"})
	if err != nil || len(sel) != 2 || sel[0].ID != "task-01-example-com-title" {
		t.Errorf("Select = %v, %v", sel, err)
	}
	if _, err := s.Select([]string{"task-42"}); err == nil {
		t.Error("Select accepted an unknown task")
	}
}

// TestSelectByWholeIDOrPrefix: a task's whole id selects it even when it
// begins other ids too (a generated instance and the controls named
// after it); a prefix selects the one task it begins, and one that begins
// several is refused with their names.
func TestSelectByWholeIDOrPrefix(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for _, id := range []string{"task-99-demo", "task-99-demo-then-open", "task-98-other"} {
		files[id+".yaml"] = strings.Replace(goodTask, "task-99-demo", id, 1)
	}
	s, err := Load(suiteOf(t, files))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ids  []string
		want string
	}{
		{[]string{"task-99-demo"}, "task-99-demo"},
		{[]string{"task-99-demo-then-open", "task-99-demo"}, "task-99-demo task-99-demo-then-open"},
		{[]string{"task-98"}, "task-98-other"},
	} {
		sel, err := s.Select(c.ids)
		if err != nil {
			t.Errorf("Select(%q): %v", c.ids, err)
			continue
		}
		var got []string
		for _, t := range sel {
			got = append(got, t.ID)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("Select(%q) = %q, want %s", c.ids, got, c.want)
		}
	}
	_, err = s.Select([]string{"task-99"})
	if err == nil || !strings.Contains(err.Error(), "is ambiguous") || !strings.Contains(err.Error(), "task-99-demo, task-99-demo-then-open") {
		t.Errorf("Select(task-99) = %v; want it refused as ambiguous, naming both tasks", err)
	}
}

func FuzzParseTask(f *testing.F) {
	f.Add([]byte(goodTask))
	f.Add([]byte("id: x\npostconditions: [{kind: or, children: []}]\n"))
	f.Add([]byte("reference: [{tool: a, args: {b: [1, {c: d}]}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		task, err := ParseTask("task-99-demo.yaml", data)
		if err != nil {
			return
		}
		if _, err := task.Canonical(); err != nil {
			t.Fatalf("accepted task has no canonical form: %v", err)
		}
	})
}

func TestReferenceTargets(t *testing.T) {
	t.Parallel()
	withTarget := func(target string) string {
		return strings.Replace(goodTask, `    args: {url: "https://example.com/"}`,
			"    args: {url: \"https://example.com/\"}\n    target: "+target, 1)
	}
	task, err := ParseTask("task-99-demo.yaml", []byte(withTarget(`{role: link, name: "More information...", href: "/help"}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := *task.Reference[0].Target; got != (Target{Role: "link", Name: "More information...", Href: "/help"}) {
		t.Errorf("target = %+v", got)
	}
	_, err = ParseTask("task-99-demo.yaml", []byte(withTarget(`{role: checkbox, colour: red}`)))
	for _, want := range []string{
		`:13: reference[0].target.colour: unknown field`,
		`reference[0].target.name: missing`,
		`:13: reference[0].target.role: "checkbox" must be one of link, button, field`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("problems lack %q:\n%v", want, err)
		}
	}
}

// A drag step names the element it drops onto by to; no other step may,
// and a drag without one is refused.
func TestReferenceDragTo(t *testing.T) {
	t.Parallel()
	withSteps := func(steps string) string {
		return strings.Replace(goodTask, "    args: {url: \"https://example.com/\"}\n", "    args: {url: \"https://example.com/\"}\n"+steps, 1)
	}
	task, err := ParseTask("task-99-demo.yaml", []byte(withSteps(
		"  - tool: drag\n    target: {role: link, name: Fix login}\n    to: {role: region, name: Done}\n"+
			"  - tool: upload_file\n    target: {role: button, name: Attachment}\n    args: {files: [notes.txt]}\n"+
			"  - tool: click\n    target: {role: option, name: Ann <ann@example.test>}\n")))
	if err != nil {
		t.Fatal(err)
	}
	drag := task.Reference[1]
	if drag.Target == nil || drag.To == nil || *drag.To != (Target{Role: "region", Name: "Done"}) || drag.Target.Name != "Fix login" {
		t.Errorf("drag step = %+v", drag)
	}
	if task.Reference[2].To != nil || task.Reference[3].Target.Role != "option" {
		t.Errorf("steps = %+v", task.Reference[2:])
	}
	_, err = ParseTask("task-99-demo.yaml", []byte(withSteps(
		"  - tool: drag\n    target: {role: link, name: Fix login}\n"+
			"  - tool: click\n    target: {role: button, name: Save}\n    to: {role: region, name: Done}\n"+
			"  - tool: upload_file\n    args: {files: [a.txt]}\n")))
	for _, want := range []string{
		`:13: reference[1].to: missing (a drag step names the element it drops onto`,
		`:17: reference[2].to: only a drag step has a to`,
		`reference[3].target: missing (a upload_file step`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("problems lack %q:\n%v", want, err)
		}
	}
}

// The transcript digest covers what the task asks of the agent and
// nothing else: editing the rationale, tags, timeout, budget, contract or
// reference keeps a recording replayable; editing the instruction, start
// URL or unsafe tools does not.
func TestAgentTaskCoversOnlyTheAgentsTask(t *testing.T) {
	t.Parallel()
	agentTask := func(src string) string {
		t.Helper()
		task, err := ParseTask("task-99-demo.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		b, err := task.AgentTask()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	base := agentTask(goodTask)
	tests := []struct {
		name, old, new string
		changes        bool
	}{
		{"rationale", "rationale: A demo.", "rationale: A better demo.", false},
		{"tags", "tags: [smoke]", "tags: [smoke, nav]", false},
		{"timeout", "timeout: 90s", "timeout: 120s", false},
		{"budget", "max_usd: 0.1", "max_usd: 0.2", false},
		{"contract", `'^https://example\.com/$'`, `'^https://example\.com/'`, false},
		{"reference", `args: {url: "https://example.com/"}`, `args: {url: "https://example.com/#top"}`, false},
		{"instruction", "Open example.com.", "Open example.org.", true},
		{"start url", "start_url: https://example.com/", "start_url: https://example.com/a", true},
		{"unsafe tools", "rationale: A demo.", "rationale: A demo.\nallow_unsafe: [evaluate]", true},
	}
	for _, tc := range tests {
		if !strings.Contains(goodTask, tc.old) {
			t.Fatalf("%s: the task lacks %q", tc.name, tc.old)
		}
		got := agentTask(strings.Replace(goodTask, tc.old, tc.new, 1))
		if changed := got != base; changed != tc.changes {
			t.Errorf("editing the %s: agent task changed %v, want %v", tc.name, changed, tc.changes)
		}
	}
}
