package templates

import (
	"net/url"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

// TestPostFieldComparesAsStored checks that a field's clause holds on the
// value as the site stores it, sent with spaces around it and encoded
// either way, and on no other value.
func TestPostFieldComparesAsStored(t *testing.T) {
	for _, c := range []struct {
		value, sent string
		want        bool
	}{
		{"fenwick", "fenwick", true},
		{"fenwick", "  fenwick ", true},
		{"fenwick", "fenwick_j", false},
		{"fenwick", "j.fenwick", false},
		{"Meet-up next month?", "Meet-up next month? ", true},
		{"Robin — fixing things", " Robin — fixing things", true},
		{"Robin — fixing things", "Robin - fixing things", false},
		{"Tool loan", "Tool  loan", false},
		{"", "", true},
		{"", " ", true},
		{"", "Late check-in", false},
	} {
		pc := contract.Postconditions{postField(forum.Send, "to", c.value)}
		form := url.Values{"subject": {"x"}, "to": {c.sent}, "body": {"y"}}.Encode()
		for _, body := range []string{form, strings.ReplaceAll(form, "+", "%20")} {
			obs := contract.Observation{Network: []contract.NetworkEntry{{URL: "https://forum.sandbox.test/messages", Method: "POST", Status: 303, Body: body}}}
			if got := contract.Evaluate(pc, obs, nil).Passed; got != c.want {
				t.Errorf("%q sent as %q (%s): passed %v, want %v", c.value, c.sent, body, got, c.want)
			}
		}
	}
}
