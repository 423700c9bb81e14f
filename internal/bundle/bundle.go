// Package bundle packs a run into one archive that anyone can check
// offline, and checks one.
//
// A bundle holds the run's JSON, Markdown and HTML reports, every final
// screenshot and step thumbnail they name, the spec file of every task,
// the transcripts a replay agent played, the screenshot classes the
// contracts name, and manifest.json: the versions of the program and the
// tool server, the suite digest, each task's spec and contract digest, and
// the SHA-256 and size of every other file. Verify re-checks every digest
// and re-grades every stored Observation with the judge's own evaluation
// (judge.Evaluate) against the contracts in the bundle, then says whether
// the score it recomputes is the one the report gives.
//
// A bundle proves that its parts agree with each other and with the
// report: that no byte changed after it was packed, that the contracts are
// the ones the run recorded, and that the verdicts follow from the
// observations. It cannot prove that the observations came from a browser;
// publishing the manifest's digest (ManifestDigest) beside the number pins
// the bundle itself.
package bundle

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"contractbench/internal/compare"
	"contractbench/internal/contract"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// manifestFile is the manifest's name inside a bundle.
const manifestFile = "manifest.json"

// formatVersion is the version of the bundle's layout and manifest.
const formatVersion = 1

// Folders inside a bundle.
const (
	reportDir     = "report"
	tasksDir      = "tasks"
	transcriptDir = "transcripts"
	classesDir    = "screenshot-classes"
)

// Manifest is what a bundle says about itself.
type Manifest struct {
	Format int `json:"format"`
	// Report is the JSON report's path inside the bundle.
	Report string `json:"report"`
	// Bundler is the version of the program that packed the bundle;
	// Contractbench the one that ran (the report's provenance).
	Bundler       string `json:"bundler"`
	Contractbench string `json:"contractbench"`
	// ToolServer names the MCP tool server and its version: the peer's
	// npm package, or the built-in server with the program's version.
	ToolServer string `json:"tool_server"`
	// Suite and SuiteDigest are the suite's name and digest as the board
	// groups runs (compare.SuiteDigest).
	Suite       string `json:"suite"`
	SuiteDigest string `json:"suite_digest"`
	Tasks       []Task `json:"tasks"`
	// Files lists every file of the bundle but the manifest, sorted by
	// path.
	Files []File `json:"files"`
}

// Task is one task of the run as the bundle holds it.
type Task struct {
	ID string `json:"id"`
	// File is the task's spec file inside the bundle; Spec and Contract
	// are its digests, as the run's results recorded them.
	File     string `json:"file"`
	Spec     string `json:"spec"`
	Contract string `json:"contract"`
	// Transcript is the transcript the replay agent played, inside the
	// bundle, and TranscriptDigest its digest; empty for other agents.
	Transcript       string `json:"transcript,omitempty"`
	TranscriptDigest string `json:"transcript_digest,omitempty"`
}

// File is one file of the bundle.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
}

// Inputs are what Write packs.
type Inputs struct {
	// Report is the run's JSON report; its Markdown and HTML views and
	// its images are read beside it.
	Report string
	// Suite is the suite folder the run read its tasks from.
	Suite string
	// Transcripts is the folder of the transcripts a replay agent played
	// (default <Suite>/transcripts/<server>).
	Transcripts string
	// Bundler is the version of this program.
	Bundler string
}

