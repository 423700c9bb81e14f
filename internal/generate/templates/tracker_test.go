package templates

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"contractbench/internal/generate"
	"contractbench/internal/suite"
)

// TestTrackerTemplates checks the tracker's templates on their own: all
// six kinds, dozens of distinct instances each that make valid task files,
// instructions that do not give away what a read-only contract looks for,
// and controls that differ from the reference.
func TestTrackerTemplates(t *testing.T) {
	if len(trackerTemplates) < 8 {
		t.Fatalf("%d tracker templates, want at least 8", len(trackerTemplates))
	}
	kinds := map[generate.Kind]bool{}
	var lengths []int
	for i := range trackerTemplates {
		tpl := &trackerTemplates[i]
		kinds[tpl.Kind] = true
		if tpl.App != "tracker" || !strings.HasPrefix(tpl.ID, "tracker-") {
			t.Errorf("%s: app %q", tpl.ID, tpl.App)
		}
		drawn, err := generate.Draw(trackerTemplates[i:i+1], 3, 24, "")
		if err != nil {
			t.Errorf("%s: %v", tpl.ID, err)
			continue
		}
		for _, d := range drawn {
			lengths = append(lengths, len(d.Reference))
			task := &suite.Task{ID: d.ID, Instruction: d.Instruction, StartURL: d.StartURL, Timeout: generate.Timeout,
				Postconditions: d.Contract, Reference: d.Reference, Rationale: d.Rationale}
			data, err := generate.TaskYAML(task)
			if err != nil {
				t.Fatalf("%s: %v", d.ID, err)
			}
			if _, err := suite.ParseTask(d.ID+".yaml", data); err != nil {
				t.Errorf("%s: not a valid task: %v", d.ID, err)
			}
			if !changes(tpl.Kind) {
				for _, s := range answers(d.Contract) {
					if strings.Contains(strings.ToLower(d.Instruction), strings.ToLower(s)) {
						t.Errorf("%s: the instruction %q gives away %q", d.ID, d.Instruction, s)
					}
				}
			}
			if tpl.Kind == generate.KindImpossible && !provesAttempt(d.Contract) {
				t.Errorf("%s: must forbid writes and require the page that says why", d.ID)
			}
			want := 1
			if changes(tpl.Kind) {
				want = 2
			}
			if len(d.Controls) < want {
				t.Errorf("%s: %d controls, want %d", d.ID, len(d.Controls), want)
			}
			for _, c := range d.Controls {
				if c.FailsOn < 0 || c.FailsOn >= len(d.Contract) || reflect.DeepEqual(c.Reference, d.Reference) {
					t.Errorf("%s: control %s fails on %d of %d clauses, or plays the reference", d.ID, c.Name, c.FailsOn, len(d.Contract))
				}
			}
			if slices.Contains([]generate.Kind{generate.KindChangeOne, generate.KindChangeSeveral, generate.KindMultiStep}, tpl.Kind) && d.Contract[0].Kind() != "network" {
				t.Errorf("%s: a write's contract starts with its network clause, not %s", d.ID, d.Contract[0].Kind())
			}
		}
		// Draw is a pure function of its generator.
		a := tpl.Draw(rand.New(rand.NewPCG(5, 9)))
		b := tpl.Draw(rand.New(rand.NewPCG(5, 9)))
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two draws from equal generators differ", tpl.ID)
		}
	}
	for _, k := range generate.Kinds {
		if !kinds[k] {
			t.Errorf("no tracker template of kind %s", k)
		}
	}
	slices.Sort(lengths)
	if m := lengths[len(lengths)/2]; m < 6 {
		t.Errorf("median reference of the tracker's instances is %d steps, want at least 6", m)
	}
}
