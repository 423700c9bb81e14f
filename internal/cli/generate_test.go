package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A dozen fresh tasks, fewer than the templates: generate samples a
// dozen templates by the seed, says which, and draws the same for the
// same seed.
func TestGenerateFewerThanTheTemplates(t *testing.T) {
	t.Parallel()
	var first map[string]string
	for range 2 {
		dir := filepath.Join(t.TempDir(), "dozen")
		r := run(t, nil, "generate", "--seed", "5", "--count", "12", "--from", sandboxDir, "--out", dir)
		if r.code != exitOK || !strings.Contains(r.stdout, "12 tasks from 12 templates") || !strings.Contains(r.stdout, "sampled 12 of the 53 templates by the seed") {
			t.Fatalf("generate --count 12: %v", r)
		}
		files, err := filepath.Glob(filepath.Join(dir, "tasks", "*.yaml"))
		if err != nil || len(files) != 12 {
			t.Fatalf("want 12 task files, got %d (%v)", len(files), err)
		}
		tasks := map[string]string{}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tasks[filepath.Base(f)] = string(data)
			if tmpl := strings.TrimSuffix(filepath.Base(f), "-01.yaml"); !strings.Contains(r.stdout, tmpl) {
				t.Errorf("the output does not name the template of %s", filepath.Base(f))
			}
		}
		if first == nil {
			first = tasks
			continue
		}
		for name, text := range first {
			if tasks[name] != text {
				t.Errorf("seed 5 drew %s differently the second time", name)
			}
		}
	}
}
