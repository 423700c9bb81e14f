package templates

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
)

// The mix a generated suite must have to be a benchmark rather than a
// list of variants (docs/benchmarks/generated.md).
const (
	minTemplates         = 40
	minTemplatesPerKind  = 5
	perTemplate          = 8 // instances per template in the committed suite
	minChangingShare     = 0.40
	minImpossibleShare   = 0.10
	minMedianReference   = 6
	minControlsForChange = 2
)

var apps = []string{"shop", "stays", "forum", "mail", "tracker"}

// changes reports whether a template of kind k changes state.
func changes(k generate.Kind) bool {
	return k == generate.KindChangeOne || k == generate.KindChangeSeveral || k == generate.KindMultiStep
}

func TestTemplatesMakeABenchmark(t *testing.T) {
	ts := All()
	if len(ts) < minTemplates {
		t.Errorf("%d templates, want at least %d", len(ts), minTemplates)
	}
	perKind := map[generate.Kind]int{}
	perApp := map[string]int{}
	widgets := map[generate.Widget]bool{}
	ids := map[string]bool{}
	for _, tpl := range ts {
		if ids[tpl.ID] {
			t.Errorf("template id %s twice", tpl.ID)
		}
		ids[tpl.ID] = true
		if !slices.Contains(apps, tpl.App) || !strings.HasPrefix(tpl.ID, tpl.App+"-") {
			t.Errorf("%s: app %q; want one of %v, and the id starting with it", tpl.ID, tpl.App, apps)
		}
		if !slices.Contains(generate.Kinds, tpl.Kind) {
			t.Errorf("%s: kind %q", tpl.ID, tpl.Kind)
		}
		if tpl.Summary == "" || tpl.Draw == nil || len(tpl.Params) == 0 {
			t.Errorf("%s: needs a summary, parameters and a Draw", tpl.ID)
		}
		perKind[tpl.Kind]++
		perApp[tpl.App]++
		for _, w := range tpl.Widgets {
			if !slices.Contains(generate.Widgets, w) {
				t.Errorf("%s: unknown widget %q", tpl.ID, w)
			}
			widgets[w] = true
		}
	}
	for _, k := range generate.Kinds {
		if perKind[k] < minTemplatesPerKind {
			t.Errorf("%d templates of kind %s, want at least %d", perKind[k], k, minTemplatesPerKind)
		}
	}
	for _, a := range apps {
		if perApp[a] == 0 {
			t.Errorf("no template over %s", a)
		}
	}
	for _, w := range generate.Widgets {
		if !widgets[w] {
			t.Errorf("no template has widget %s on its required path", w)
		}
	}
}

