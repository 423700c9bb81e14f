package inputs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// Outside a repository the version is the time; inside one it is the
// short commit, with -dirty while a tracked file has changes.
func TestCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))
	if got := Commit(dir, now); got != "nogit-20260102T020405Z" {
		t.Errorf("outside a repository: %q, want nogit- and the time in UTC", got)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	file := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(file, []byte("id: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	git("add", "task.yaml")
	git("commit", "-q", "-m", "a task")
	clean := Commit(dir, now)
	if !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(clean) {
		t.Errorf("a clean tree: %q, want 12 hex digits", clean)
	}
	if err := os.WriteFile(file, []byte("id: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Commit(dir, now); got != clean+"-dirty" {
		t.Errorf("a changed tree: %q, want %q", got, clean+"-dirty")
	}
}
