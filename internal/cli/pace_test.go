package cli

import (
	"strings"
	"testing"
)

// --pace, --pace-jitter and --browsers are checked before anything
// starts, and each refusal says what to pass instead.
func TestPaceAndBrowsersRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"recorded pace of reference transcripts", []string{"--pace", "recorded"},
			"--pace recorded: 30 of the 30 transcripts record no think times"},
		{"a pace for an agent that paces itself", []string{"--agent", "reference", "--pace", "1s"},
			"--pace applies only to --agent replay"},
		{"a pace that is no duration", []string{"--pace", "soon"},
			`--pace "soon": want recorded or a duration`},
		{"a jitter without a pace", []string{"--pace-jitter", "1s"},
			"--pace-jitter applies only with --pace"},
		{"a seed without a random agent or a jitter", []string{"--pace", "1s", "--seed", "3"},
			"--seed applies only to --agent random and to --pace-jitter"},
		{"browsers shared under process isolation", []string{"--isolate", "process", "-j", "4", "--browsers", "2"},
			"--browsers 2 with -j 4: under --isolate process every task has a Chromium of its own"},
		{"more browsers than workers", []string{"-j", "2", "--browsers", "3"},
			"--browsers 3 with -j 2: more browsers than workers"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, nil, append([]string{"run", "--suite", suiteDir, "--out", t.TempDir()}, tt.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("%v; want exit 2 saying %q", r, tt.want)
			}
		})
	}
}

// A paced, jittered run with two workers on one browser passes the task
// as an unpaced run does, and its report says how it ran.
func TestPacedRunOnASharedBrowser(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	r := runE2E(t, nil, "run", "--suite", suiteDir, "--task", "task-01", "--task", "task-02", "--pace", "300ms",
		"--pace-jitter", "200ms", "--seed", "5", "-j", "2", "--browsers", "1", "--out", out)
	if r.code != 0 {
		t.Fatalf("%v; want both tasks passed", r)
	}
	md := readFile(t, out, "*.md")
	for _, want := range []string{
		"- browsers: launched, 1 shared by 2 workers, a fresh browser context per task",
		"- pace: the replayed agent waited 300ms ±200ms, seed 5 before each model turn",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
