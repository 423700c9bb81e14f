package compare

import (
	"strings"
	"testing"
)

// A row whose interval and significance part says why in its own words,
// naming the reason that holds; one where they agree says nothing more.
func TestRowSaysWhyIntervalAndTestDisagree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		g     Group
		alpha float64
		want  string
	}{
		{"agree, not significant", Group{Test: TestMcNemar, Low: -0.1, High: 0.3}, 0.05, ""},
		{"agree, significant", Group{Test: TestMcNemar, Low: 0.1, High: 0.3, Significant: true}, 0.05, ""},
		{"Newcombe leaves 0 out", Group{Test: TestMcNemar, Low: 0.03, High: 0.88}, 0.05, "leaves 0 out: it is Newcombe's, not the exact test's, which decides"},
		{"Newcombe holds 0", Group{Test: TestMcNemar, Low: -0.01, High: 0.5, Significant: true}, 0.05, "holds 0: it is Newcombe's"},
		{"Bonferroni", Group{Test: TestBootstrap, Low: 0.01, High: 0.4}, 0.025, "at 95%, the test at the Bonferroni level"},
		{"bootstrap edge", Group{Test: TestBootstrap, Low: 0.001, High: 0.4}, 0.05, "the test's p decides"},
	} {
		got := disagreement(tc.g, tc.alpha)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
