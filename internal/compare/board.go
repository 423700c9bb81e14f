package compare

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"contractbench/internal/report"
	"contractbench/internal/stats"
)

// The board's template. Its style is the HTML report's style sheet
// (html/report.css), inlined the same way, so the two pages look alike and
// neither loads anything.
var boardTemplate = template.Must(template.New("board.tmpl").Funcs(template.FuncMap{
	"join": strings.Join,
}).ParseFS(htmlFiles, "html/board.tmpl"))

// BoardRun is one run on the board.
type BoardRun struct {
	Run *report.Run
	// Link is the run's report relative to the board page, with '/'
	// separators: its HTML page when there is one, else its JSON, or the
	// bundle it came in.
	Link string
	// Bundle is the manifest digest of the verified bundle the run came
	// in (bundle.Verify); empty for a run read from its report alone,
	// which the board marks.
	Bundle string
}

// significanceLevel is the p-value below which the board marks two
// neighbouring runs as differing.
const significanceLevel = 0.05

// boardTrusted is the trust column of a run without a trust label: its
// agent reached the browser only through the harness's tool server.
const boardTrusted = "tool server only"

// WriteBoard writes the leaderboard of runs as one self-contained page. The
// runs are grouped by suite name and suite digest (SuiteDigest); each group
// is ranked on its own, so runs that answered different questions never
// share a ranking. Within a group the trusted runs are ranked by score,
// ties broken by the lower bound of the score's Wilson interval and then
// by name, and each is tested against the run ranked below it with the
// exact McNemar test on the tasks both judged (stats.McNemarExact). A run
// with a trust label (TrustLabel; an unrestricted agent) is never ranked:
// its group lists it apart, with how often the contract held (Held), the
// line its own report gives.
func WriteBoard(w io.Writer, runs []BoardRun) error {
	page, err := newBoardPage(runs)
	if err != nil {
		return fmt.Errorf("report board: %w", err)
	}
	if err := boardTemplate.Execute(w, page); err != nil {
		return fmt.Errorf("report board: %w", err)
	}
	return nil
}

// boardPage is what the template reads; every number on it is computed
// here.
type boardPage struct {
	CSS    template.CSS
	Runs   int
	Groups []*boardGroup
	Level  string
	Note   string
}

// boardGroup is the runs of one suite at one digest.
type boardGroup struct {
	Anchor string
	Suite  string
	// Digest is the first 12 hex digits of FullDigest.
	Digest, FullDigest string
	Tasks              int
	// Unrecorded are the tasks whose inputs no result of the group's
	// runs recorded; they enter the digest as unrecorded.
	Unrecorded  []string
	Ranked      []*boardRow
	Unprotected []*boardRow
	// FewAttempts warns when a ranked run has fewer than three attempts
	// per task (report.FewAttemptsWarning).
	FewAttempts string
	// Splits is how many random halves of Half tasks the rank stability
	// was measured on; 0 when it was not (one run, or one task).
	Splits, Half int
}

// boardRow is one run as the board shows it.
type boardRow struct {
	Rank                      int
	Agent, AgentLabel, Model  string
	Server, ServerNote        string
	GitSHA                    string
	Notes                     []string
	Passed, Total             int
	Score, Interval           string
	BarLow, BarWidth, BarMark string
	PassK                     string
	CostPerSolved             string
	TokensPerTask             string
	MedianTime                string
	Trust                     string
	Held                      string
	Link                      string
	Next                      *boardPair
	// Denominator is every attempt asked for, by what became of it
	// (report.Denominator); Flip the flip rate of a repeated run;
	// CannotBeDone the run's numbers on tasks that cannot be done and on
	// doable write tasks.
	Denominator  string
	Flip         string
	CannotBeDone []string
	// Bundle is the short manifest digest of the run's verified bundle,
	// "" for a run given as a report alone.
	Bundle, BundleFull string
	// VsTop is the run tested against the top-ranked one, its p-value
	// Holm-corrected over the group; Tied says the test cannot tell the
	// two apart (the top run is tied with itself).
	VsTop *boardPair
	Tied  bool
	// Stability is the share of random half-splits of the tasks in which
	// the run keeps its rank.
	Stability string
	// attempts is the fewest judged attempts of any task.
	attempts int

	score, low float64
	name       string
	// tasks is the run as match pairs it with another.
	tasks *Run
}

