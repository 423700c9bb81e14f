package contract

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// bodyCheck is the part of a network clause about the request body:
// body_pattern and form. The zero value checks nothing.
type bodyCheck struct {
	pattern    *regexp.Regexp
	form       map[string]string
	trim, fold []string
}

func newBodyCheck(c *Network) (bodyCheck, error) {
	b := bodyCheck{form: c.Form, trim: c.FormTrim, fold: c.FormFoldCase}
	if c.BodyPattern != "" {
		re, err := regexp.Compile(c.BodyPattern)
		if err != nil {
			return b, fmt.Errorf("invalid body_pattern: %v", err)
		}
		b.pattern = re
	}
	return b, nil
}

func (b bodyCheck) active() bool { return b.pattern != nil || len(b.form) > 0 }

// maxQuoted bounds how much of a body or a form value evidence quotes.
const maxQuoted = 120

// mismatch says what n's body lacks, or "" when it satisfies the check.
// A body the judge cut short never satisfies it: the part it did not keep
// could have held anything.
func (b bodyCheck) mismatch(n NetworkEntry) string {
	if !b.active() {
		return ""
	}
	switch {
	case n.BodyTruncated:
		return fmt.Sprintf("body longer than the %d bytes the judge keeps", MaxBodyBytes)
	case n.Body == "":
		return "no request body"
	}
	if b.pattern != nil && !b.pattern.MatchString(n.Body) {
		return "body " + quote(n.Body) + " does not match " + b.pattern.String()
	}
	if len(b.form) == 0 {
		return ""
	}
	vals, err := url.ParseQuery(n.Body)
	if err != nil {
		return "body " + quote(n.Body) + " is not form-encoded: " + err.Error()
	}
	for _, k := range slices.Sorted(maps.Keys(b.form)) {
		got, want := vals[k], b.form[k]
		switch {
		case len(got) == 0:
			return fmt.Sprintf("form has no field %s", strconv.Quote(k))
		case len(got) > 1:
			return fmt.Sprintf("form field %s sent %d times (%s)", strconv.Quote(k), len(got), quoteAll(got))
		case !b.same(k, got[0], want):
			return fmt.Sprintf("form field %s is %s, want %s%s", strconv.Quote(k), quote(got[0]), strconv.Quote(want), b.how(k))
		}
	}
	return ""
}

// same compares the value sent in field k with the one wanted, as the
// site stores it: trimmed, case-folded, when the clause says so.
func (b bodyCheck) same(k, got, want string) bool {
	if slices.Contains(b.trim, k) {
		got = strings.TrimSpace(got)
	}
	if slices.Contains(b.fold, k) {
		return strings.EqualFold(got, want)
	}
	return got == want
}

// how says how field k is compared, for evidence: "" when exactly.
func (b bodyCheck) how(k string) string {
	var ways []string
	if slices.Contains(b.trim, k) {
		ways = append(ways, "trimmed")
	}
	if slices.Contains(b.fold, k) {
		ways = append(ways, "in any case")
	}
	if len(ways) == 0 {
		return ""
	}
	return " (" + strings.Join(ways, ", ") + ")"
}

// formList writes a form check for the expected side of evidence, in key
// order: {"qty": "2", "sku": "KT-0412"}.
func formList(form map[string]string) string {
	parts := make([]string, 0, len(form))
	for _, k := range slices.Sorted(maps.Keys(form)) {
		parts = append(parts, strconv.Quote(k)+": "+strconv.Quote(form[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func quote(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}

func quoteAll(vs []string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = quote(v)
	}
	return strings.Join(out, ", ")
}
