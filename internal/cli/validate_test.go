package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateShippedSuite(t *testing.T) {
	r := run(t, nil, "validate", "../../benchmarks/webvoyager")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "ok:") {
		t.Errorf("stdout %q", r.stdout)
	}
}

// The acceptance case of the foundation: four different mistakes in one
// file are all reported, with their paths, in one run, and exit 2.
func TestValidateReportsEveryProblem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tasks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "task-50-broken.yaml")
	body := `id: task-50-broken
instruction: Do something.
timeout: 30s
postconditions:
  - kind: url_matches
    pattern: x
  - kind: dom_text
    contains: hello
    colour: red
  - kind: url
    pattern: '(unclosed'
  - kind: or
    children: []
reference:
  - tool: navigate
    args: {url: "https://example.com/"}
rationale: Broken on purpose.
`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, nil, "validate", file)
	if r.code != exitUsage {
		t.Errorf("exit %d, want %d", r.code, exitUsage)
	}
	for _, want := range []string{
		"task-50-broken.yaml:5: postconditions[0].kind:",
		"task-50-broken.yaml:9: postconditions[1].colour:",
		"task-50-broken.yaml:11: postconditions[2].pattern:",
		"task-50-broken.yaml:13: postconditions[3].children:",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "4 problem(s)") {
		t.Errorf("stderr %q does not count 4 problems", r.stderr)
	}
}

func TestValidateStandaloneContract(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(good, []byte(`{"postconditions": [{"kind": "no_dialog"}]}`), 0o644)
	os.WriteFile(bad, []byte(`{"postconditions": [{"kind": "dom_count", "selector": "a", "op": "gt", "value": -1}]}`), 0o644)
	if r := run(t, nil, "validate", good); r.code != exitOK {
		t.Errorf("good contract: exit %d: %s", r.code, r.stdout)
	}
	r := run(t, nil, "validate", bad)
	if r.code != exitUsage || !strings.Contains(r.stdout, "postconditions[0].op") || !strings.Contains(r.stdout, "postconditions[0].value") {
		t.Errorf("bad contract: exit %d:\n%s", r.code, r.stdout)
	}
}

func TestValidateMissingPath(t *testing.T) {
	r := run(t, nil, "validate", "does/not/exist.yaml")
	if r.code != exitUsage || !strings.Contains(r.stdout, "does/not/exist.yaml: cannot read") {
		t.Errorf("exit %d: %s", r.code, r.stdout)
	}
}
