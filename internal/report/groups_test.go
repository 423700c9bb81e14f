package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"contractbench/internal/contract"
)

// taggedRun is a run of three generated tasks: two of one template over
// mail (one passed), one impossible task over the shop (passed).
func taggedRun() *Run {
	r := &Run{SchemaVersion: SchemaVersion, Settings: Settings{Suite: "gen", Agent: "replay", Server: "builtin", Web: "replay", Repeat: 1, AllTasks: true, Tasks: []string{"m1", "m2", "s1"}}}
	tags := map[string][]string{
		"m1": {"generated", "app:mail", "template:mail-x", "kind:change-one", "widget:toast", "widget:autocomplete"},
		"m2": {"generated", "app:mail", "template:mail-x", "kind:change-one", "widget:toast", "widget:autocomplete"},
		"s1": {"generated", "app:shop", "template:shop-y", "kind:impossible"},
	}
	for _, task := range []string{"m1", "m2", "s1"} {
		res := TaskResult{Task: task, Attempt: 1, Tags: tags[task], Evidence: []contract.Evidence{{Path: "postconditions[0]", Kind: contract.KindURL, Passed: task != "m2"}}}
		if task == "m2" {
			res.SetVerdict(contract.Verdict{Evidence: res.Evidence, FailedPath: "postconditions[0]", FailedKind: contract.KindURL})
		}
		res.Decide()
		r.Results = append(r.Results, res)
	}
	return r
}

func TestGroupsByTagDimension(t *testing.T) {
	t.Parallel()
	r := taggedRun()
	got := Summarize(r).Groups
	var names []string
	for _, g := range got {
		names = append(names, g.Dimension+":"+g.Name)
	}
	want := []string{"app:mail", "app:shop", "kind:change-one", "kind:impossible", "widget:autocomplete", "widget:toast", "template:mail-x", "template:shop-y"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("groups %v, want %v", names, want)
	}
	if g := got[0]; g.Tasks != 2 || g.Total != 2 || g.Passed != 1 || g.Score != 0.5 || g.Wilson95Low <= 0 || g.Wilson95High >= 1 {
		t.Errorf("app:mail = %+v, want 1 of 2 with an interval inside (0, 1)", g)
	}

	var md, html, js bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| app: mail | 2 | 1 / 2 | 50.0% |") {
		t.Errorf("markdown has no row for app: mail:\n%s", md.String())
	}
	if !strings.Contains(html.String(), `<tr data-dimension="kind"><td>kind: impossible</td><td class="num">1</td><td class="num">1 / 1</td>`) {
		t.Errorf("html has no row for kind: impossible")
	}
	var doc struct {
		Summary struct {
			Groups []Group `json:"groups"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || !reflect.DeepEqual(doc.Summary.Groups, got) {
		t.Errorf("JSON summary.groups = %+v (%v), want %+v", doc.Summary.Groups, err, got)
	}
}

// A run whose tasks have no such tags shows no group section.
func TestNoGroupsWithoutTags(t *testing.T) {
	t.Parallel()
	r := unrestrictedRepeatRun()
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if Summarize(r).Groups != nil || strings.Contains(md.String(), "Scores by application") {
		t.Error("a run without group tags shows groups")
	}
}
