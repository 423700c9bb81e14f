package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// weakSuite is a suite folder on the WebVoyager suite's fixture web with
// one task, not recorded, whose contract is contract.
func weakSuite(t *testing.T, contract string) string {
	t.Helper()
	dir := t.TempDir()
	web, err := filepath.Abs(filepath.Join(suiteDir, "web"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(web, filepath.Join(dir, "web")); err != nil {
		t.Fatal(err)
	}
	task := `id: heading
instruction: Open example.com and tell me what the page's main heading says.
timeout: 60s
start_url: https://example.com/
postconditions:
` + contract + `reference:
  - tool: read_page
    args: {mode: text}
rationale: A task being written.
`
	if err := os.MkdirAll(filepath.Join(dir, "tasks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tasks", "heading.yaml"), []byte(task), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A contract that holds on the start page, before any tool call, is
// caught by validate where it is written, naming the clause and what the
// judge saw; a contract that needs the agent's work is not.
func TestValidateCatchesAContractThatHoldsAtTheStart(t *testing.T) {
	t.Parallel()
	weak := weakSuite(t, "  - kind: dom_text\n    selector: h1\n    contains: Example\n")
	file := filepath.Join(weak, "tasks", "heading.yaml")
	for _, path := range []string{file, weak} {
		r := runE2E(t, nil, "validate", path)
		want := file + ": postconditions: the contract already holds on the start page, before any tool call, so an agent that does nothing passes"
		if r.code != exitUsage || !strings.Contains(r.stdout, want) ||
			!strings.Contains(r.stdout, `postconditions[0] (dom_text): visible text of h1 contains "Example"; saw h1: 1 match`) {
			t.Errorf("validate %s: want exit %d naming the clause that held, got:\n%v", path, exitUsage, r)
		}
	}
	// The answer must be on another page than the start: the contract
	// no longer holds before the agent acts.
	strong := weakSuite(t, "  - kind: dom_text\n    selector: h1\n    contains: Example\n  - kind: url\n    pattern: '^https://example\\.com/more$'\n")
	if r := runE2E(t, nil, "validate", filepath.Join(strong, "tasks", "heading.yaml")); r.code != exitOK || strings.Contains(r.stdout, "already holds") {
		t.Errorf("validate of a contract that needs the agent: want ok, got:\n%v", r)
	}
	// A recorded suite opens no browser: its tasks were checked when new.
	if r := run(t, nil, "validate", suiteDir); r.code != exitOK || strings.Contains(r.stdout, "do-nothing agent") {
		t.Errorf("validate of a recorded suite played its tasks:\n%v", r)
	}
}
