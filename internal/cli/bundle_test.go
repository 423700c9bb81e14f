package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/bundle/bundletest"
)

// TestBundleVerifyBoard: a run bundled verifies; a cut bundle and a task
// edited before bundling are refused with exit code 2, naming the file;
// the board takes the bundle beside a report and marks which is which.
func TestBundleVerifyBoard(t *testing.T) {
	t.Parallel()
	rep, suiteDir := bundletest.Run(t)
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

	task := filepath.Join(suiteDir, "tasks", bundletest.TaskID+".yaml")
	spec, err := os.ReadFile(task)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(task, []byte(strings.Replace(string(spec), "/done$", "/(done)?$", 1)), 0o644); err != nil {
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
