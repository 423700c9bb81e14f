package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/report"
)

// boardRun is a replayed run of the suite "demo" whose task i passed when
// pass[i] is 'P'.
func boardRun(agent, pass string) *report.Run {
	r := &report.Run{
		SchemaVersion: report.SchemaVersion,
		GitSHA:        "0123456789ab",
		Settings:      report.Settings{Suite: "demo", Agent: agent, Server: "builtin", Web: "replay", Repeat: 1, Parallel: 1},
	}
	for i, o := range pass {
		task := fmt.Sprintf("t%02d", i+1)
		r.Settings.Tasks = append(r.Settings.Tasks, task)
		res := report.TaskResult{
			Task: task, Attempt: 1, Outcome: report.OutcomePassed, DurationMS: 1000,
			Evidence:   []contract.Evidence{{Path: "postconditions[0]", Kind: contract.KindURL, Passed: o == 'P'}},
			Provenance: &report.TaskProvenance{Spec: "sha256:spec-" + task, Contract: "sha256:contract-" + task},
		}
		if o != 'P' {
			res.Outcome = report.OutcomeFailed
			res.Failed = &report.Clause{Path: "postconditions[0]", Kind: contract.KindURL}
		}
		r.Results = append(r.Results, res)
	}
	return r
}

// TestBoardCommand writes the board of three runs, one with its HTML page
// beside the JSON and two without, one of them a report of schema_version
// 1, with -o after the reports, and checks where each row links.
func TestBoardCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths, err := report.WriteFiles(filepath.Join(dir, "runs"), "good", boardRun("anthropic", "PPPPPPPPF"))
	if err != nil {
		t.Fatal(err)
	}
	var weak bytes.Buffer
	if err := report.WriteJSON(&weak, boardRun("openai", "PFFFFFFFF")); err != nil {
		t.Fatal(err)
	}
	weakPath := filepath.Join(dir, "runs", "weak.json")
	if err := os.WriteFile(weakPath, weak.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old", "dac04951000f.json")
	os.MkdirAll(filepath.Dir(old), 0o755)
	v1, err := os.ReadFile(filepath.Join("testdata", "show-v1", "dac04951000f.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, v1, 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "site", "board.html")
	r := run(t, nil, "board", paths.JSON, weakPath, old, "-o", out)
	if r.code != exitOK || strings.TrimSpace(r.stdout) != out {
		t.Fatalf("board: exit %d, stdout %q, stderr %q; want 0 and the path %s", r.code, r.stdout, r.stderr, out)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`href="../runs/good.html"`,
		`href="../runs/weak.json"`,
		`href="../old/dac04951000f.json"`,
		`<span class="differs">differs, p = 0.016</span>`,
		`benchmarks/webvoyager`,
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the board lacks %s", want)
		}
	}
	if n := bytes.Count(page, []byte(`<table class="ranking">`)); n != 2 {
		t.Errorf("%d ranking tables, want 2: the demo runs, and the older report's suite apart", n)
	}
}

// A report that cannot be read ends the command with exit 2, naming the
// file, before anything is written: an earlier page stays as it was and no
// temporary file is left.
func TestBoardBadReportWritesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	var b bytes.Buffer
	if err := report.WriteJSON(&b, boardRun("anthropic", "PPF")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(good, b.Bytes(), 0o644)
	garbled := filepath.Join(dir, "garbled.json")
	os.WriteFile(garbled, []byte(`{"schema_version": 2, "results": [`), 0o644)
	future := filepath.Join(dir, "future.json")
	os.WriteFile(future, bytes.Replace(b.Bytes(), []byte(`"schema_version": 2`), []byte(`"schema_version": 99`), 1), 0o644)

	for _, bad := range []string{garbled, future, filepath.Join(dir, "missing.json")} {
		t.Run(filepath.Base(bad), func(t *testing.T) {
			t.Parallel()
			outDir := t.TempDir()
			out := filepath.Join(outDir, "board.html")
			r := run(t, nil, "board", "-o", out, good, bad)
			if r.code != exitUsage || !strings.Contains(r.stderr, bad) {
				t.Errorf("exit %d, stderr %q; want %d naming %s", r.code, r.stderr, exitUsage, bad)
			}
			if entries, _ := os.ReadDir(outDir); len(entries) != 0 {
				t.Errorf("the output folder holds %v, want nothing", entries)
			}

			os.WriteFile(out, []byte("the earlier board"), 0o644)
			if r := run(t, nil, "board", "-o", out, good, bad); r.code != exitUsage {
				t.Errorf("exit %d, want %d", r.code, exitUsage)
			}
			if b, _ := os.ReadFile(out); string(b) != "the earlier board" {
				t.Errorf("the earlier board became %q", b)
			}
			if entries, _ := os.ReadDir(outDir); len(entries) != 1 {
				t.Errorf("the output folder holds %v, want the earlier board alone", entries)
			}
		})
	}
}

func TestBoardUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	var b bytes.Buffer
	if err := report.WriteJSON(&b, boardRun("anthropic", "PPF")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(good, b.Bytes(), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no report", []string{"board"}, "at least one REPORT.json"},
		{"twice", []string{"board", "-o", filepath.Join(dir, "b.html"), good, filepath.Join(dir, ".", "good.json")}, "given twice"},
		{"a folder", []string{"board", "-o", dir, good}, "is a folder"},
		{"a name that is not plain", []string{"board", "-o", filepath.Join(dir, "my board.html"), good}, "file name must be"},
		{"unknown flag", []string{"board", good, "--nope"}, "flag provided but not defined: -nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, nil, tc.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, exitUsage, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "b.html")); err == nil {
		t.Errorf("a board was written despite the usage error")
	}
}

// After "--" every argument is a report, even one that looks like a flag.
func TestBoardDoubleDash(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "board.html")
	r := run(t, nil, "board", "-o", out, "--", "-x.json")
	if r.code != exitUsage || !strings.Contains(r.stderr, "open -x.json") {
		t.Errorf("exit %d, stderr %q; want %d, reading -x.json as a report", r.code, r.stderr, exitUsage)
	}
}
