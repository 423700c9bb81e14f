package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

// result is what one invocation of the program did.
type result struct {
	code           int
	stdout, stderr string
}

// testState is a State with captured output and a fixed environment.
func testState(env map[string]string) (*State, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	return &State{
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
		Environ: func() []string {
			var out []string
			for k, v := range env {
				out = append(out, k+"="+v)
			}
			return out
		},
		Now:  time.Now,
		Root: os.Geteuid() == 0,
		Context: func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		},
	}, &stdout, &stderr
}

func run(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	st, stdout, stderr := testState(env)
	code := Main(args, st)
	return result{code, stdout.String(), stderr.String()}
}

// golden compares got with testdata/<name>, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (run go test -update to accept):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

func TestHelpGolden(t *testing.T) {
	r := run(t, nil, "--help")
	if r.code != exitOK {
		t.Fatalf("--help exited %d", r.code)
	}
	golden(t, "help/contractbench.txt", r.stdout)
	names := []string{"web serve", "web check"}
	for _, c := range commands() {
		names = append(names, c.name)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			args := append(strings.Fields(name), "--help")
			r := run(t, nil, args...)
			if r.code != exitOK {
				t.Fatalf("%s --help exited %d: %s", name, r.code, r.stderr)
			}
			golden(t, "help/"+strings.ReplaceAll(name, " ", "-")+".txt", r.stdout)
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "no command given"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown flag", []string{"validate", "--nope"}, "flag provided but not defined: -nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, tc.args...)
			if r.code != exitUsage {
				t.Errorf("exit %d, want %d", r.code, exitUsage)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.want)
			}
		})
	}
}
