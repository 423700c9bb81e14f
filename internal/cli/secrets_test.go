package cli

// API keys stay where they belong: in the request to the API. They appear
// in no report, transcript, output line or child process environment, even
// when the API echoes the key back in an error.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"contractbench/internal/llm/llmfake"
)

// plantedKey returns a fresh key that can only come from this test.
func plantedKey(t *testing.T) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "sk-ant-test-PLANTED-" + hex.EncodeToString(b)
}

// envSpy returns an executable that stands in for the built binary: it
// writes its environment to a file in a fresh folder, which it returns,
// and then runs the binary with its arguments. Spawned as the MCP tool
// server, it shows exactly what environment the server got.
func envSpy(t *testing.T) (exe, dumps string) {
	t.Helper()
	dir := t.TempDir()
	dumps = filepath.Join(dir, "env")
	if err := os.Mkdir(dumps, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dumps, e2e.bin} {
		if strings.ContainsAny(p, `'"\$`+"`") {
			t.Fatalf("path %q cannot be quoted for the shell", p)
		}
	}
	exe = filepath.Join(dir, "contractbench-spy")
	script := fmt.Sprintf("#!/bin/sh\nenv > '%s/env.'$$\nexec '%s' \"$@\"\n", dumps, e2e.bin)
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe, dumps
}

func TestKeysLeakNowhere(t *testing.T) {
	t.Parallel()
	// marker passes to the tool server (TZ is on the allow-list of child
	// environments); it shows the environment dump is the real one and not
	// empty by accident. The other secrets have names no deny-list of
	// *_API_KEY and *_TOKEN catches: only an allow-list keeps them back.
	const marker = "TZ=contractbench-test-marker"
	otherSecrets := []string{"AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "CONTRACTBENCH_TEST_UNLISTED"}
	fine := task01Script(llmfake.Usage{InputTokens: 900, OutputTokens: 60})
	tests := []struct {
		name string
		// script plays the API; key is substituted for KEY in error
		// messages.
		script   func(key string) []llmfake.Turn
		command  string
		wantCode int
	}{
		{"run", func(string) []llmfake.Turn { return fine }, "run", exitOK},
		{"record", func(string) []llmfake.Turn { return fine }, "record", exitOK},
		{
			// A real API names a rejected key in its error message.
			name: "the API echoes the key",
			script: func(key string) []llmfake.Turn {
				return []llmfake.Turn{{Status: http.StatusUnauthorized, ErrorMessage: "invalid x-api-key: " + key}}
			},
			command:  "run",
			wantCode: exitInternal, // the provider failing is the harness's error
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			key := plantedKey(t)
			fake := fakeAnthropic(t, tc.script(key))
			env := paidEnv(fake, key)
			name, value, _ := strings.Cut(marker, "=")
			env[name] = value
			for _, v := range otherSecrets {
				env[v] = plantedKey(t)
			}
			st, stdout, stderr := e2eState(env)
			spy, dumps := envSpy(t)
			st.Executable = spy
			out := t.TempDir()
			code := Main([]string{tc.command, "--suite", suiteDir, "--agent", "claude", "--task", task01, "--out", out}, st)
			r := result{code, stdout.String(), stderr.String()}
			if r.code != tc.wantCode {
				t.Fatalf("want exit %d, got:\n%v", tc.wantCode, r)
			}
			// The key was really in use: the API got it.
			reqs := fake.Requests()
			if len(reqs) == 0 || reqs[0].Header.Get("x-api-key") != key {
				t.Fatalf("the fake API did not receive the planted key (%d requests)", len(reqs))
			}

			if strings.Contains(r.stdout, key) {
				t.Errorf("stdout shows the key:\n%s", r.stdout)
			}
			if strings.Contains(r.stderr, key) {
				t.Errorf("stderr shows the key:\n%s", r.stderr)
			}
			written := filesUnder(t, out)
			if len(written) == 0 {
				t.Fatalf("%s wrote nothing into %s to check", tc.command, out)
			}
			for _, f := range written {
				if data, err := os.ReadFile(f); err != nil {
					t.Error(err)
				} else if bytes.Contains(data, []byte(key)) {
					t.Errorf("%s holds the key", f)
				}
			}

			spied := filesUnder(t, dumps)
			if len(spied) == 0 {
				t.Fatal("the MCP tool server was never started through the spy")
			}
			for _, f := range spied {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(string(data), "\n")
				if !slices.Contains(lines, marker) {
					t.Errorf("%s: the tool server's environment lacks %s, so it is not the one passed on", f, marker)
				}
				if bytes.Contains(data, []byte(key)) {
					t.Errorf("%s: the tool server's environment holds the key", f)
				}
				for _, v := range otherSecrets {
					if bytes.Contains(data, []byte(env[v])) {
						t.Errorf("%s: the tool server's environment holds %s", f, v)
					}
				}
			}
		})
	}
}
