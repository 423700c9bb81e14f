package cli

import (
	"os"
	"testing"
)

// The same ten tasks pass the gate on the peer servers too, each replaying
// its own reference transcripts, with the runner owning the browser and
// the judge observing it directly.
func TestPeersPassTheGate(t *testing.T) {
	if _, err := os.Stat("../../node_modules/@playwright/mcp"); err != nil && os.Getenv("CI") == "" {
		t.Skip("the peer servers are not installed (make peers); CI installs them and runs this test")
	}
	for _, server := range []string{"playwright", "chrome-devtools"} {
		t.Run(server, func(t *testing.T) {
			out := t.TempDir()
			r := runE2E(t, nil, "run", "--suite", "../../benchmarks/webvoyager", "--server", server, "--gate", "-j", "2", "--out", out)
			if r.code != ExitOK || !hasLine(r.stdout, "gate: passed (10 / 10)") {
				t.Fatalf("run --server %s --gate: want exit 0 and the gate passed, got %s", server, r)
			}
			rep := readReport(t, out)
			if rep.Settings.Server != server {
				t.Errorf("report says server %q, want %q", rep.Settings.Server, server)
			}
		})
	}
}
