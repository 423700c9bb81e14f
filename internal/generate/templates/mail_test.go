package templates

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contractbench/internal/contract"
	"contractbench/internal/generate"
	"contractbench/internal/sandbox"
	"contractbench/internal/suite"
)

func TestMailTemplates(t *testing.T) {
	kinds := map[generate.Kind]int{}
	for _, tpl := range mailTemplates {
		kinds[tpl.Kind]++
	}
	if len(mailTemplates) < 8 {
		t.Errorf("%d mail templates, want at least 8", len(mailTemplates))
	}
	for _, k := range generate.Kinds {
		if kinds[k] == 0 {
			t.Errorf("no mail template of kind %s", k)
		}
	}
	const per = 8
	drawn, err := generate.Draw(mailTemplates, 7, per*len(mailTemplates), "mail-")
	if err != nil {
		t.Fatal(err) // fewer than per distinct instances of some template
	}
	again, _ := generate.Draw(mailTemplates, 7, per*len(mailTemplates), "mail-")
	for i, d := range drawn {
		if a, b := mailYAML(t, d, d.Reference), mailYAML(t, again[i], again[i].Reference); a != b || fmt.Sprint(d.Params) != fmt.Sprint(again[i].Params) {
			t.Errorf("%s: two draws with one seed differ", d.ID)
		}
		for _, ref := range append([][]suite.Step{d.Reference}, controlRefs(d.Controls)...) {
			if _, err := suite.ParseTask(d.ID+".yaml", []byte(mailYAML(t, d, ref))); err != nil {
				t.Errorf("%s: not a valid task: %v", d.ID, err)
			}
		}
		if strings.Contains(d.Instruction, "%!") {
			t.Errorf("%s: a formatting error in the instruction: %s", d.ID, d.Instruction)
		}
		if !changes(d.Template.Kind) {
			for _, s := range answers(d.Contract) {
				if strings.Contains(strings.ToLower(d.Instruction), strings.ToLower(s)) {
					t.Errorf("%s: the instruction %q gives away %q", d.ID, d.Instruction, s)
				}
			}
		}
	}
}

// mailYAML is d as a task file with reference ref.
func mailYAML(t *testing.T, d generate.Drawn, ref []suite.Step) string {
	t.Helper()
	data, err := generate.TaskYAML(d.Task(d.ID, ref, nil))
	if err != nil {
		t.Fatalf("%s: %v", d.ID, err)
	}
	return string(data)
}

func controlRefs(cs []generate.Control) [][]suite.Step {
	var out [][]suite.Step
	for _, c := range cs {
		out = append(out, c.Reference)
	}
	return out
}

// TestMailReadOnlyPagesShowTheFacts: for the templates that only read, the
// page the contract names, fetched from a fresh site, holds every text
// the contract looks for.
func TestMailReadOnlyPagesShowTheFacts(t *testing.T) {
	drawn, err := generate.Draw(mailTemplates, 3, 10*len(mailTemplates), "mail-")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drawn {
		if changes(d.Template.Kind) {
			continue
		}
		// The page is the URL clause's, outside a not and wherever an
		// and or an or puts it; the texts are those read there.
		var page string
		var texts []*contract.DOMText
		var walk func(c contract.Clause)
		walk = func(c contract.Clause) {
			switch c := c.(type) {
			case *contract.URL:
				page = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(c.Pattern, "^"), "$"), `(?:[?#].*)?`)
				page = strings.ReplaceAll(page, `\`, "")
			case *contract.DOMText:
				texts = append(texts, c)
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
		for _, c := range d.Contract {
			walk(c)
		}
		if page == "" {
			t.Errorf("%s: no page named", d.ID)
			continue
		}
		w := httptest.NewRecorder()
		sandbox.New(http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequest("GET", page, nil))
		if w.Code != http.StatusOK {
			t.Errorf("%s: GET %s answers %d", d.ID, page, w.Code)
		}
		for _, x := range texts {
			if !strings.Contains(w.Body.String(), x.Contains) {
				t.Errorf("%s: %s does not show %q", d.ID, page, x.Contains)
			}
		}
	}
}
