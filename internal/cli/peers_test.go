package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"contractbench/internal/report"
	"contractbench/internal/servers"
)

// skipPeersVar is the variable that asks for the peer servers' tests to be
// skipped; without it a missing peer is a failure with the install hint.
const skipPeersVar = "CONTRACTBENCH_SKIP_PEERS"

// requirePeers fails the test when a peer of benchmarks/servers.yaml is not
// installed, or skips it when CONTRACTBENCH_SKIP_PEERS=1 asks for that.
func requirePeers(t *testing.T) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	set, err := servers.Load(filepath.Join(root, "benchmarks/servers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range set.Names() {
		p, err := set.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Installed(root); err != nil {
			if os.Getenv(skipPeersVar) == "1" {
				t.Skipf("%v (skipped: %s=1)", err, skipPeersVar)
			}
			t.Fatalf("%v (to skip the peers' tests instead, set %s=1)", err, skipPeersVar)
		}
	}
}

// TestEverySuiteOnEveryServer replays each suite's reference transcripts
// on every server it has them for, gated on the suite's baseline, with
// the runner owning the browser and the judge observing it directly: a
// change to a page, a server or the harness that breaks a recording fails
// here.
//
// make test plays a share. The built-in server replays the sandbox suite
// whole (TestReplayedSuite and TestGenerated replay the other suites on
// it). A peer runs a browser per task, about three times a built-in
// task's cost, so each peer takes every stride-th task of each suite that
// has its transcripts, the peers starting at different places, about
// five tasks of each. The long version (make bench-servers) plays every
// transcript on its server.
func TestEverySuiteOnEveryServer(t *testing.T) {
	t.Parallel()
	requirePeers(t)
	peers := []string{"playwright", "chrome-devtools"}
	for _, dir := range []string{suiteDir, sandboxDir, generatedDir} {
		for k, server := range append([]string{"builtin"}, peers...) {
			ids := transcribed(t, dir, server)
			if len(ids) == 0 {
				continue
			}
			if !long() {
				switch {
				case server != "builtin":
					ids = share(ids, k-1, len(peers))
				case dir != sandboxDir:
					continue
				}
			}
			t.Run(filepath.Base(dir)+"/"+server, func(t *testing.T) { checkServerGate(t, dir, server, ids) })
		}
	}
}

// transcribed lists the tasks of the suite in dir that have a reference
// transcript for server, in order.
func transcribed(t *testing.T, dir, server string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "transcripts", server, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range files {
		ids = append(ids, strings.TrimSuffix(filepath.Base(f), ".jsonl"))
	}
	return ids
}

// peerShare is about how many tasks of a suite a peer plays in make test.
const peerShare = 5

// share is the k-th of n peers' share of ids: every stride-th, so that a
// peer plays about peerShare, starting k strides of n apart.
func share(ids []string, k, n int) []string {
	stride := max(n, (len(ids)+peerShare-1)/peerShare)
	var out []string
	for i := k * stride / n; i < len(ids); i += stride {
		out = append(out, ids[i])
	}
	return out
}

// peerTimeout matches the error a peer answers a tool call with when its
// own fixed wait for an element runs out (@playwright/mcp's action
// timeout, chrome-devtools-mcp's wait for an element to become
// interactive, five seconds each). On a machine saturated by other work
// a page can take longer than that to lay out and answer, and the replay
// drifts there though nothing of the suite, the server's tools or the
// harness changed.
var peerTimeout = regexp.MustCompile(`Timeout \d+ms exceeded|within the configured timeout`)

// checkServerGate runs the tasks ids of the suite in dir on server with
// the replay agent and --gate: every task passes, and a peer's run says
// how it was isolated. A task whose replay drifted only where a peer's own
// wait ran out (peerTimeout) is played once more, alone; it must pass
// then.
func checkServerGate(t *testing.T, dir, server string, ids []string) {
	rep, r := runServerGate(t, dir, server, ids, "2")
	var again []string
	for _, res := range rep.Results {
		switch {
		case res.Outcome == report.OutcomePassed:
		case server != "builtin" && peerTimeout.MatchString(res.Reason):
			t.Logf("%s on %s: the peer's own wait ran out (%s); playing it again alone", res.Task, server, res.Reason)
			again = append(again, res.Task)
		default:
			t.Errorf("%s on %s: %s (%s); want passed", res.Task, server, res.Outcome, res.Reason)
		}
	}
	if len(again) == 0 && (r.code != exitOK || lineWithPrefix(r.stdout, "gate: passed") == "") {
		t.Fatalf("run --suite %s --server %s --gate on %d tasks: want exit 0 and the gate passed, got %s", dir, server, len(ids), r)
	}
	if t.Failed() || len(again) == 0 {
		return
	}
	_, r = runServerGate(t, dir, server, again, "1")
	if r.code != exitOK || lineWithPrefix(r.stdout, "gate: passed") == "" {
		t.Fatalf("run --suite %s --server %s --gate on %q, played again: want exit 0 and the gate passed, got %s", dir, server, again, r)
	}
}

// runServerGate runs the tasks ids of the suite in dir on server with the
// replay agent, --gate and -j jobs, and checks what the report says of
// the run as a whole.
func runServerGate(t *testing.T, dir, server string, ids []string, jobs string) (*report.Run, result) {
	out := t.TempDir()
	args := []string{"run", "--suite", dir, "--server", server, "--gate", "-j", jobs, "--out", out}
	for _, id := range ids {
		args = append(args, "--task", id)
	}
	r := runE2E(t, nil, args...)
	rep := readReport(t, out)
	if rep.Settings.Server != server {
		t.Errorf("report says server %q, want %q", rep.Settings.Server, server)
	}
	if len(rep.Results) != len(ids) {
		t.Fatalf("%d results for %d tasks:\n%s", len(rep.Results), len(ids), r)
	}
	// A peer cannot be confined to a browser context: each task has a
	// browser of its own, with the web through its flags.
	if s := rep.Settings; server != "builtin" && (s.Isolate != "process" || s.Browsers != "launched" || s.WebRoute != "flags") {
		t.Errorf("report says isolate %q, browsers %q, web route %q; want process, launched, flags", s.Isolate, s.Browsers, s.WebRoute)
	}
	return rep, r
}
