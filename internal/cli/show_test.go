package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// copyDir copies the files of dir into a new temporary folder.
func copyDir(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestShowOlderReport: a report written before calls carried arguments,
// replies and thumbnails renders, with its screenshot embedded.
func TestShowOlderReport(t *testing.T) {
	t.Parallel()
	dir := copyDir(t, filepath.Join("testdata", "show-v1"))
	r := run(t, nil, "show", filepath.Join(dir, "dac04951000f.json"))
	want := filepath.Join(dir, "dac04951000f.html")
	if r.code != exitOK || strings.TrimSpace(r.stdout) != want {
		t.Fatalf("show: exit %d, stdout %q, stderr %q; want 0 and the path %s", r.code, r.stdout, r.stderr, want)
	}
	page, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`<h2>task-01-example-com-title</h2>`,
		`<img class="shot" src="data:image/jpeg;base64,`,
		`<span class="tool">navigate</span>`,
		`<span class="tool">read_page</span>`,
	} {
		if !bytes.Contains(page, []byte(s)) {
			t.Errorf("%s lacks %q", want, s)
		}
	}
}

func TestShowBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	garbled := filepath.Join(dir, "garbled.json")
	os.WriteFile(garbled, []byte(`{"schema_version": 1, "results": [`), 0o644)
	escaping := filepath.Join(dir, "escaping.json")
	old, err := os.ReadFile(filepath.Join("testdata", "show-v1", "dac04951000f.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(escaping, bytes.Replace(old, []byte(`"file": "dac04951000f-task-01`), []byte(`"file": "../dac04951000f-task-01`), 1), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no report", []string{"show"}, "want one REPORT.json"},
		{"missing file", []string{"show", filepath.Join(dir, "none.json")}, "none.json"},
		{"garbled", []string{"show", garbled}, "garbled.json: report json:"},
		{"file outside the folder", []string{"show", escaping}, "results[0].observation.screenshot.file"},
		{"served beyond loopback", []string{"show", "--serve", "--addr", "0.0.0.0:0", escaping}, "only a loopback address"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, tc.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, exitUsage, tc.want)
			}
		})
	}
	if html, _ := filepath.Glob(filepath.Join(dir, "*.html")); len(html) > 0 {
		t.Errorf("bad input left %q", html)
	}
}

// syncBuffer is a buffer one goroutine writes while another reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestShowServe: --serve answers the page on loopback until interrupted,
// and then exits 0 without writing a file.
func TestShowServe(t *testing.T) {
	t.Parallel()
	dir := copyDir(t, filepath.Join("testdata", "show-v1"))
	st, _, stderr := testState(nil)
	var stdout syncBuffer
	st.Stdout = &stdout
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	st.Context = func() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }
	code := make(chan int, 1)
	go func() { code <- Main([]string{"show", "--serve", filepath.Join(dir, "dac04951000f.json")}, st) }()

	addr := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+/)`)
	var url string
	for deadline := time.Now().Add(time.Minute); url == "" && time.Now().Before(deadline); {
		if m := addr.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if url == "" {
		stop()
		t.Fatalf("show --serve printed no address: stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("<h2>task-01-example-com-title</h2>")) {
		t.Errorf("GET %s: %s, %d bytes; want 200 and the page", url, resp.Status, len(body))
	}
	stop()
	if c := <-code; c != exitOK {
		t.Errorf("show --serve exited %d after the interrupt, want 0 (stderr %q)", c, stderr.String())
	}
	if html, _ := filepath.Glob(filepath.Join(dir, "*.html")); len(html) > 0 {
		t.Errorf("show --serve wrote %q", html)
	}
}

// show renders a report of schema_version 1 naming the failed clauses its
// Markdown named, and no other: not the stale transcript's, which that
// version kept only as failed_path.
func TestShowVersion1Report(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "v1.html")
	r := run(t, nil, "show", "--html", out, v1Report)
	if r.code != exitOK || strings.TrimSpace(r.stdout) != out {
		t.Fatalf("show: want exit 0 and the path %s, got %s", out, r)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []string{"task-01-example-com-title", "task-04-rfc-9110-section-9-title", "task-12-gutenberg-pride-and-prejudice",
		"task-22-python-genindex-functools-reduce", "task-28-gutenberg-browse-frankenstein"} {
		if !bytes.Contains(page, []byte("<h2>"+task+"</h2>")) {
			t.Errorf("the page lacks %s", task)
		}
	}
	// task-01 and task-12 failed on their URL; nothing else names a clause.
	if n := bytes.Count(page, []byte(`<code class="failed-clause">`)); n != 2 ||
		bytes.Count(page, []byte(`<code class="failed-clause">postconditions[0] (url)</code>`)) != 2 {
		t.Errorf("the page names %d failed clauses, want task-01's and task-12's postconditions[0] (url)", n)
	}
}
