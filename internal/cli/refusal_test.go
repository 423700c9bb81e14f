package cli

// Runs that must not start: the CLI checks every input and the paid-call
// gate before it launches a browser or sends a request, ends with exit 2
// and says what to fix, and writes no report.

import (
	"path/filepath"
	"strings"
	"testing"

	"contractbench/internal/llm/llmfake"
)

func TestRefusedRuns(t *testing.T) {
	t.Parallel()
	const paidKey = "sk-ant-test-refusal"
	tests := []struct {
		name string
		// setUp returns the suite folder, the environment and extra
		// flags of the run, given the fake API it may point at.
		setUp func(t *testing.T, fake *llmfake.Server) (suite string, env map[string]string, flags []string)
		// want are substrings of stderr.
		want []string
	}{
		{
			name: "paid agent without CONTRACTBENCH_REAL",
			setUp: func(t *testing.T, fake *llmfake.Server) (string, map[string]string, []string) {
				env := paidEnv(fake, paidKey)
				delete(env, "CONTRACTBENCH_REAL")
				return suiteDir, env, []string{"--agent", "claude"}
			},
			want: []string{"set CONTRACTBENCH_REAL=1 and ANTHROPIC_API_KEY", "(missing: CONTRACTBENCH_REAL=1)"},
		},
		{
			name: "paid agent without a key",
			setUp: func(t *testing.T, fake *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, paidEnv(fake, ""), []string{"--agent", "claude"}
			},
			want: []string{"set CONTRACTBENCH_REAL=1 and ANTHROPIC_API_KEY", "(missing: ANTHROPIC_API_KEY)"},
		},
		{
			name: "model without a price",
			setUp: func(t *testing.T, fake *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, paidEnv(fake, paidKey), []string{"--agent", "claude", "--model", "claude-unpriced-test"}
			},
			want: []string{`no price for model "claude-unpriced-test"`, "--price claude-unpriced-test=IN,OUT"},
		},
		{
			name: "malformed transcript",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				dir := t.TempDir()
				writeReplaced(t, dir, task01, `"seq":1,`, `"seq":1,,`)
				return suiteDir, nil, []string{"--transcripts", dir}
			},
			want: []string{task01 + ".jsonl:2: not JSON"},
		},
		{
			name: "missing transcript",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, nil, []string{"--transcripts", t.TempDir()}
			},
			want: []string{"no transcript for " + task01,
				"contractbench record --suite " + suiteDir + " --server builtin --agent reference --task " + task01},
		},
		{
			name: "unknown agent",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, nil, []string{"--agent", "gpt"}
			},
			want: []string{`unknown agent "gpt": want replay (alias mock), reference, anthropic (alias claude) or openai`},
		},
		{
			name: "parallel tasks on one running browser",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, nil, []string{"--browser-url", e2e.browserURL, "--web", "live", "-j", "2"}
			},
			want: []string{"--browser-url: 1 browser endpoints for -j 2: each worker needs a browser of its own"},
		},
		{
			// Under process isolation a running browser's tasks share its
			// default context, which was not launched with the replay
			// web's host mapping and has no proxy: it would browse the
			// live sites under a replay label.
			name: "a running browser with the replay web, without contexts",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, nil, []string{"--browser-url", e2e.browserURL, "--isolate", "process"}
			},
			want: []string{"--browser-url with --web replay: --isolate process", "pass --web live"},
		},
		{
			name: "a file of browser endpoints with a bad line",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				file := filepath.Join(t.TempDir(), "browsers")
				writeFileT(t, file, "# the pool\n"+e2e.browserURL+"\n\nftp://elsewhere:21\n")
				return suiteDir, nil, []string{"--browser-url", file}
			},
			want: []string{"browsers:4: "},
		},
		{
			name: "the same browser for two workers",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, nil, []string{"--browser-url", e2e.browserURL, "--browser-url", e2e.browserURL}
			},
			want: []string{"is given twice; each worker needs a browser of its own"},
		},
		{
			name: "unknown isolation",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				return suiteDir, nil, []string{"--isolate", "thread"}
			},
			want: []string{`unknown --isolate "thread": want context or process`},
		},
		{
			name: "report folder that is a file",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				file := filepath.Join(t.TempDir(), "a-file")
				writeFileT(t, file, "not a folder\n")
				return suiteDir, nil, []string{"--out", file}
			},
			want: []string{"--out: report directory", "a-file"},
		},
		{
			name: "broken task file",
			setUp: func(t *testing.T, _ *llmfake.Server) (string, map[string]string, []string) {
				suite := suiteCopy(t, func(_ string, spec []byte) []byte {
					return append(spec, "colour: blue\n"...)
				}, task01)
				return suite, nil, nil
			},
			want: []string{filepath.Join("tasks", task01+".yaml") + ":", `unknown field "colour"`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := fakeAnthropic(t, task01Script(llmfake.Usage{InputTokens: 10, OutputTokens: 10}))
			suite, env, flags := tc.setUp(t, fake)
			out := t.TempDir()
			args := append([]string{"run", "--suite", suite, "--task", task01, "--out", out}, flags...)
			r := runE2E(t, env, args...)
			if r.code != exitUsage {
				t.Fatalf("want exit %d, got:\n%v", exitUsage, r)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			// Refused before anything started: no progress, no request,
			// no report.
			if strings.Contains(r.stderr, "[1/1]") {
				t.Errorf("a task ran before the refusal:\n%s", r.stderr)
			}
			if n := len(fake.Requests()); n != 0 {
				t.Errorf("the fake API got %d requests; a refused run must not call it", n)
			}
			if files := filesUnder(t, out); len(files) != 0 {
				t.Errorf("a refused run wrote %q", files)
			}
		})
	}
}