// boardPair is a run tested against the run ranked below it.
type boardPair struct {
	P           string
	Significant bool
	raw         float64
	// OnlyThis and OnlyNext count the tasks only one of the two passed;
	// Shared the tasks both judged.
	OnlyThis, OnlyNext, Shared int
}

func newBoardPage(runs []BoardRun) (*boardPage, error) {
	css, err := report.StyleSheet()
	if err != nil {
		return nil, err
	}
	page := &boardPage{
		CSS:   template.CSS(css),
		Runs:  len(runs),
		Level: strconv.FormatFloat(significanceLevel, 'f', -1, 64),
		Note:  report.ComparabilityNote,
	}
	index := map[[2]string]*boardGroup{}
	for i, br := range runs {
		if br.Run == nil {
			return nil, fmt.Errorf("run %d: no report", i+1)
		}
		r := br.Run
		digest, unrecorded := SuiteDigest(r)
		key := [2]string{r.Settings.Suite, digest}
		g := index[key]
		if g == nil {
			g = &boardGroup{
				Suite:      report.OrNone(r.Settings.Suite),
				FullDigest: digest,
				Digest:     digest[:12],
				Tasks:      len(boardTasks(r)),
				Unrecorded: unrecorded,
			}
			index[key] = g
			page.Groups = append(page.Groups, g)
		}
		row := newBoardRow(br)
		if row.Held != "" {
			g.Unprotected = append(g.Unprotected, row)
		} else {
			g.Ranked = append(g.Ranked, row)
		}
	}
	// By suite, and within a suite the group with the most ranked runs
	// first: the page opens on the largest comparison.
	slices.SortFunc(page.Groups, func(a, b *boardGroup) int {
		return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(len(b.Ranked), len(a.Ranked)),
			cmp.Compare(len(b.Unprotected), len(a.Unprotected)), cmp.Compare(a.FullDigest, b.FullDigest))
	})
	for gi, g := range page.Groups {
		g.Anchor = "group-" + strconv.Itoa(gi+1)
		slices.SortFunc(g.Ranked, func(a, b *boardRow) int {
			return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.low, a.low), cmp.Compare(a.name, b.name))
		})
		slices.SortFunc(g.Unprotected, func(a, b *boardRow) int { return cmp.Compare(a.name, b.name) })
		for i, row := range g.Ranked {
			row.Rank = i + 1
			if i+1 < len(g.Ranked) {
				row.Next = comparePair(row, g.Ranked[i+1])
			}
			if w := report.FewAttemptsWarning(row.attempts); w != "" && len(g.Ranked) > 1 {
				g.FewAttempts = w
			}
		}
		markTies(g)
		markStability(g)
	}
	return page, nil
}

