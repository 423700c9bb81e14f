package report

import (
	"cmp"
	"slices"
	"strings"

	"contractbench/internal/stats"
)

// groupDimensions are the tag prefixes a report scores groups of tasks
// by, in the order it shows them: a task tagged "kind:impossible" counts
// in the group impossible of the dimension kind. Generated suites tag
// every task with its application, kind, widgets and template
// (internal/generate); any suite may use the same tags.
var groupDimensions = []string{"app", "kind", "widget", "template"}

// Group is the score of the results whose task carries one tag.
type Group struct {
	// Dimension is the tag's prefix (app, kind, widget, template), Name
	// what follows its colon.
	Dimension string `json:"dimension"`
	Name      string `json:"name"`
	// Tasks counts distinct tasks, Total their judged results, Passed
	// those that passed; Score is Passed/Total.
	Tasks        int     `json:"tasks"`
	Total        int     `json:"total"`
	Passed       int     `json:"passed"`
	Score        float64 `json:"score"`
	Wilson95Low  float64 `json:"wilson95_low"`
	Wilson95High float64 `json:"wilson95_high"`
}

// groups scores r's judged results by each dimension's tags, ordered by
// dimension, then name; nil when no task has such a tag. The interval
// takes the results for independent trials, as the run's own does: with
// several instances of a template in a group it is optimistic, which
// `contractbench diff` corrects for by clustering.
func groups(r *Run) []Group {
	type key struct{ dim, name string }
	byKey := map[key]*Group{}
	tasks := map[key]map[string]bool{}
	for _, res := range r.Results {
		if !res.Outcome.Judged() {
			continue
		}
		for _, tag := range res.Tags {
			dim, name, ok := strings.Cut(tag, ":")
			if !ok || name == "" || !slices.Contains(groupDimensions, dim) {
				continue
			}
			k := key{dim, name}
			g := byKey[k]
			if g == nil {
				g = &Group{Dimension: dim, Name: name}
				byKey[k], tasks[k] = g, map[string]bool{}
			}
			tasks[k][res.Task] = true
			g.Total++
			if res.Outcome.Passed() {
				g.Passed++
			}
		}
	}
	if len(byKey) == 0 {
		return nil
	}
	out := make([]Group, 0, len(byKey))
	for k, g := range byKey {
		g.Tasks = len(tasks[k])
		g.Score = float64(g.Passed) / float64(g.Total)
		g.Wilson95Low, g.Wilson95High = stats.Wilson95(g.Passed, g.Total)
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b Group) int {
		return cmp.Or(cmp.Compare(slices.Index(groupDimensions, a.Dimension), slices.Index(groupDimensions, b.Dimension)), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// writeGroups writes the score of each group of tasks, when the suite's
// tags define groups.
func writeGroups(p *printer, s Summary) {
	if len(s.Groups) == 0 {
		return
	}
	p.printf("## Scores by application, kind, widget and template\n\n")
	p.printf("Each group holds the results of the tasks tagged with it (a task counts in each of its widgets). The 95%% Wilson interval takes results for independent trials.\n\n")
	p.printf("| group | tasks | passed | score | 95%% Wilson score interval |\n")
	p.printf("| --- | ---: | ---: | ---: | --- |\n")
	for _, g := range s.Groups {
		p.printf("| %s | %d | %d / %d | %s | %s–%s |\n", cell(escape(g.Dimension+": "+g.Name)), g.Tasks, g.Passed, g.Total,
			Percent(g.Score), Percent(g.Wilson95Low), Percent(g.Wilson95High))
	}
	p.printf("\n")
}
