package servers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	t.Parallel()
	set := loadServers(t)
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u",
		"ANTHROPIC_API_KEY=sk-secret", "OPENAI_API_KEY=sk-other", "GITHUB_TOKEN=ghp",
		"TMPDIR=/tmp", "CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS=0",
		"AWS_SECRET_ACCESS_KEY=aws-secret", "DB_PASSWORD=db-secret",
	}
	spawn := Spawn{Root: "/repo", Self: "/bin/contractbench", CDPURL: "http://127.0.0.1:9222", BrowserContext: "C0FFEE", WorkDir: "/scratch/t1", Environ: environ}
	tests := []struct {
		server   string
		wantArgs []string
		// wantEnv must be in the child's environment, wantNoEnv not.
		wantEnv   []string
		wantNoEnv []string
	}{
		{
			server: "builtin",
			// No uploads folder was given: --uploads is empty.
			wantArgs: []string{"/bin/contractbench", "mcp", "--cdp", "http://127.0.0.1:9222", "--browser-context", "C0FFEE", "--uploads", ""},
			wantEnv:  []string{"PATH=/usr/bin", "HOME=/home/u", "TMPDIR=/tmp"},
			wantNoEnv: []string{"ANTHROPIC_API_KEY=sk-secret", "OPENAI_API_KEY=sk-other", "GITHUB_TOKEN=ghp",
				"AWS_SECRET_ACCESS_KEY=aws-secret", "DB_PASSWORD=db-secret"},
		},
		{
			server:    "playwright",
			wantArgs:  []string{"node", "/repo/node_modules/@playwright/mcp/cli.js", "--cdp-endpoint", "http://127.0.0.1:9222", "--no-webmcp"},
			wantEnv:   []string{"PATH=/usr/bin", "XDG_CACHE_HOME=/scratch/t1"},
			wantNoEnv: []string{"ANTHROPIC_API_KEY=sk-secret"},
		},
		{
			server: "chrome-devtools",
			wantArgs: []string{"node", "/repo/node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js",
				"--browserUrl", "http://127.0.0.1:9222", "--no-usage-statistics", "--no-performance-crux",
				"--no-javascript-evaluation", "--no-file-navigations", "--no-page-id-routing"},
			// The profile's values win over inherited ones.
			wantEnv:   []string{"TMPDIR=/scratch/t1", "CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS=1", "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS=1"},
			wantNoEnv: []string{"TMPDIR=/tmp", "CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS=0", "OPENAI_API_KEY=sk-other"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.server, func(t *testing.T) {
			t.Parallel()
			p, err := set.Get(tc.server)
			if err != nil {
				t.Fatal(err)
			}
			cmd, err := p.Command(spawn)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cmd.Args, tc.wantArgs) {
				t.Errorf("args\n got %q\nwant %q", cmd.Args, tc.wantArgs)
			}
			if cmd.Dir != "/scratch/t1" {
				t.Errorf("Dir = %q, want the work dir", cmd.Dir)
			}
			for _, kv := range tc.wantEnv {
				if !slices.Contains(cmd.Env, kv) {
					t.Errorf("env lacks %s: %q", kv, cmd.Env)
				}
			}
			for _, kv := range tc.wantNoEnv {
				if slices.Contains(cmd.Env, kv) {
					t.Errorf("env has %s: %q", kv, cmd.Env)
				}
			}
			for _, kv := range cmd.Env {
				name, _, _ := strings.Cut(kv, "=")
				if n := countPrefix(cmd.Env, name+"="); n != 1 {
					t.Errorf("%s is set %d times", name, n)
				}
			}
		})
	}
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

func TestCommandMissingValue(t *testing.T) {
	t.Parallel()
	set := loadServers(t)
	tests := []struct {
		server string
		spawn  Spawn
		want   string
	}{
		{"builtin", Spawn{CDPURL: "http://127.0.0.1:1"}, "server builtin: {self} is used but not given"},
		{"builtin", Spawn{Self: "/bin/cb"}, "server builtin: {cdp_url} is used but not given"},
		{"playwright", Spawn{Root: "/r", CDPURL: "http://127.0.0.1:1"}, "server playwright: {work_dir} is used but not given"},
		{"chrome-devtools", Spawn{CDPURL: "http://127.0.0.1:1", WorkDir: "/w"}, "server chrome-devtools: {root} is used but not given"},
	}
	for _, tc := range tests {
		p, err := set.Get(tc.server)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Transport(tc.spawn); err == nil || err.Error() != tc.want {
			t.Errorf("%s: Transport(%+v) = %v, want %q", tc.server, tc.spawn, err, tc.want)
		}
	}
}

func TestInstalled(t *testing.T) {
	t.Parallel()
	set := loadServers(t)
	p, err := set.Get("chrome-devtools")
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := set.Get("builtin")
	if err != nil {
		t.Fatal(err)
	}
	if err := builtin.Installed(t.TempDir()); err != nil {
		t.Errorf("the built-in server needs no install, got %v", err)
	}
	install := func(version string) string {
		root := t.TempDir()
		dir := filepath.Join(root, "node_modules", "chrome-devtools-mcp")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		manifest := `{"name": "chrome-devtools-mcp", "version": "` + version + `"}`
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		return root
	}
	tests := []struct {
		name string
		root string
		// want are parts of the error; none means installed.
		want []string
	}{
		{"missing", t.TempDir(), []string{"chrome-devtools-mcp is not installed", "node_modules/chrome-devtools-mcp/package.json", "run `make peers`", "npm install --prefix "}},
		{"other version", install("1.10.0"), []string{"chrome-devtools-mcp 1.10.0 is installed, want 1.11.0", "make peers"}},
		{"pinned version", install("1.11.0"), nil},
	}
	for _, tc := range tests {
		err := p.Installed(tc.root)
		if len(tc.want) == 0 {
			// node itself must be on PATH for this case; report that
			// clearly rather than as a package problem.
			if err != nil && !strings.Contains(err.Error(), "not on PATH") {
				t.Errorf("%s: Installed = %v, want nil", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: Installed = nil, want an error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: Installed = %q, want it to mention %q", tc.name, err, w)
			}
		}
	}
}

// TestConfined: only a server whose command takes {browser_context} can be
// confined to a task's browser context; an empty one (a task with a
// browser to itself) is allowed, unlike the other placeholders.
func TestConfined(t *testing.T) {
	set, err := Load("../../benchmarks/servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"builtin": true, "playwright": false, "chrome-devtools": false} {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Confined(); got != want {
			t.Errorf("%s: Confined() = %v, want %v", name, got, want)
		}
	}
	cmd, err := Builtin().Command(Spawn{Self: "/bin/contractbench", CDPURL: "http://127.0.0.1:9222"})
	if err != nil {
		t.Fatalf("Command without a browser context: %v", err)
	}
	if got := cmd.Args[len(cmd.Args)-4 : len(cmd.Args)-2]; !slices.Equal(got, []string{"--browser-context", ""}) {
		t.Errorf("args end %q, want an empty --browser-context", got)
	}
}
