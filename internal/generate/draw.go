package generate

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
)

// caveat ends every generated instruction, whatever the task: an agent
// must not learn from the wording that a task cannot be done, so the tasks
// that can be done say it too.
const caveat = "If it cannot be done, change nothing and leave open the page that shows why."

// Drawn is one instance with the template it came from and its id.
type Drawn struct {
	ID       string
	Template *Template
	Instance
}

// maxTries bounds the draws spent looking for one more distinct instance
// of a template: a template whose parameter space is smaller than asked
// for fails instead of looping.
const maxTries = 64

// Draw draws count instances from the templates whose ID starts with
// prefix ("" for all), spread evenly over them in Templates' order (the
// first count mod n templates get one more). Each template's k-th draw
// uses its own generator, seeded from seed, the template's ID and k, so
// adding a template never changes another's instances. Instances of one
// template have distinct parameters; ids are the template's ID and a
// two-digit number. A count below the number of templates draws one
// instance from each of count templates chosen by sampleTemplates.
func Draw(templates []Template, seed uint64, count int, prefix string) ([]Drawn, error) {
	chosen := matching(templates, prefix)
	if len(chosen) == 0 {
		return nil, fmt.Errorf("no template's id starts with %q", prefix)
	}
	if count < 1 {
		return nil, fmt.Errorf("count %d: want one instance at least", count)
	}
	if count < len(chosen) {
		chosen = sampleTemplates(chosen, seed, count)
	}
	var out []Drawn
	for i, t := range chosen {
		n := count / len(chosen)
		if i < count%len(chosen) {
			n++
		}
		got, err := drawTemplate(t, seed, n)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// sampleStream is the generator stream of the templates' sample, apart
// from every template's own (those are seeded by the template's ID).
const sampleStream = "template sample"

// sampleTemplates picks count of templates (count < len(templates)): the
// applications take turns, in an order drawn from seed, each giving its
// next template of a shuffle drawn from seed, until count are picked;
// the picked keep templates' order.
func sampleTemplates(templates []*Template, seed uint64, count int) []*Template {
	h := fnv.New64a()
	h.Write([]byte(sampleStream))
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	var apps []string
	byApp := map[string][]*Template{}
	for _, t := range templates {
		if byApp[t.App] == nil {
			apps = append(apps, t.App)
		}
		byApp[t.App] = append(byApp[t.App], t)
	}
	for _, app := range apps {
		ts := slices.Clone(byApp[app])
		r.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		byApp[app] = ts
	}
	r.Shuffle(len(apps), func(i, j int) { apps[i], apps[j] = apps[j], apps[i] })
	picked := map[*Template]bool{}
	for len(picked) < count {
		for _, app := range apps {
			if len(picked) == count || len(byApp[app]) == 0 {
				continue
			}
			picked[byApp[app][0]] = true
			byApp[app] = byApp[app][1:]
		}
	}
	var out []*Template
	for _, t := range templates {
		if picked[t] {
			out = append(out, t)
		}
	}
	return out
}

// Matching counts the templates whose ID starts with prefix.
func Matching(templates []Template, prefix string) int { return len(matching(templates, prefix)) }

func matching(templates []Template, prefix string) []*Template {
	var out []*Template
	for i := range templates {
		if strings.HasPrefix(templates[i].ID, prefix) {
			out = append(out, &templates[i])
		}
	}
	return out
}

func drawTemplate(t *Template, seed uint64, n int) ([]Drawn, error) {
	h := fnv.New64a()
	h.Write([]byte(t.ID))
	stream := h.Sum64()
	seen := map[string]bool{}
	var out []Drawn
	for k := uint64(0); len(out) < n; k++ {
		if k >= uint64(n*maxTries) {
			return nil, fmt.Errorf("template %s: %d distinct instances after %d draws, want %d", t.ID, len(out), k, n)
		}
		inst := t.Draw(rand.New(rand.NewPCG(seed, stream+k)))
		inst.Instruction += " " + caveat
		key := paramsKey(inst.Params)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Drawn{ID: fmt.Sprintf("%s-%02d", t.ID, len(out)+1), Template: t, Instance: inst})
	}
	return out, nil
}

// paramsKey is params as one comparable string, keys sorted.
func paramsKey(params map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(params)) {
		fmt.Fprintf(&b, "%s=%q;", k, params[k])
	}
	return b.String()
}

// Tags are the tags of a drawn task, by which reports group scores: the
// application, the template, the kind and each widget.
func (d *Drawn) Tags() []string {
	tags := []string{"generated", "app:" + d.Template.App, "template:" + d.Template.ID, "kind:" + string(d.Template.Kind)}
	for _, w := range d.Template.Widgets {
		tags = append(tags, "widget:"+string(w))
	}
	return tags
}
