// Package bundletest holds a run for tests of bundles: a suite of one task
// on disk and the report of a run of it, as a run writes them.
package bundletest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"contractbench/internal/contract"
	"contractbench/internal/judge"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// TaskID is the fixture's one task; its contract asks for the URL
// https://example.test/done.
const TaskID = "t-01-title"

const taskYAML = `id: t-01-title
instruction: Open the page titled Done.
start_url: https://example.test/
timeout: 60s
tags: [demo, 'kind:find']
postconditions:
  - kind: url
    pattern: '^https://example\.test/done$'
reference:
  - tool: navigate
    args: {url: "https://example.test/done"}
rationale: The URL alone says the page was reached.
`

// Run writes, below a temporary folder of tb, a suite of one task and the
// report "run" of a run of it with two attempts, each judged by
// judge.Evaluate on its stored Observation and with a final screenshot:
// the first passed, the second failed. It returns the report's JSON path
// and the suite's folder.
func Run(tb testing.TB) (reportPath, suiteDir string) {
	tb.Helper()
	dir := tb.TempDir()
	suiteDir = filepath.Join(dir, "suite")
	file := filepath.Join(suiteDir, "tasks", TaskID+".yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(taskYAML), 0o644); err != nil {
		tb.Fatal(err)
	}
	task, err := suite.LoadTask(file)
	if err != nil {
		tb.Fatal(err)
	}
	spec, pc, err := task.Digests()
	if err != nil {
		tb.Fatal(err)
	}
	var shot bytes.Buffer
	img := image.NewGray(image.Rect(0, 0, 8, 8))
	img.Set(1, 1, color.White)
	if err := png.Encode(&shot, img); err != nil {
		tb.Fatal(err)
	}
	run := &report.Run{
		SchemaVersion: report.SchemaVersion, GitSHA: "0123456789ab", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Settings:   report.Settings{Suite: suiteDir, Agent: "reference", Server: "builtin", Web: "replay", Repeat: 2, Tasks: []string{task.ID}},
		Provenance: report.Provenance{Contractbench: "v1"},
	}
	for i, url := range []string{"https://example.test/done", "https://example.test/"} {
		obs := &contract.Observation{URL: url, Screenshot: contract.Screenshot{PNG: shot.Bytes()}}
		res := report.TaskResult{Task: task.ID, Attempt: i + 1, Stop: report.Stop{Kind: report.StopAnswer},
			Observation: obs, Provenance: &report.TaskProvenance{Spec: spec, Contract: pc}}
		res.SetVerdict(judge.Evaluate(task.Postconditions, obs, nil))
		res.Decide()
		run.Results = append(run.Results, res)
	}
	paths, err := report.WriteFiles(filepath.Join(dir, "reports"), "run", run)
	if err != nil {
		tb.Fatal(err)
	}
	return paths.JSON, suiteDir
}
