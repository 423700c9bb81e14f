package report

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"contractbench/internal/contract"
)

// The page's template, style sheet and script, written for this report and
// inlined into every file: the report must work offline and attached to a
// CI run, so it loads nothing.
//
//go:embed html/report.tmpl html/report.css html/report.js
var htmlFiles embed.FS

var htmlTemplate = template.Must(template.New("report.tmpl").Funcs(template.FuncMap{
	"join":    strings.Join,
	"percent": Percent,
	"plural":  plural,
	// bad marks a request that failed or was answered 4xx or 5xx.
	"bad": func(e contract.NetworkEntry) bool { return e.Status == 0 || e.Status >= 400 },
}).ParseFS(htmlFiles, "html/report.tmpl"))

// The final screenshots are embedded as JPEGs of at most
// screenshotMaxWidth pixels at screenshotJPEGQuality: the PNG beside the
// report stays the exact image the judge hashed, while the page only shows
// it, and at half the size of the viewport a JPEG of a text page is a tenth
// of the PNG.
const (
	screenshotMaxWidth    = 640
	screenshotJPEGQuality = 70
)

// WriteHTML writes r as one self-contained HTML page: the run's settings
// and score with pass@k and pass^k and the smallest detectable difference
// (or a labelled run's contract held line, in a section of its own), a
// filterable list of results, the pass@k table per k and per task, and per result the contract's
// evidence as a tree, the final screenshot, the agent's answer, the
// timeline of its tool calls with the judge's thumbnail after each, and the
// judge's network log and dialogs. Screenshots and thumbnails are embedded
// from the bytes in r (Screenshot.PNG, Thumbnail.JPEG); LoadImages fills
// them for a run read back from JSON.
func WriteHTML(w io.Writer, r *Run) error {
	page, err := newHTMLPage(r)
	if err != nil {
		return fmt.Errorf("report html: %w", err)
	}
	if err := htmlTemplate.Execute(w, page); err != nil {
		return fmt.Errorf("report html: %w", err)
	}
	return nil
}

// htmlPage is what the template reads. Every number and label is computed
// here from the Run and its Summary, so the template only lays them out.
type htmlPage struct {
	Run     *Run
	Summary Summary
	Title   string
	Banner  string
	NotRun  []string
	Started string
	Took    string
	Repeat  int
	Caps    string
	// Thumbnails says which tasks kept a picture of the page after
	// each tool call (Settings.ThumbnailsNote).
	Thumbnails string
	Cost       string
	Tokens     string
	Score      string
	Interval   string
	// PassKTasks pairs each task's pass@k with its pass rate, when the
	// run has pass@k (Summary.PassK).
	PassKTasks []htmlTaskPassK
	Outcomes   []outcomeCount
	Tags       []string
	Results    []htmlResult
	Note       string
	Docs       string
	HeldNote   string
	CSS        template.CSS
	JS         template.JS
}

// htmlTaskPassK is one task's row in the pass@k table.
type htmlTaskPassK struct {
	TaskPassK
	Rate string
}

type outcomeCount struct {
	Outcome Outcome
	N       int
}

// htmlResult is one result as the page shows it.
type htmlResult struct {
	*TaskResult
	Name, Anchor   string
	TagList        string
	Duration       string
	TokenCount     int64
	Cost           string
	Screenshot     template.URL
	ScreenshotFile string
	Tree           []*evidenceNode
	Steps          []htmlStep
	// Thumbs reports whether the run traced this result; without
	// thumbnails the timeline has no picture column.
	Thumbs bool
}

// htmlStep is one tool call in a result's timeline.
type htmlStep struct {
	Call
	ArgsText  string
	Time      string
	Tokens    string
	Cost      string
	Thumb     template.URL
	ThumbNote string
	PageURL   string
}

