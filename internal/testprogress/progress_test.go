package testprogress

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// module is a small Go module with a package that passes, one whose test
// and subtest fail, one whose build fails and one without tests.
var module = map[string]string{
	"go.mod":            "module m\n\ngo 1.22\n",
	"good/good.go":      "package good\n\nfunc One() int { return 1 }\n",
	"good/good_test.go": "package good\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tt.Log(\"quiet when passing\")\n\tif One() != 1 {\n\t\tt.Fatal(\"one\")\n\t}\n}\n",
	"bad/bad.go":        "package bad\n",
	"bad/bad_test.go": "package bad\n\nimport \"testing\"\n\nfunc TestFine(t *testing.T) {}\n\n" +
		"func TestBroken(t *testing.T) {\n\tt.Run(\"case\", func(t *testing.T) { t.Error(\"the reason it broke\") })\n}\n",
	"nobuild/nobuild.go":      "package nobuild\n",
	"nobuild/nobuild_test.go": "package nobuild\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { undefined() }\n",
	"notests/notests.go":      "package notests\n",
}

// goTestJSON runs `go test -json ./...` on module and returns its stream
// and exit status: the real thing, not a transcript of it.
func goTestJSON(t *testing.T) ([]byte, int) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range module {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out, code
}

func TestProgressAndSummaryOfARealStream(t *testing.T) {
	stream, code := goTestJSON(t)
	if code == 0 {
		t.Fatalf("go test passed a module with a failing test:\n%s", stream)
	}
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := New(&out, start)
	sc := bufio.NewScanner(bytes.NewReader(stream))
	for sc.Scan() {
		p.Line(sc.Bytes())
	}
	p.Summary(start.Add(90*time.Second), code)
	got := out.String()
	for _, want := range []string{
		"start m/good\n",
		"ok    m/good  ",
		"FAIL  m/bad  ",
		"--- output of m/bad TestBroken/case:\n",
		"the reason it broke",
		"undefined: undefined",
		"== go test: 1 package(s) passed, 2 failed, 1 without tests; 1m30s in all\n",
		"slowest: ",
		"FAIL m/bad: TestBroken/case\n",
		"FAIL m/nobuild: build failed\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"quiet when passing", "=== RUN", "m/notests  "} {
		if strings.Contains(got, unwanted) {
			t.Errorf("the output has %q:\n%s", unwanted, got)
		}
	}
	if !strings.HasSuffix(got, "FAIL\n") {
		t.Errorf("the summary does not end with FAIL:\n%s", got)
	}
}

// The line of the minute names each running package with its time and
// its latest test, and how many ended.
func TestTickNamesWhatRuns(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := New(&out, t0)
	p.Tick(t0.Add(time.Minute))
	if want := "... 1m0s: 0 package(s) ended; building the next\n"; out.String() != want {
		t.Fatalf("a tick while nothing runs wrote %q, want %q", out.String(), want)
	}
	for _, l := range []string{
		`{"Time":"2026-01-01T10:00:05Z","Action":"start","Package":"m/slow"}`,
		`{"Time":"2026-01-01T10:00:05Z","Action":"start","Package":"m/quick"}`,
		`{"Time":"2026-01-01T10:00:06Z","Action":"run","Package":"m/slow","Test":"TestSoak"}`,
		`{"Time":"2026-01-01T10:00:07Z","Action":"run","Package":"m/slow","Test":"TestSoak/sub"}`,
		`{"Time":"2026-01-01T10:00:08Z","Action":"pass","Package":"m/quick","Elapsed":3.2}`,
	} {
		p.Line([]byte(l))
	}
	out.Reset()
	p.Tick(t0.Add(10 * time.Minute))
	if want := "... 10m0s: 1 package(s) ended; running m/slow (9m55s, in TestSoak)\n"; out.String() != want {
		t.Errorf("tick wrote %q, want %q", out.String(), want)
	}
	out.Reset()
	p.Summary(t0.Add(11*time.Minute), 130)
	for _, want := range []string{"1 package(s) passed, 0 failed, 0 without tests, 1 did not end; 11m0s in all", "did not end: m/slow", "FAIL: go test exited with status 130"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, out.String())
		}
	}
}
