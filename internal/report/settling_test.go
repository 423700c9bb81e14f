package report

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

// TestHTMLSaysWhyTheClockStopped: where the report shows how far the
// judge ran the page's clock, it shows why the clock stopped there; a
// report written before the judge said why shows the advance alone.
func TestHTMLSaysWhyTheClockStopped(t *testing.T) {
	const (
		advance = "the page's clock was run 37000 ms ahead before the final reading"
		why     = "nothing changed for the horizon, 30000 ms of the page's time"
	)
	for _, tc := range []struct {
		stopped, want string
	}{
		{why, advance + " (stopped: " + html.EscapeString(why) + ")</li>"},
		{"", advance + "</li>"},
	} {
		r := testRun(t)
		obs := *r.Results[0].Observation
		obs.Settling = &contract.Settling{WaitedMS: 412, Quiet: true, AdvancedMS: 37000, Stopped: tc.stopped}
		r.Results[0].Observation = &obs
		var b bytes.Buffer
		if err := WriteHTML(&b, r); err != nil {
			t.Fatalf("WriteHTML: %v", err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("stopped %q: the report does not say %q", tc.stopped, tc.want)
		}
	}
}
