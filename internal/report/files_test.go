package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listDir returns the names in dir, sorted; nil when dir does not exist.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		run       func(testing.TB) *Run
		wantFiles []string
	}{
		{
			name: "single attempts",
			run:  testRun,
			wantFiles: []string{
				"4f2a9c1-task-03-wikipedia-eiffel-height-step1.jpg",
				"4f2a9c1-task-03-wikipedia-eiffel-height.png",
				"4f2a9c1-task-06-arxiv-2401-13919-abstract.png",
				"4f2a9c1-task-09-wikipedia-speed-of-light.png",
				"4f2a9c1.html", "4f2a9c1.json", "4f2a9c1.md", "junit.xml",
			},
		},
		{
			name: "repeated attempts name the attempt",
			run: func(tb testing.TB) *Run {
				r := testRepeatRun(tb)
				r.Results[4].Observation.Screenshot.PNG = tinyPNG(tb, 10)
				return r
			},
			wantFiles: []string{"4f2a9c1-task-02-mdn-fetch-syntax-2.png", "4f2a9c1.html", "4f2a9c1.json", "4f2a9c1.md", "junit.xml"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "reports", "nested")
			r := tc.run(t)
			var before bytes.Buffer
			if err := WriteJSON(&before, r); err != nil {
				t.Fatal(err)
			}

			paths, err := WriteFiles(dir, "4f2a9c1", r)
			if err != nil {
				t.Fatalf("WriteFiles: %v", err)
			}
			if got := listDir(t, dir); !slices.Equal(got, tc.wantFiles) {
				t.Errorf("files in the report directory = %v, want %v", got, tc.wantFiles)
			}
			if paths.JSON != filepath.Join(dir, "4f2a9c1.json") || paths.Markdown != filepath.Join(dir, "4f2a9c1.md") ||
				paths.JUnit != filepath.Join(dir, "junit.xml") || paths.HTML != filepath.Join(dir, "4f2a9c1.html") {
				t.Errorf("paths = %+v", paths)
			}

			// Each screenshot file holds its result's PNG, and the
			// JSON refers to it by that name.
			var pngs []string
			for _, res := range r.Results {
				if res.Observation == nil || len(res.Observation.Screenshot.PNG) == 0 {
					continue
				}
				i := slices.IndexFunc(paths.Screenshots, func(p string) bool { return strings.Contains(p, res.Task) })
				if i < 0 {
					t.Errorf("no screenshot path for %s in %v", res.Task, paths.Screenshots)
					continue
				}
				got, err := os.ReadFile(paths.Screenshots[i])
				if err != nil || !bytes.Equal(got, res.Observation.Screenshot.PNG) {
					t.Errorf("%s: screenshot file does not hold the PNG (err %v)", res.Task, err)
				}
				pngs = append(pngs, filepath.Base(paths.Screenshots[i]))
			}
			stored, err := os.Open(paths.JSON)
			if err != nil {
				t.Fatal(err)
			}
			defer stored.Close()
			back, err := ReadJSON(stored)
			if err != nil {
				t.Fatalf("reading the written JSON back: %v", err)
			}
			var referenced []string
			for _, res := range back.Results {
				if res.Observation != nil && res.Observation.Screenshot.File != "" {
					referenced = append(referenced, res.Observation.Screenshot.File)
				}
			}
			if !slices.Equal(referenced, pngs) {
				t.Errorf("JSON references screenshots %v, wrote %v", referenced, pngs)
			}
			md, err := os.ReadFile(paths.Markdown)
			if err != nil {
				t.Fatal(err)
			}
			if len(pngs) > 0 && !strings.Contains(string(md), "](4f2a9c1-") {
				t.Errorf("Markdown links no screenshot of a failed task")
			}

			var after bytes.Buffer
			if err := WriteJSON(&after, r); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before.Bytes(), after.Bytes()) {
				t.Errorf("WriteFiles modified the run it was given")
			}
		})
	}
}

// TestWriteFilesReplaces: writing the same report twice leaves one copy of
// each file and no temporary files.
func TestWriteFilesReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := testRun(t)
	if _, err := WriteFiles(dir, "sha", r); err != nil {
		t.Fatal(err)
	}
	r.Results[0].Outcome = OutcomeFailed
	paths, err := WriteFiles(dir, "sha", r)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(listDir(t, dir)); got != 8 {
		t.Errorf("%d files after writing twice, want 8: %v", got, listDir(t, dir))
	}
	md, err := os.ReadFile(paths.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "contract-eval score: 6 / 10") {
		t.Errorf("second write did not replace the Markdown report")
	}
}

// TestWriteFilesLeavesNothingOnFailure: whatever fails, the directory holds
// afterwards exactly what it held before.
func TestWriteFilesLeavesNothingOnFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup prepares root and returns the report directory to use.
		setup   func(t *testing.T, root string) string
		base    string
		run     func(testing.TB) *Run
		wantErr string
	}{
		{
			name: "a file where the directory should be",
			setup: func(t *testing.T, root string) string {
				writeFile(t, filepath.Join(root, "reports"), "not a directory")
				return filepath.Join(root, "reports", "sub")
			},
			base: "sha", run: testRun, wantErr: "report directory",
		},
		{
			name: "rename fails after earlier files were placed",
			setup: func(t *testing.T, root string) string {
				// A non-empty directory named junit.xml: the JSON and
				// Markdown renames succeed, this one cannot.
				writeFile(t, filepath.Join(root, "junit.xml", "keep"), "x")
				return root
			},
			base: "sha", run: testRun, wantErr: "junit.xml",
		},
		{
			name: "rename of a screenshot fails last",
			setup: func(t *testing.T, root string) string {
				writeFile(t, filepath.Join(root, "sha-task-09-wikipedia-speed-of-light.png", "keep"), "x")
				return root
			},
			base: "sha", run: testRun, wantErr: "sha-task-09-wikipedia-speed-of-light.png",
		},
		{
			name:  "task name that is not a file name",
			setup: func(t *testing.T, root string) string { return filepath.Join(root, "new") },
			base:  "sha",
			run: func(tb testing.TB) *Run {
				r := testRun(tb)
				r.Results[2].Task = "../escape"
				return r
			},
			wantErr: `task "../escape"`,
		},
		{
			name:    "base name with a separator",
			setup:   func(t *testing.T, root string) string { return filepath.Join(root, "new") },
			base:    "a/b",
			run:     testRun,
			wantErr: `base name "a/b"`,
		},
		{
			name:  "unencodable value",
			setup: func(t *testing.T, root string) string { return filepath.Join(root, "new", "deeper") },
			base:  "sha",
			run: func(tb testing.TB) *Run {
				r := testRun(tb)
				r.Results[0].USD = nan()
				return r
			},
			wantErr: "sha.json",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			dir := tc.setup(t, root)
			before := snapshot(t, root)
			paths, err := WriteFiles(dir, tc.base, tc.run(t))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("WriteFiles error = %v, want one naming %q", err, tc.wantErr)
			}
			if paths.JSON != "" || paths.Screenshots != nil {
				t.Errorf("failed WriteFiles returned paths %+v", paths)
			}
			if after := snapshot(t, root); !slices.Equal(after, before) {
				t.Errorf("files before: %v\nfiles after the failed write: %v", before, after)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot lists every path under root, relative and sorted.
func snapshot(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func nan() float64 { return math.NaN() }