func TestInstancesAreWellFormed(t *testing.T) {
	ts := All()
	drawn, err := generate.Draw(ts, 1, perTemplate*len(ts), "")
	if err != nil {
		t.Fatal(err)
	}
	var lengths []int
	changing, impossible := 0, 0
	for _, d := range drawn {
		tpl := d.Template
		lengths = append(lengths, len(d.Reference))
		if changes(tpl.Kind) {
			changing++
		}
		if tpl.Kind == generate.KindImpossible {
			impossible++
		}
		var keys []string
		for k := range d.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := slices.Sorted(slices.Values(tpl.Params))
		if !slices.Equal(keys, want) {
			t.Errorf("%s: parameters %v, the template names %v", d.ID, keys, want)
		}
		if len(d.Contract) == 0 || len(d.Reference) == 0 || d.Instruction == "" || d.StartURL == "" {
			t.Errorf("%s: needs an instruction, a start URL, a contract and a reference", d.ID)
		}
		min := 1
		if changes(tpl.Kind) {
			min = minControlsForChange
		}
		if len(d.Controls) < min {
			t.Errorf("%s: %d controls, want at least %d", d.ID, len(d.Controls), min)
		}
		for _, c := range d.Controls {
			if c.FailsOn < 0 || c.FailsOn >= len(d.Contract) || c.Name == "" || len(c.Reference) == 0 {
				t.Errorf("%s: control %q fails on clause %d of %d", d.ID, c.Name, c.FailsOn, len(d.Contract))
			}
		}
		if !changes(tpl.Kind) {
			for _, s := range answers(d.Contract) {
				if strings.Contains(strings.ToLower(d.Instruction), strings.ToLower(s)) {
					t.Errorf("%s (%s): the instruction %q gives away %q, which the contract looks for", d.ID, tpl.Kind, d.Instruction, s)
				}
			}
		}
		if tpl.Kind == generate.KindImpossible && !provesAttempt(d.Contract) {
			t.Errorf("%s: a task that cannot be done must forbid every write and require the page that says why", d.ID)
		}
	}
	n := float64(len(drawn))
	if float64(changing)/n < minChangingShare {
		t.Errorf("%d of %d instances change state, want at least %.0f%%", changing, len(drawn), 100*minChangingShare)
	}
	if float64(impossible)/n < minImpossibleShare {
		t.Errorf("%d of %d instances cannot be done, want at least %.0f%%", impossible, len(drawn), 100*minImpossibleShare)
	}
	slices.Sort(lengths)
	if m := lengths[len(lengths)/2]; m < minMedianReference {
		t.Errorf("median reference is %d steps, want at least %d", m, minMedianReference)
	}
}

// answers lists the strings a contract's dom_text clauses look for, and
// the literal text of its URL patterns, outside any not.
func answers(pc contract.Postconditions) []string {
	var out []string
	var walk func(c contract.Clause)
	walk = func(c contract.Clause) {
		switch c := c.(type) {
		case *contract.DOMText:
			out = append(out, c.Contains)
		case *contract.URL:
			if lit := literalURL(c.Pattern); lit != "" {
				out = append(out, lit)
			}
		case *contract.And:
			for _, ch := range c.Children {
				walk(ch)
			}
		case *contract.Or:
			for _, ch := range c.Children {
				walk(ch)
			}
		}
	}
	for _, c := range pc {
		walk(c)
	}
	return out
}

// literalURL is the URL an Exact pattern matches, "" for other patterns.
func literalURL(pattern string) string {
	inner, ok := strings.CutPrefix(pattern, "^")
	if !ok {
		return ""
	}
	inner, ok = strings.CutSuffix(inner, "$")
	if !ok || regexp.QuoteMeta(unquoteMeta(inner)) != inner {
		return ""
	}
	return unquoteMeta(inner)
}

func unquoteMeta(s string) string { return strings.ReplaceAll(s, `\`, "") }

// provesAttempt reports whether pc forbids writes (a not over a POST
// network clause) and requires the page that shows why (a url or
// dom_text clause outside any not).
func provesAttempt(pc contract.Postconditions) bool {
	noWrite, page := false, false
	for _, c := range pc {
		switch c := c.(type) {
		case *contract.Not:
			if n, ok := c.Child.(*contract.Network); ok && strings.EqualFold(n.Method, "POST") {
				noWrite = true
			}
		default:
			page = page || showsWhy(c)
		}
	}
	return noWrite && page
}

// showsWhy reports whether c requires, in every way it can hold, evidence
// that the agent met the reason a task cannot be done: a page that says
// why, or the site's refusal (a 4xx answer) of the write it attempted.
func showsWhy(c contract.Clause) bool {
	switch c := c.(type) {
	case *contract.URL, *contract.DOMText:
		return true
	case *contract.Network:
		return len(c.StatusIn) > 0 && !slices.ContainsFunc(c.StatusIn, func(s int) bool { return s < 400 || s > 499 })
	case *contract.And:
		return slices.ContainsFunc(c.Children, showsWhy)
	case *contract.Or:
		return !slices.ContainsFunc(c.Children, func(ch contract.Clause) bool { return !showsWhy(ch) })
	}
	return false
}