// newBoardRow computes a run's row from the run alone; its numbers are
// the run's Summary, as its own report gives them.
func newBoardRow(br BoardRun) *boardRow {
	r := br.Run
	s := report.Summarize(r)
	set := r.Settings
	row := &boardRow{
		Agent:      report.OrNone(set.Agent),
		Model:      cmp.Or(set.Model, "—"),
		Server:     report.OrNone(set.Server),
		ServerNote: report.OrNone(set.Web) + " web",
		GitSHA:     report.ShortDigest(r.GitSHA),
		Notes:      boardNotes(r),
		Passed:     s.Passed,
		Total:      s.Total,
		Score:      report.Percent(s.Score),
		Interval:   report.Percent(s.Wilson95Low) + "–" + report.Percent(s.Wilson95High),
		BarLow:     bar(s.Wilson95Low),
		BarWidth:   bar(s.Wilson95High - s.Wilson95Low),
		BarMark:    bar(s.Score),
		MedianTime: report.Seconds(s.MedianDurationMS),
		Trust:      boardTrusted,
		// The link is a path; as a URL its segments are escaped and a
		// colon in the first cannot be read as a scheme.
		Link:  (&url.URL{Path: br.Link}).String(),
		score: s.Score,
		low:   s.Wilson95Low,
		name:  strings.Join([]string{set.Agent, set.Model, set.Server, br.Link}, "\x00"),
		tasks: NewRun("", br.Link, r),

		Denominator: s.Denominator.String(),
		Bundle:      report.ShortDigest(br.Bundle),
		BundleFull:  br.Bundle,
		attempts:    1,
	}
	if c := s.CannotBeDone; c != nil {
		row.CannotBeDone = c.Lines()
	}
	// The label says what played the agent when that is not a model the
	// next column names: replayed transcripts, reference solutions.
	if label := report.AgentLabel(set); !strings.HasPrefix(label, set.Agent+" model") {
		row.AgentLabel = label
	}
	if pkg := r.Provenance.ServerPackage; pkg != "" {
		row.ServerNote = pkg + ", " + row.ServerNote
	}
	if s.Passed > 0 && s.TotalUSD > 0 {
		row.CostPerSolved = fmt.Sprintf("$%.4f", s.TotalUSD/float64(s.Passed))
	}
	if s.Total > 0 {
		t := s.Tokens
		row.TokensPerTask = strconv.FormatFloat(float64(t.Input+t.Output+t.CacheRead+t.CacheWrite)/float64(s.Total), 'f', 0, 64)
	}
	if s.Held != nil {
		row.Trust, row.Held = s.Held.Trust, s.Held.String()
		return row
	}
	if pk := s.PassK; pk != nil {
		row.PassK = fmt.Sprintf("pass^%d %s", pk.K, report.Percent(pk.At().PassHatK))
		row.Flip = fmt.Sprintf("flip rate %s (%d of %d tasks)", report.Percent(pk.FlipRate), pk.Flipped, len(pk.Tasks))
		row.attempts = pk.K
	}
	return row
}

// boardNotes are what a reader must know of a run before trusting its row.
func boardNotes(r *report.Run) []string {
	var notes []string
	if r.Incomplete {
		notes = append(notes, "incomplete")
	}
	if r.Regraded != nil {
		notes = append(notes, "regraded")
	}
	return notes
}

// comparePair tests a against b, the run ranked below it, on the first
// finished attempt of every task both finished and match compares (the
// tasks diff compares): one outcome per task and run, as the exact
// McNemar test needs. As in diff, an attempt the harness broke (error) or
// that was interrupted says nothing about the agent and is left out of
// the test, rather than counted against it.
func comparePair(a, b *boardRow) *boardPair {
	p := &boardPair{}
	p.OnlyThis, p.OnlyNext, p.Shared = match(a.tasks, b.tasks).FirstPairs()
	p.raw = stats.McNemarExact(p.OnlyThis, p.OnlyNext)
	p.Significant = p.raw < significanceLevel
	p.P = formatP(p.raw)
	return p
}

// boardTasks returns the tasks of r, sorted: its selection and any task a
// result names besides.
func boardTasks(r *report.Run) []string {
	tasks := slices.Clone(r.Settings.Tasks)
	for _, res := range r.Results {
		tasks = append(tasks, res.Task)
	}
	slices.Sort(tasks)
	return slices.Compact(tasks)
}

// SuiteDigest identifies what a run's score is a score of: the SHA-256, in
// hex, of the run's tasks in sorted order, each with the digests of its
// spec and contract as the run's results recorded them (TaskProvenance).
// It is computed from the report alone, so a changed task, contract or
// selection changes it. A task none of whose results recorded them (every
// attempt ended before the judge read the browser, the task was never
// reached, or the report predates provenance) enters the digest as
// unrecorded and is returned: such a run shares a ranking only with runs
// that lack the same records, never with runs whose version of the task
// is known.
func SuiteDigest(r *report.Run) (digest string, unrecorded []string) {
	inputs := map[string]*report.TaskProvenance{}
	for _, res := range r.Results {
		if p := res.Provenance; p != nil && p.Spec != "" && inputs[res.Task] == nil {
			inputs[res.Task] = p
		}
	}
	h := sha256.New()
	for _, task := range boardTasks(r) {
		if p := inputs[task]; p != nil {
			fmt.Fprintf(h, "%s\t%s\t%s\n", task, p.Spec, p.Contract)
		} else {
			fmt.Fprintf(h, "%s\tunrecorded\n", task)
			unrecorded = append(unrecorded, task)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), unrecorded
}

// bar is a fraction as a percentage for a style length, to one decimal.
func bar(f float64) string {
	return strconv.FormatFloat(math.Round(1000*f)/10, 'f', 1, 64)
}
