package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contractbench/internal/contract"
	"contractbench/internal/judge"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

const bundleTaskYAML = `id: t-01-done
instruction: Open the page titled Done.
start_url: https://example.test/
timeout: 60s
postconditions:
  - kind: url
    pattern: '^https://example\.test/done$'
reference:
  - tool: navigate
    args: {url: "https://example.test/done"}
rationale: The URL alone says the page was reached.
`

// bundleFixture writes a suite of one task and the report of a run of it
// with two attempts, judged on their stored Observations: one passed, one
// failed. It returns the report's path and the suite's.
func bundleFixture(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	suiteDir := filepath.Join(dir, "suite")
	file := filepath.Join(suiteDir, "tasks", "t-01-done.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(bundleTaskYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	task, err := suite.LoadTask(file)
	if err != nil {
		t.Fatal(err)
	}
	spec, pc, err := task.Digests()
	if err != nil {
		t.Fatal(err)
	}
	run := &report.Run{
		SchemaVersion: report.SchemaVersion, GitSHA: "0123456789ab", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Settings:   report.Settings{Suite: suiteDir, Agent: "reference", Server: "builtin", Web: "replay", Repeat: 2, Tasks: []string{task.ID}},
		Provenance: report.Provenance{Contractbench: "v1"},
	}
	for i, url := range []string{"https://example.test/done", "https://example.test/"} {
		obs := &contract.Observation{URL: url}
		res := report.TaskResult{Task: task.ID, Attempt: i + 1, Stop: report.Stop{Kind: report.StopAnswer},
			Observation: obs, Provenance: &report.TaskProvenance{Spec: spec, Contract: pc}}
		res.SetVerdict(judge.Evaluate(task.Postconditions, obs, nil))
		res.Decide()
		run.Results = append(run.Results, res)
	}
	paths, err := report.WriteFiles(filepath.Join(dir, "reports"), "run", run)
	if err != nil {
		t.Fatal(err)
	}
	return paths.JSON, suiteDir
}

// TestBundleVerifyBoard: a run bundled verifies; a cut bundle and a task
// edited before bundling are refused with exit code 2, naming the file;
// the board takes the bundle beside a report and marks which is which.
func TestBundleVerifyBoard(t *testing.T) {
	t.Parallel()
	rep, suiteDir := bundleFixture(t)
	dir := filepath.Dir(rep)
	tgz := filepath.Join(dir, "run.tar.gz")
	if r := run(t, nil, "bundle", "-o", tgz, rep); r.code != exitOK {
		t.Fatalf("bundle exited %d: %s", r.code, r.stderr)
	}
	r := run(t, nil, "verify", tgz)
	if r.code != exitOK || !strings.Contains(r.stdout, "score 1 / 2 (50.0%); the report gives 1 / 2 (50.0%)\nverified") {
		t.Fatalf("verify exited %d:\n%s%s", r.code, r.stdout, r.stderr)
	}

	data, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.tar.gz")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, nil, "verify", cut); r.code != exitUsage || !strings.Contains(r.stderr, cut+": refused:") || !strings.Contains(r.stderr, "truncated or corrupt") {
		t.Errorf("verify of a cut bundle exited %d: %s", r.code, r.stderr)
	}

	r = run(t, nil, "board", "-o", filepath.Join(dir, "board.html"), tgz, rep)
	if r.code != exitOK {
		t.Fatalf("board exited %d: %s", r.code, r.stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "board.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<a href="run.tar.gz">bundle</a> <span class="badge bundle"`, `<a href="run.html">report</a> <span class="badge note"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the board lacks %s", want)
		}
	}

	task := filepath.Join(suiteDir, "tasks", "t-01-done.yaml")
	if err := os.WriteFile(task, []byte(strings.Replace(bundleTaskYAML, "/done$", "/(done)?$", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, nil, "bundle", "-o", filepath.Join(dir, "again.zip"), rep)
	if r.code != exitUsage || !strings.Contains(r.stderr, task+": not the task the run read") {
		t.Errorf("bundle of an edited task exited %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "again.zip")); err == nil {
		t.Error("a refused bundle left a file")
	}
}