func newHTMLPage(r *Run) (*htmlPage, error) {
	s := Summarize(r)
	rep := Repeated(r)
	css, err := htmlFiles.ReadFile("html/report.css")
	if err != nil {
		return nil, err
	}
	js, err := htmlFiles.ReadFile("html/report.js")
	if err != nil {
		return nil, err
	}
	p := &htmlPage{
		Run:     r,
		Summary: s,
		Title:   "contractbench report",
		Banner:  incompleteBanner + ".",
		Took:    Seconds(float64(r.DurationMS)),
		Repeat:  max(r.Settings.Repeat, 1),
		Caps: fmt.Sprintf("%d tokens per turn, %d tool iterations, $%.2f",
			r.Settings.Caps.MaxTokensPerTurn, r.Settings.Caps.MaxToolIterations, r.Settings.Caps.MaxUSD),
		Thumbnails: r.Settings.ThumbnailsNote(),
		Cost:       fmt.Sprintf("$%.4f", s.TotalUSD),
		Tokens: fmt.Sprintf("%d input, %d output, %d cache read, %d cache write",
			s.Tokens.Input, s.Tokens.Output, s.Tokens.CacheRead, s.Tokens.CacheWrite),
		Score:    Percent(s.Score),
		Interval: Percent(s.Wilson95Low) + "–" + Percent(s.Wilson95High),
		Note:     ComparabilityNote,
		Docs:     detectableDoc,
		HeldNote: heldNote,
		CSS:      template.CSS(css),
		JS:       template.JS(js),
	}
	if r.Settings.Suite != "" {
		p.Title += ": " + r.Settings.Suite
	}
	if !r.Started.IsZero() {
		p.Started = r.Started.UTC().Format(time.RFC3339)
	}
	for _, m := range notRun(r) {
		p.NotRun = append(p.NotRun, ResultName(&TaskResult{Task: m.Task, Attempt: m.Attempt}, rep))
	}
	for _, o := range Outcomes {
		if n := s.ByOutcome[o]; n > 0 {
			p.Outcomes = append(p.Outcomes, outcomeCount{o, n})
		}
	}
	if pk := s.PassK; pk != nil {
		for _, t := range pk.Tasks {
			p.PassKTasks = append(p.PassKTasks, htmlTaskPassK{t, Percent(float64(t.Passed) / float64(t.Attempts))})
		}
	}
	shots := screenshotURLs(r.Results)
	for i := range r.Results {
		res := &r.Results[i]
		p.Tags = append(p.Tags, res.Tags...)
		p.Results = append(p.Results, newHTMLResult(res, i, rep, shots[i]))
	}
	slices.Sort(p.Tags)
	p.Tags = slices.Compact(p.Tags)
	return p, nil
}

func newHTMLResult(res *TaskResult, i int, rep bool, shot template.URL) htmlResult {
	h := htmlResult{
		TaskResult: res,
		Name:       ResultName(res, rep),
		Anchor:     ResultAnchor(i),
		TagList:    strings.Join(res.Tags, " "),
		Duration:   Seconds(float64(res.DurationMS)),
		TokenCount: res.Tokens.Input + res.Tokens.Output + res.Tokens.CacheRead + res.Tokens.CacheWrite,
		Cost:       fmt.Sprintf("$%.4f", res.USD),
		Tree:       evidenceTree(res),
	}
	if obs := res.Observation; obs != nil {
		h.ScreenshotFile = obs.Screenshot.File
		h.Screenshot = shot
	}
	// A picture equal to the one before is not repeated: the page did not
	// change, which the note says, and the file stays small.
	var prev []byte
	prevSeq := 0
	for _, c := range res.Calls {
		st := htmlStep{
			Call: c,
			Time: strconv.FormatInt(c.DurationMS, 10) + " ms",
		}
		st.ArgsText = argsText(c.Args)
		if c.Tokens != nil {
			st.Tokens = fmt.Sprintf("turn %d: %d in, %d out, %d cache read", c.Turn, c.Tokens.Input, c.Tokens.Output, c.Tokens.CacheRead)
		}
		if c.USD > 0 {
			st.Cost = fmt.Sprintf("$%.4f", c.USD)
		}
		if t := c.Thumbnail; t != nil {
			st.PageURL = t.URL
			switch {
			case len(t.JPEG) > 0 && bytes.Equal(t.JPEG, prev):
				st.ThumbNote = fmt.Sprintf("page unchanged since step %d", prevSeq)
			case len(t.JPEG) > 0:
				st.Thumb = dataURL("image/jpeg", t.JPEG)
				prev, prevSeq = t.JPEG, c.Seq
			case t.Error != "":
				st.ThumbNote = "no thumbnail: " + t.Error
			case t.File != "":
				st.ThumbNote = "thumbnail file " + t.File + " was not found beside the report"
			}
		}
		h.Thumbs = h.Thumbs || c.Thumbnail != nil
		h.Steps = append(h.Steps, st)
	}
	return h
}

// argsText shows a call's arguments on one line when they are short, and
// indented otherwise.
func argsText(args json.RawMessage) string {
	if len(args) == 0 {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, args) != nil {
		return string(args)
	}
	if b.Len() <= 100 {
		return b.String()
	}
	b.Reset()
	if json.Indent(&b, args, "", "  ") != nil {
		return string(args)
	}
	return b.String()
}

// ResultAnchor is the id of the i-th result's section in a run's HTML page.
func ResultAnchor(i int) string { return "result-" + strconv.Itoa(i+1) }

// screenshotURLs returns screenshotURL of each result's final screenshot
// (empty for a result without one), made on every processor at once: at
// the end of a run, decoding and scaling them is what writing the page
// waits for.
func screenshotURLs(results []TaskResult) []template.URL {
	urls := make([]template.URL, len(results))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(results)) {
		wg.Go(func() {
			for i := range next {
				if obs := results[i].Observation; obs != nil && len(obs.Screenshot.PNG) > 0 {
					urls[i] = screenshotURL(obs.Screenshot.PNG)
				}
			}
		})
	}
	for i := range results {
		next <- i
	}
	close(next)
	wg.Wait()
	return urls
}

