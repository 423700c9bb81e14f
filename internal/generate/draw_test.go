package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/suite"
)

// sample is a template over made-up parameters, for the drawing and
// writing machinery alone: every string that YAML could misread is in it.
var sample = Template{
	ID: "shop-sample", App: "shop", Kind: KindChangeOne, Widgets: []Widget{WidgetToast},
	Params: []string{"n"}, Summary: "a sample",
	Draw: func(r *rand.Rand) Instance {
		n := r.IntN(40)
		contains := fmt.Sprintf("Order 'SH-%d' is \"placed\": yes # no", n)
		return Instance{
			Params:      map[string]string{"n": fmt.Sprint(n)},
			Instruction: fmt.Sprintf("Order item %d: true, null, 0x1F, - a list?", n),
			StartURL:    "https://shop.sandbox.test/",
			Contract: contract.Postconditions{
				Once(Post(Exact("https://shop.sandbox.test/checkout"), map[string]string{"line": fmt.Sprintf("KT-%04dx1", n), "qty": "303"})),
				Text(".notice", contains),
				NoWrite("stays.sandbox.test"),
				NoDialog(),
			},
			Reference: []suite.Step{Navigate("https://shop.sandbox.test/"), Type("Search", "lamp", true), ClickLink("Lamp", "/product/"), Click("button", "Add to cart"), Read()},
			Controls:  []Control{{Name: "one-step-short", Reference: []suite.Step{Read()}, FailsOn: 0}},
			Alternates: []Alternate{{Name: "reload-and-check", Reference: []suite.Step{
				Navigate("https://shop.sandbox.test/"), Type("Search", "lamp", true), ClickLink("Lamp", "/product/"), Click("button", "Add to cart"), Read(), Read(),
			}}},
		}
	},
}

