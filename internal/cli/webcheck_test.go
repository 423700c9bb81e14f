package cli

// `web check` keeps the fixture web honest: it passes on the suite's archive
// and names the page an archive lacks.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebCheckPassesOnEverySuite checks a sample of each committed suite
// that between them load every kind of page its web serves. WebVoyager's
// archive: a static page, a search that redirects in script, a link that
// lands on a fragment. The generated suite's: a form post answered with
// a redirect, and a cannot-be-done task whose refusal (409) is the answer
// it expects, named and not counted as a problem (the sandbox suite's is
// TestSandbox's). That every
// task replays without a miss is checked on the full runs (make bench),
// whose results carry the replay server's misses; make bench-web runs
// web check on every task of every suite.
func TestWebCheckPassesOnEverySuite(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dir   string
		tasks []string
		// expect is a line the check must print besides each task's.
		expect string
	}{
		{suiteDir, []string{task01, "task-03-wikipedia-eiffel-height", "task-07-rust-string-trim-method"}, ""},
		{generatedDir, []string{"stays-impossible-taken-night-01", "mail-apply-label-01"},
			"  409   https://stays.sandbox.test/bookings  (the refusal this task expects)"},
	} {
		t.Run(filepath.Base(c.dir), func(t *testing.T) {
			t.Parallel()
			args := []string{"web", "check", "--suite", c.dir, "-j", "2"}
			for _, id := range c.tasks {
				args = append(args, "--task", id)
			}
			r := runE2E(t, nil, args...)
			if r.code != exitOK {
				t.Fatalf("web check: want exit 0, got:\n%v", r)
			}
			if strings.Contains(r.stdout, "MISS") {
				t.Errorf("web check printed a miss:\n%s", r.stdout)
			}
			for _, id := range c.tasks {
				if !hasLine(r.stdout, id+": passed") {
					t.Errorf("stdout lacks %q:\n%s", id+": passed", r.stdout)
				}
			}
			if c.expect != "" && !hasLine(r.stdout, c.expect) {
				t.Errorf("stdout lacks %q:\n%s", c.expect, r.stdout)
			}
			want := fmt.Sprintf("ok: %d task(s), no misses, no dangling links", len(c.tasks))
			if !hasLine(r.stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
			}
		})
	}
}

func TestWebCheckNamesAMissingPage(t *testing.T) {
	t.Parallel()
	// A suite whose archive lost example.com's home page.
	dir := t.TempDir()
	tasks, err := filepath.Abs(filepath.Join(suiteDir, "tasks"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tasks, filepath.Join(dir, "tasks")); err != nil {
		t.Fatal(err)
	}
	web := filepath.Join(dir, "web")
	if err := os.CopyFS(web, os.DirFS(filepath.Join(suiteDir, "web"))); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(web, "example.com", "index.yaml")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	const entry = "  - path: /\n    body: index.html\n"
	if strings.Count(string(data), entry) != 1 {
		t.Fatalf("%s: the entry of / is not written as\n%s", index, entry)
	}
	if err := os.WriteFile(index, []byte(strings.Replace(string(data), entry, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	r := runE2E(t, nil, "web", "check", "--suite", dir, "--task", task01)
	if r.code != exitFailed {
		t.Fatalf("web check of an archive without https://example.com/: want exit %d, got:\n%v", exitFailed, r)
	}
	if !hasLine(r.stdout, "  MISS  GET https://example.com/") {
		t.Errorf("stdout does not name the missing page:\n%s", r.stdout)
	}
	// The problems it counts, it lists.
	if !strings.Contains(r.stdout, "problem(s):\n") || !strings.Contains(r.stdout, ": not in the fixture web: GET https://example.com/\n") {
		t.Errorf("stdout does not list the problem it counts:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "web check: ") || !strings.Contains(r.stderr, web) {
		t.Errorf("stderr does not name the archive %s:\n%s", web, r.stderr)
	}
}
