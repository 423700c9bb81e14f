package report

import (
	"strings"
	"testing"

	"contractbench/internal/contract"
)

// A run labelled unrestricted fails the gate even when every covered task
// has a passing-looking result, and says so first.
func TestGateFailsAnUnrestrictedRun(t *testing.T) {
	t.Parallel()
	b := &Baseline{ExpectedPassCount: 1, Tasks: []string{"t"}}
	r := &Run{Settings: Settings{Trust: TrustUnrestricted}, Results: []TaskResult{{Task: "t", Attempt: 1, Outcome: OutcomePassed}}}
	failures := gateFailures(b, r)
	if len(failures) != 1 || failures[0].Task != "" {
		t.Fatalf("gate failures %q, want one for the run", failures)
	}
	if got := failures[0].String(); !strings.HasPrefix(got, "run: trust: unrestricted agent: ") {
		t.Errorf("gate line %q, want it to start with the run's label", got)
	}
	r.Settings.Trust = ""
	if failures := gateFailures(b, r); len(failures) != 0 {
		t.Errorf("without the label the same run fails the gate: %q", failures)
	}
}

func TestTamperSignals(t *testing.T) {
	t.Parallel()
	doc := func(url string) contract.NetworkEntry {
		return contract.NetworkEntry{URL: url, Method: "GET", Status: 200, ResourceType: "Document"}
	}
	tests := []struct {
		name string
		obs  contract.Observation
		want bool
	}{
		{"loaded", contract.Observation{URL: "https://a.test/x#frag", Network: []contract.NetworkEntry{doc("https://a.test/x")}}, false},
		{"address rewritten", contract.Observation{URL: "https://a.test/forged", Network: []contract.NetworkEntry{doc("https://a.test/start")}}, true},
		{"only a script of that URL", contract.Observation{URL: "https://a.test/s.js",
			Network: []contract.NetworkEntry{{URL: "https://a.test/s.js", ResourceType: "Script"}}}, true},
		{"not a web page", contract.Observation{URL: "about:blank"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := TamperSignals(&tc.obs)
			if (len(got) > 0) != tc.want {
				t.Errorf("signals %q, want any: %v", got, tc.want)
			}
		})
	}
}