func TestDrawIsDeterministicAndDistinct(t *testing.T) {
	a, err := Draw([]Template{sample}, 7, 12, "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Draw([]Template{sample}, 7, 12, "")
	if !reflect.DeepEqual(instances(a), instances(b)) {
		t.Fatal("two draws with one seed differ")
	}
	seen := map[string]bool{}
	for _, d := range a {
		if seen[paramsKey(d.Params)] {
			t.Errorf("%s repeats parameters %v", d.ID, d.Params)
		}
		seen[paramsKey(d.Params)] = true
	}
	c, _ := Draw([]Template{sample}, 8, 12, "")
	if reflect.DeepEqual(instances(a), instances(c)) {
		t.Error("seeds 7 and 8 drew the same instances")
	}
	if _, err := Draw([]Template{sample}, 7, 41, ""); err == nil {
		t.Error("drew 41 distinct instances from 40 possible")
	}
	if _, err := Draw([]Template{sample}, 7, 5, "mail-"); err == nil {
		t.Error("drew from no template")
	}
}

func TestWrittenSuiteReadsBack(t *testing.T) {
	src := Source{WebDir: t.TempDir(), UploadsDir: t.TempDir()}
	drawn, err := Draw([]Template{sample}, 1, 3, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "gen")
	if err := WriteSuite(dir, drawn, Manifest{Seed: 1, Count: 3}, src); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drawn {
		task, ok := s.Task(d.ID)
		if !ok {
			t.Fatalf("%s not in the written suite", d.ID)
		}
		want, _ := (&suite.Task{ID: d.ID, Instruction: d.Instruction, StartURL: d.StartURL, Timeout: Timeout, Tags: d.Tags(),
			Postconditions: d.Contract, Reference: d.Reference, Rationale: rationale(d)}).Canonical()
		got, _ := task.Canonical()
		// A step with no arguments is written without them and read back
		// with an empty mapping.
		want = bytes.ReplaceAll(want, []byte(`"args":null`), []byte(`"args":{}`))
		if !bytes.Equal(got, want) {
			t.Errorf("%s reads back as\n%s\nwant\n%s", d.ID, got, want)
		}
	}
	controls, err := suite.Load(filepath.Join(dir, "controls"))
	if err != nil || len(controls.Tasks) != 3 {
		t.Fatalf("controls: %v, %d tasks", err, len(controls.Tasks))
	}
	alternates, err := suite.Load(filepath.Join(dir, "alternates"))
	if err != nil || len(alternates.Tasks) != 3 {
		t.Fatalf("alternates: %v, %d tasks", err, len(alternates.Tasks))
	}
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, in := range m.Instances {
		want := []ManifestAlternate{{ID: in.ID + "--reload-and-check"}}
		if !reflect.DeepEqual(in.Alternates, want) {
			t.Errorf("%s: alternates %+v in the manifest, want %+v", in.ID, in.Alternates, want)
		}
		a, ok := alternates.Task(want[0].ID)
		if !ok {
			t.Fatalf("%s not in alternates/", want[0].ID)
		}
		if !slices.Contains(a.Tags, "alternate") || a.Instruction == "" || len(a.Reference) != 6 {
			t.Errorf("%s: tags %q, %d steps; want the tag alternate and its own reference", a.ID, a.Tags, len(a.Reference))
		}
	}
	for _, link := range []string{"alternates/web", "alternates/uploads"} {
		if fi, err := os.Stat(filepath.Join(dir, link)); err != nil || !fi.IsDir() {
			t.Errorf("%s: %v, want a link to a folder", link, err)
		}
	}
	if err := WriteSuite(dir, drawn, Manifest{}, src); err == nil {
		t.Error("wrote over an existing suite")
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("a refused write left %d entries beside the suite", len(entries)-1)
	}
}

func instances(ds []Drawn) []Instance {
	out := make([]Instance, len(ds))
	for i, d := range ds {
		out[i] = d.Instance
	}
	return out
}

// A count below the number of templates draws one instance from each of
// that many templates, spread evenly over the applications and chosen by
// the seed alone.
func TestDrawSamplesTemplatesEvenly(t *testing.T) {
	apps := []string{"shop", "stays", "forum", "mail", "tracker"}
	var ts []Template
	for i := range 53 {
		tt := sample
		tt.App = apps[i*len(apps)/53]
		tt.ID = fmt.Sprintf("t%02d-%s", i, tt.App)
		ts = append(ts, tt)
	}
	drawFrom := func(seed uint64) []string {
		t.Helper()
		drawn, err := Draw(ts, seed, 12, "")
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var ids []string
		perApp := map[string]int{}
		for _, d := range drawn {
			ids = append(ids, d.Template.ID)
			perApp[d.Template.App]++
		}
		if len(drawn) != 12 || len(uniq(ids)) != 12 {
			t.Fatalf("seed %d: %d instances from %d templates, want 12 from 12: %v", seed, len(drawn), len(uniq(ids)), ids)
		}
		if !slices.IsSorted(ids) { // the templates' own order
			t.Errorf("seed %d: templates out of order: %v", seed, ids)
		}
		for _, app := range apps {
			if n := perApp[app]; n < 2 || n > 3 {
				t.Errorf("seed %d: %d of 12 from %s, want 2 or 3 for each of 5 applications: %v", seed, n, app, perApp)
			}
		}
		return ids
	}
	a := drawFrom(5)
	if b := drawFrom(5); !slices.Equal(a, b) {
		t.Errorf("seed 5 sampled %v, then %v", a, b)
	}
	if c := drawFrom(6); slices.Equal(a, c) {
		t.Errorf("seeds 5 and 6 sampled the same templates %v", a)
	}
	// A count of the templates or more draws from every one of them, as
	// before sampling existed.
	all, err := Draw(ts, 5, 53, "")
	if err != nil || len(all) != 53 {
		t.Fatalf("count 53: %d instances, %v", len(all), err)
	}
	for i, d := range all {
		if d.Template.ID != ts[i].ID {
			t.Fatalf("count 53: instance %d from %s, want %s", i, d.Template.ID, ts[i].ID)
		}
	}
}

func uniq(xs []string) []string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return slices.Compact(s)
}
