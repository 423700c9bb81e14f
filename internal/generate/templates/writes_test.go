package templates

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestTrimmedField checks that a field's pattern matches the value as the
// site stores it, sent with spaces around it and encoded either way, and
// no other value.
func TestTrimmedField(t *testing.T) {
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
	} {
		re := regexp.MustCompile(trimmedField("to", c.value))
		form := url.Values{"subject": {"x"}, "to": {c.sent}, "body": {"y"}}.Encode()
		if got := re.MatchString(form); got != c.want {
			t.Errorf("%q sent as %q (%s): match %v, want %v", c.value, c.sent, form, got, c.want)
		}
		if spaced := strings.ReplaceAll(form, "+", "%20"); re.MatchString(spaced) != c.want {
			t.Errorf("%q sent as %q with %%20 for spaces: match %v, want %v", c.value, c.sent, !c.want, c.want)
		}
	}
}
