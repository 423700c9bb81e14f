package toolserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestReadPageGolden pins read_page's two modes on the test site's pages:
// each golden is a txtar file holding the text and the interactive reply.
// Run with -update to rewrite them after an intended change, and review
// the diff: it is the agent's view of the page.
func TestReadPageGolden(t *testing.T) {
	t.Parallel()
	for _, page := range []string{"article", "form", "actions", "booked", "empty", "frames", "mathicons", "aria"} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.open("/" + page + ".html")
			checkGolden(t, filepath.Join("testdata", "golden", page+".txtar"),
				"read_page replies for testdata/pages/"+page+".html (site address normalized).",
				map[string]string{
					"text":        normalize(e.ok("read_page", nil)),
					"interactive": normalize(e.ok("read_page", map[string]any{"mode": "interactive"})),
				})
		})
	}
}

// checkGolden compares got (named sections) with the txtar file at path,
// or rewrites the file under -update. It only calls t.Error, so any
// goroutine may use it.
func checkGolden(t testing.TB, path, comment string, got map[string]string) {
	t.Helper()
	if err := golden(path, comment+"\nRegenerate with: go test ./internal/toolserver -run "+t.Name()+" -update\n", got); err != nil {
		t.Error(err)
	}
}

var goldenSections = []string{"text", "interactive"}

func golden(path, comment string, got map[string]string) error {
	if *update {
		a := &txtar.Archive{Comment: []byte(comment)}
		for _, n := range goldenSections {
			a.Files = append(a.Files, txtar.File{Name: n, Data: []byte(strings.TrimRight(got[n], "\n") + "\n")})
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, txtar.Format(a), 0o644)
	}
	a, err := txtar.ParseFile(path)
	if err != nil {
		return fmt.Errorf("reading golden file (run with -update to create it): %w", err)
	}
	want := map[string]string{}
	for _, f := range a.Files {
		want[f.Name] = string(f.Data)
	}
	var diffs []string
	for _, n := range goldenSections {
		g := strings.TrimRight(got[n], "\n") + "\n"
		if w, ok := want[n]; !ok {
			diffs = append(diffs, fmt.Sprintf("no %q section", n))
		} else if g != w {
			diffs = append(diffs, fmt.Sprintf("%s mode differs (run with -update if intended)\n--- got\n%s--- want\n%s", n, g, w))
		}
	}
	if diffs != nil {
		return fmt.Errorf("%s: %s", path, strings.Join(diffs, "\n"))
	}
	return nil
}
