package cli

import (
	"strings"
	"testing"
)

// TestSnapshot prints a fixture page through the built-in server and wants
// its text, the find reply asked for, and the targets a reference names,
// with the link's URL that only find gives.
func TestSnapshot(t *testing.T) {
	r := runE2E(t, nil, "snapshot", "--suite", suiteDir, "--servers", "../../benchmarks/servers.yaml",
		"--find", "role:link More information", "https://example.com/")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"## read_page (builtin)\nurl: https://example.com/\ntitle: Example Domain\n",
		"# Example Domain",
		"## find \"role:link More information\"\n",
		"\n## targets (1)\ntarget: {role: link, name: \"More information...\", href: \"https://www.iana.org/help/example-domains\"}  # e1\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestSnapshotUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"snapshot"}, "want exactly one URL, got 0"},
		{[]string{"snapshot", "--web", "tape", "https://example.com/"}, `--web "tape": want replay or live`},
		{[]string{"snapshot", "--server", "nope", "https://example.com/"}, `no server "nope"`},
	} {
		r := run(t, nil, append(tc.args[:1:1], append([]string{"--suite", suiteDir}, tc.args[1:]...)...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, exitUsage, tc.want)
		}
	}
}
