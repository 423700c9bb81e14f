package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"contractbench/internal/report"
	"contractbench/internal/stats"
)

// Diff compares each of runs[1:] with runs[0] over the tasks they share:
// the JSON form and the table (WriteText) are views of what it returns.
// A difference is significant at 5% divided by the number of comparisons
// (Bonferroni). Two reports whose shared tasks changed are refused with a
// *ChangedError, unless o.AllowChanged leaves those tasks out.
func Diff(runs []*Run, o Options) (*Doc, error) {
	if len(runs) < 2 {
		return nil, fmt.Errorf("diff: want at least two reports, got %d", len(runs))
	}
	if o.Resamples == 0 {
		o.Resamples = stats.DefaultResamples
	}
	alpha := 0.05 / float64(len(runs)-1)
	doc := &Doc{SchemaVersion: SchemaVersion, Level: 0.95, Alpha: alpha, Seed: o.Seed, Resamples: o.Resamples}
	for _, r := range runs {
		doc.Reports = append(doc.Reports, r.info())
	}
	var refused []string
	for _, r := range runs[1:] {
		c := match(runs[0], r)
		if len(c.Changed) > 0 && !o.AllowChanged {
			refused = append(refused, changedLines(c, runs[0], r)...)
		}
		doc.Comparisons = append(doc.Comparisons, c)
	}
	if len(refused) > 0 {
		return nil, &ChangedError{Tasks: refused}
	}
	for _, c := range doc.Comparisons {
		if err := c.analyze(o, alpha); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// ChangedError refuses a comparison in which a shared task's task file or
// contract differs between two reports: its outcomes answer different
// questions there. Tasks names each one and how it changed.
type ChangedError struct{ Tasks []string }

func (e *ChangedError) Error() string {
	return "diff: the task or contract of a shared task differs between the reports, so its outcomes answer different questions:\n" +
		strings.Join(e.Tasks, "\n")
}

// WriteJSON writes doc as indented JSON.
func WriteJSON(w io.Writer, doc *Doc) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("diff: json: %w", err)
	}
	return nil
}

// SchemaVersion is the version of diff's JSON form. It changes when a
// field is removed or changes meaning; adding a field does not change it.
const SchemaVersion = 1

type (
	Doc struct {
		SchemaVersion int `json:"schema_version"`
		// Level is the confidence level of every interval; Alpha the
		// significance level of each comparison.
		Level       float64       `json:"level"`
		Alpha       float64       `json:"alpha"`
		Seed        uint64        `json:"seed"`
		Resamples   int           `json:"resamples"`
		Reports     []ReportInfo  `json:"reports"`
		Comparisons []*Comparison `json:"comparisons"`
	}
	ReportInfo struct {
		Label      string `json:"label"`
		File       string `json:"file"`
		GitSHA     string `json:"git_sha"`
		Agent      string `json:"agent"`
		Model      string `json:"model"`
		Server     string `json:"server"`
		Web        string `json:"web"`
		Repeat     int    `json:"repeat"`
		Trust      string `json:"trust,omitempty"`
		Incomplete bool   `json:"incomplete"`
		Regraded   bool   `json:"regraded"`
		// Denominator is every attempt the run was asked for, by what
		// became of it; diff compares only the passed and failed ones.
		Denominator report.Denominator `json:"denominator"`
	}
	Comparison struct {
		A string `json:"a"`
		B string `json:"b"`
		// Repeats says some task has more than one attempt that counts;
		// the difference is then the bootstrap's.
		Repeats bool `json:"repeats"`
		// InBoth counts the tasks both reports hold; Tasks are those
		// compared, the rest are Changed or LeftOut.
		InBoth     int        `json:"in_both"`
		OnlyA      []string   `json:"only_a"`
		OnlyB      []string   `json:"only_b"`
		Changed    []Changed  `json:"changed"`
		Unverified []string   `json:"unverified"`
		LeftOut    []LeftOut  `json:"left_out"`
		Attempts   LeftCounts `json:"attempts_left_out"`
		Tasks      []Task     `json:"tasks"`
		Overall    Group      `json:"overall"`
		ByTag      []Group    `json:"by_tag"`
		ByTemplate []Group    `json:"by_template"`
	}
	Changed struct {
		Task string `json:"task"`
		// What differs: "contract", "task" (the spec, contract equal) or
		// "attempts" (a report's attempts disagree among themselves).
		What string `json:"what"`
	}
	LeftOut struct {
		Task string         `json:"task"`
		A    map[string]int `json:"a"` // outcomes of the run's attempts
		B    map[string]int `json:"b"`
	}
	LeftCounts struct {
		A map[string]int `json:"a"`
		B map[string]int `json:"b"`
	}
	Task struct {
		Task     string   `json:"task"`
		Template string   `json:"template,omitempty"`
		Tags     []string `json:"tags,omitempty"`
		A        Tally    `json:"a"`
		B        Tally    `json:"b"`
		Pair     string   `json:"pair"`
	}
	Tally struct {
		Passed   int `json:"passed"`
		Attempts int `json:"attempts"`
		// first is the number of the first finished attempt, and
		// firstPassed whether it passed: the one outcome per task and run
		// that the board's test takes (FirstPairs).
		first       int
		firstPassed bool
	}
	Group struct {
		Name  string `json:"name,omitempty"`
		Tasks int    `json:"tasks"`
		Pairs Pairs  `json:"pairs"`
		A     Score  `json:"a"`
		B     Score  `json:"b"`
		// Diff is B − A: with one attempt per task the difference of the
		// scores, with repeats the mean over tasks of the difference of
		// pass rates.
		Diff        float64    `json:"diff"`
		McNemarP    float64    `json:"mcnemar_exact_p"`
		Newcombe    *Interval  `json:"newcombe95,omitempty"`
		Bootstrap   *Bootstrap `json:"bootstrap,omitempty"`
		Clustered   *Clustered `json:"clustered,omitempty"`
		Test        string     `json:"test"`
		P           float64    `json:"p"`
		Low         float64    `json:"low"`
		High        float64    `json:"high"`
		Significant bool       `json:"significant"`
	}
	Pairs struct {
		Both    int `json:"both"`
		OnlyA   int `json:"only_a"`
		OnlyB   int `json:"only_b"`
		Neither int `json:"neither"`
		Tied    int `json:"tied"`
	}
	Score struct {
		Tally
		Score      float64 `json:"score"`
		WilsonLow  float64 `json:"wilson95_low"`
		WilsonHigh float64 `json:"wilson95_high"`
	}
	Interval struct {
		Low  float64 `json:"low"`
		High float64 `json:"high"`
	}
	Bootstrap struct {
		Low       float64 `json:"low"`
		High      float64 `json:"high"`
		P         float64 `json:"p"`
		Resamples int     `json:"resamples"`
		Seed      uint64  `json:"seed"`
	}
	Clustered struct {
		Clusters int     `json:"clusters"`
		SE       float64 `json:"se"`
		NaiveSE  float64 `json:"naive_se"`
		DF       int     `json:"df"`
		Low      float64 `json:"low"`
		High     float64 `json:"high"`
		P        float64 `json:"p"`
	}
)