// Write packs the run of in.Report into w as format f. Every file must be
// what the run used: a task file or transcript whose digest is not the one
// the run recorded is an error naming it, so a bundle never pairs a run
// with inputs edited after it.
func Write(w io.Writer, f Format, in Inputs) (*Manifest, error) {
	data, err := os.ReadFile(in.Report)
	if err != nil {
		return nil, err
	}
	run, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Report, err)
	}
	dir := filepath.Dir(in.Report)
	base := strings.TrimSuffix(filepath.Base(in.Report), filepath.Ext(in.Report))
	files := []entry{{path.Join(reportDir, base+".json"), data}}
	for _, ext := range []string{".md", ".html"} {
		b, err := os.ReadFile(filepath.Join(dir, base+ext))
		if err != nil {
			return nil, fmt.Errorf("the report's %s view: %w", ext, err)
		}
		files = append(files, entry{path.Join(reportDir, base+ext), b})
	}
	for _, name := range imageFiles(run) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("image the report names: %w", err)
		}
		files = append(files, entry{path.Join(reportDir, name), b})
	}

	m := &Manifest{
		Format: formatVersion, Report: files[0].name, Bundler: in.Bundler,
		Contractbench: run.Provenance.Contractbench, ToolServer: toolServer(run),
		Suite: run.Settings.Suite,
	}
	m.SuiteDigest, _ = compare.SuiteDigest(run)
	inputs, err := taskFiles(m, run, in)
	if err != nil {
		return nil, err
	}
	files = append(files, inputs...)
	slices.SortFunc(files, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for i, e := range files {
		if i > 0 && files[i-1].name == e.name {
			return nil, fmt.Errorf("%s: two files would share this name in the bundle", e.name)
		}
		m.Files = append(m.Files, File{Path: e.name, SHA256: suite.SHA256(e.data), Bytes: len(e.data)})
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	all := append([]entry{{manifestFile, append(mb, '\n')}}, files...)
	if err := pack(w, f, all, run.Started.UTC()); err != nil {
		return nil, fmt.Errorf("pack: %w", err)
	}
	return m, nil
}

// taskFiles adds the run's tasks to m and returns their files: each spec
// file, the transcript a replay agent played, and the examples of every
// screenshot class a contract names. A spec or transcript whose digest is
// not the one the run recorded is an error naming it.
func taskFiles(m *Manifest, run *report.Run, in Inputs) ([]entry, error) {
	var files []entry
	recorded, err := recordedInputs(run)
	if err != nil {
		return nil, err
	}
	transcripts := cmp.Or(in.Transcripts, filepath.Join(in.Suite, "transcripts", run.Settings.Server))
	classes := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(recorded)) {
		want := recorded[id]
		file := filepath.Join(in.Suite, "tasks", id+".yaml")
		spec, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", id, err)
		}
		t, err := suite.ParseTask(file, spec)
		if err != nil {
			return nil, err
		}
		specDigest, contractDigest, err := t.Digests()
		if err != nil {
			return nil, err
		}
		if specDigest != want.Spec || contractDigest != want.Contract {
			return nil, fmt.Errorf("%s: not the task the run read (spec %s, contract %s; the run recorded %s, %s): it was edited after the run",
				file, report.ShortDigest(specDigest), report.ShortDigest(contractDigest), report.ShortDigest(want.Spec), report.ShortDigest(want.Contract))
		}
		bt := Task{ID: id, File: path.Join(tasksDir, id+".yaml"), Spec: specDigest, Contract: contractDigest}
		files = append(files, entry{bt.File, spec})
		if want.Transcript != "" {
			tfile := filepath.Join(transcripts, id+".jsonl")
			b, err := os.ReadFile(tfile)
			if err != nil {
				return nil, fmt.Errorf("transcript of %s: %w", id, err)
			}
			if d := suite.SHA256(b); d != want.Transcript {
				return nil, fmt.Errorf("%s: not the transcript the run played (%s; the run recorded %s)", tfile, report.ShortDigest(d), report.ShortDigest(want.Transcript))
			}
			bt.Transcript, bt.TranscriptDigest = path.Join(transcriptDir, id+".jsonl"), want.Transcript
			files = append(files, entry{bt.Transcript, b})
		}
		for _, c := range contract.ClassIDs(t.Postconditions) {
			classes[c] = true
		}
		m.Tasks = append(m.Tasks, bt)
	}
	for _, c := range slices.Sorted(maps.Keys(classes)) {
		pngs, err := filepath.Glob(filepath.Join(in.Suite, "screenshot-classes", c, "*.png"))
		if err != nil || len(pngs) == 0 {
			return nil, fmt.Errorf("screenshot class %s: no example in %s", c, filepath.Join(in.Suite, "screenshot-classes", c))
		}
		for _, p := range pngs {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			files = append(files, entry{path.Join(classesDir, c, filepath.Base(p)), b})
		}
	}

	return files, nil
}

// imageFiles lists the image files the report names, in result order:
// final screenshots and step thumbnails.
func imageFiles(r *report.Run) []string {
	var out []string
	for _, res := range r.Results {
		if o := res.Observation; o != nil && o.Screenshot.File != "" {
			out = append(out, o.Screenshot.File)
		}
		for _, c := range res.Calls {
			if c.Thumbnail != nil && c.Thumbnail.File != "" {
				out = append(out, c.Thumbnail.File)
			}
		}
	}
	return out
}

// recordedInputs is, per task, the inputs its results recorded; tasks
// none of whose results recorded them are left out (they have no verdict
// to re-grade). Attempts of one task that recorded different inputs are
// an error: no one task file grades them all.
func recordedInputs(r *report.Run) (map[string]report.TaskProvenance, error) {
	out := map[string]report.TaskProvenance{}
	for _, res := range r.Results {
		p := res.Provenance
		if p == nil || p.Spec == "" {
			continue
		}
		first, ok := out[res.Task]
		switch {
		case !ok:
			out[res.Task] = *p
		case first.Spec != p.Spec || first.Contract != p.Contract || first.Transcript != p.Transcript:
			return nil, fmt.Errorf("task %s: attempt %d recorded other inputs than an earlier attempt (the task changed during the run)", res.Task, res.Attempt)
		}
	}
	return out, nil
}

// toolServer names the run's tool server and its version.
func toolServer(r *report.Run) string {
	if pkg := r.Provenance.ServerPackage; pkg != "" {
		return pkg
	}
	return cmp.Or(r.Settings.Server, "builtin") + " (contractbench " + cmp.Or(r.Provenance.Contractbench, "unknown") + ")"
}
