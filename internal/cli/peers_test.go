package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

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

// The suite's tasks pass the gate on the peer servers too, each replaying
// its own reference transcripts, with the runner owning the browser and
// the judge observing it directly.
func TestPeersPassTheGate(t *testing.T) {
	requirePeers(t)
	for _, server := range []string{"playwright", "chrome-devtools"} {
		t.Run(server, func(t *testing.T) {
			out := t.TempDir()
			r := runE2E(t, nil, "run", "--suite", "../../benchmarks/webvoyager", "--server", server, "--gate", "-j", "2", "--out", out)
			b := baseline(t)
			if r.code != exitOK || !hasLine(r.stdout, fmt.Sprintf("gate: passed (%d / %d)", b.ExpectedPassCount, len(b.Tasks))) {
				t.Fatalf("run --server %s --gate: want exit 0 and the gate passed, got %s", server, r)
			}
			rep := readReport(t, out)
			if rep.Settings.Server != server {
				t.Errorf("report says server %q, want %q", rep.Settings.Server, server)
			}
			// A peer cannot be confined to a browser context: each task
			// has a browser of its own, with the web through its flags.
			if s := rep.Settings; s.Isolate != "process" || s.Browsers != "launched" || s.WebRoute != "flags" {
				t.Errorf("report says isolate %q, browsers %q, web route %q; want process, launched, flags", s.Isolate, s.Browsers, s.WebRoute)
			}
		})
	}
}
