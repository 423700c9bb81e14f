package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// A replay plays the suite's transcript of each task, read with the
// suite, or the one of another folder, read then; either's digest goes
// into the task's provenance, and a task without one is refused naming
// the file and the command that records it.
func TestReplays(t *testing.T) {
	t.Parallel()
	s, err := Load("../../benchmarks/webvoyager", "")
	if err != nil {
		t.Fatal(err)
	}
	tk, ok := s.Task("task-01-example-com-title")
	if !ok {
		t.Fatal("the suite lacks task-01-example-com-title")
	}
	tasks := []*suite.Task{tk}
	hint := func(task string) string { return "record " + task }

	prov := map[string]report.TaskProvenance{tk.ID: {Spec: "spec"}}
	records, err := s.Replays(tasks, "builtin", "", hint, prov)
	own := s.Transcripts[s.TranscriptFile("builtin", tk.ID)]
	if err != nil || own == nil || records[tk.ID] != own.Transcript {
		t.Fatalf("the suite's transcript: %v, %v; want the one read with the suite", records, err)
	}
	if p := prov[tk.ID]; p.Spec != "spec" || p.Transcript != own.Digest {
		t.Errorf("provenance %+v, want the spec kept and the transcript's digest %s", p, own.Digest)
	}

	dir := t.TempDir()
	data, err := os.ReadFile(s.TranscriptFile("builtin", tk.ID))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, tk.ID+".jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	prov = map[string]report.TaskProvenance{}
	records, err = s.Replays(tasks, "builtin", dir, hint, prov)
	if err != nil || records[tk.ID] == nil || records[tk.ID] == own.Transcript || prov[tk.ID].Transcript != own.Digest {
		t.Errorf("another folder's transcript: %v, %v, provenance %+v; want it read from %s, with the same digest", records, err, prov, dir)
	}

	missing := filepath.Join(t.TempDir(), tk.ID+".jsonl")
	_, err = s.Replays(tasks, "builtin", filepath.Dir(missing), hint, prov)
	if want := missing + ": no transcript for " + tk.ID + " (record one with: record " + tk.ID + ")"; err == nil || err.Error() != want {
		t.Errorf("no transcript: %v, want %q", err, want)
	}
	if _, err := s.Replays(tasks, "playwright-none", "", hint, prov); err == nil || !strings.Contains(err.Error(), "no transcript for "+tk.ID) {
		t.Errorf("a server without transcripts: %v, want the task's refused", err)
	}
}