// screenshotURL embeds a final screenshot as a JPEG when it decodes, and
// as the PNG it is otherwise.
func screenshotURL(pngData []byte) template.URL {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return dataURL("image/png", pngData)
	}
	for img.Bounds().Dx() > screenshotMaxWidth {
		img = halve(img)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: screenshotJPEGQuality}); err != nil || b.Len() >= len(pngData) {
		return dataURL("image/png", pngData)
	}
	return dataURL("image/jpeg", b.Bytes())
}

// halve scales img down to half its width and height, each pixel the mean
// of the two by two it replaces.
func halve(img image.Image) image.Image {
	r := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, r.Dx()/2, r.Dy()/2))
	if src, ok := img.(*image.RGBA); ok {
		// What a screenshot decodes to: the same sums as below, on the
		// pixels' bytes instead of a color value per pixel read.
		for y := range out.Rect.Dy() {
			top := src.PixOffset(r.Min.X, r.Min.Y+2*y)
			rows := [2]int{top, top + src.Stride}
			o := out.PixOffset(0, y)
			for x := range out.Rect.Dx() {
				for c := range 4 {
					var sum uint32
					for _, row := range rows {
						i := row + 8*x + c
						sum += uint32(src.Pix[i])*0x101 + uint32(src.Pix[i+4])*0x101
					}
					out.Pix[o+4*x+c] = uint8(sum >> 10)
				}
			}
		}
		return out
	}
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			var sr, sg, sb, sa uint32
			for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				cr, cg, cb, ca := img.At(r.Min.X+2*x+d[0], r.Min.Y+2*y+d[1]).RGBA()
				sr, sg, sb, sa = sr+cr, sg+cg, sb+cb, sa+ca
			}
			out.SetRGBA(x, y, color.RGBA{uint8(sr >> 10), uint8(sg >> 10), uint8(sb >> 10), uint8(sa >> 10)})
		}
	}
	return out
}

// dataURL embeds data in the page. The template package would refuse a data
// URL from a string; the bytes here are images the judge took, so the URL is
// marked safe.
func dataURL(mime string, data []byte) template.URL {
	return template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data))
}

// evidenceNode is one clause in the tree of a result's evidence.
type evidenceNode struct {
	Path, Label string
	Kind        contract.Kind
	// State is passed or failed for a leaf and for the clause the verdict
	// named; mixed for a combinator some of whose leaves failed although
	// it was not named (an or that held, a not, or a clause after the
	// first that failed: the verdict names only the first).
	State, Mark, Note string
	Leaf              bool
	Expected, Seen    string
	Children          []*evidenceNode
	leaves, failed    int
}

// evidenceTree arranges a result's evidence, one entry per leaf with its
// path, as the clauses it sits in: postconditions[1] holds
// postconditions[1].children[0] and so on. Only the evidence and the
// failed clause the verdict named are used; nothing is evaluated again.
func evidenceTree(res *TaskResult) []*evidenceNode {
	var roots []*evidenceNode
	index := map[string]*evidenceNode{}
	var node func(path string) *evidenceNode
	node = func(path string) *evidenceNode {
		if n := index[path]; n != nil {
			return n
		}
		n := &evidenceNode{Path: path, Label: path}
		index[path] = n
		parent := parentPath(path)
		if parent == "" {
			roots = append(roots, n)
		} else {
			pn := node(parent)
			n.Label = strings.TrimPrefix(path, parent+".")
			pn.Children = append(pn.Children, n)
		}
		return n
	}
	for _, ev := range res.Evidence {
		n := node(ev.Path)
		n.Leaf, n.Kind, n.Expected, n.Seen = true, ev.Kind, ev.Expected, ev.Seen
		n.State = "passed"
		if !ev.Passed {
			n.State = "failed"
		}
		for p := ev.Path; p != ""; p = parentPath(p) {
			index[p].leaves++
			if !ev.Passed {
				index[p].failed++
			}
		}
	}
	failed := res.Failed
	for _, n := range index {
		if n.Leaf {
			continue
		}
		switch {
		case failed != nil && n.Path == failed.Path:
			n.State, n.Kind = "failed", failed.Kind
		case failed != nil && under(failed.Path, n.Path):
			n.State = "failed"
		case n.failed == 0:
			n.State = "passed"
		default:
			n.State = "mixed"
			n.Note = fmt.Sprintf("%d of %d leaves failed", n.failed, n.leaves)
		}
	}
	for _, n := range index {
		n.Mark = map[string]string{"passed": "✓", "failed": "✗", "mixed": "~"}[n.State]
	}
	return roots
}

// parentPath returns the clause that contains path ("postconditions[1]"
// for "postconditions[1].children[0]", "postconditions[2].child" for
// "postconditions[2].child.children[1]"), or "" for a top-level clause.
func parentPath(path string) string {
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return ""
	}
	return path[:i]
}
