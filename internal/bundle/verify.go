package bundle

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"contractbench/internal/compare"
	"contractbench/internal/judge"
	"contractbench/internal/phash"
	"contractbench/internal/report"
	"contractbench/internal/suite"
)

// refusal is a bundle refused: File is the file inside the bundle that is
// wrong (empty for the archive as a whole), Msg what is wrong with it.
type refusal struct {
	File string
	Msg  string
}

func (e *refusal) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return e.File + ": " + e.Msg
}

func refuse(file, format string, args ...any) error {
	return &refusal{File: file, Msg: fmt.Sprintf(format, args...)}
}

// Verified is what Verify found in a bundle whose every digest holds.
type Verified struct {
	Manifest *Manifest
	// ManifestDigest is the SHA-256 of manifest.json: the one digest that
	// pins the whole bundle.
	ManifestDigest string
	// Report is the run as the bundle's report records it; Run the run
	// re-graded, every result with an Observation carrying the verdict
	// the judge gives now.
	Report, Run *report.Run
	// Regraded counts the results re-graded, and Changed names those
	// whose outcome differs from the one the report records.
	Regraded int
	Changed  []string
	// Reported is the summary the report gives; Recomputed the one of Run.
	Reported, Recomputed report.Summary
}

// Agrees reports whether re-grading changed no outcome and the score the
// report gives is the one recomputed.
func (v *Verified) Agrees() bool {
	r, c := v.Reported, v.Recomputed
	return len(v.Changed) == 0 && r.Passed == c.Passed && r.Total == c.Total && r.Score == c.Score
}

// WriteSummary writes what Verify found in the bundle named name: its
// files and tasks, the manifest's digest (the one to publish beside the
// number), what the run was, each outcome re-grading changed, and the
// score re-graded beside the one the report gives.
func (v *Verified) WriteSummary(w io.Writer, name string) error {
	m, rep, re := v.Manifest, v.Reported, v.Recomputed
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d files, %d tasks, every digest holds\nmanifest %s\nsuite %s, digest %s; contractbench %s; tool server %s\n",
		name, len(m.Files)+1, len(m.Tasks), v.ManifestDigest, report.OrNone(m.Suite), m.SuiteDigest[:12], m.Contractbench, m.ToolServer)
	for _, c := range v.Changed {
		fmt.Fprintf(&b, "changed: %s\n", c)
	}
	fmt.Fprintf(&b, "re-graded %d results: score %d / %d (%s); the report gives %d / %d (%s)\n",
		v.Regraded, re.Passed, re.Total, report.Percent(re.Score), rep.Passed, rep.Total, report.Percent(rep.Score))
	_, err := io.WriteString(w, b.String())
	return err
}

// Verify checks the bundle held in data: every file is listed in the
// manifest with its SHA-256 and size, and nothing else is in the archive;
// every task file's spec and contract digests are the ones the run's
// results recorded; every transcript's digest is the one the run played;
// the suite digest is the report's. It then re-grades each stored
// Observation with judge.Evaluate against the bundle's contracts. Any
// failed check is an *refusal naming the file inside the bundle; a verdict
// that differs is not an error but is in Verified.Changed.
func Verify(data []byte) (*Verified, error) {
	entries, err := unpack(data)
	if err != nil {
		return nil, &refusal{Msg: err.Error()}
	}
	files, m, mb, err := checkFiles(entries)
	if err != nil {
		return nil, err
	}
	rb, ok := files[m.Report]
	if !ok || path.Dir(m.Report) != reportDir {
		return nil, refuse(manifestFile, "report %q is not a file of the bundle's report folder", m.Report)
	}
	run, err := report.ReadJSON(bytes.NewReader(rb))
	if err != nil {
		return nil, refuse(m.Report, "%v", err)
	}
	var doc struct {
		Summary report.Summary `json:"summary"`
	}
	if err := json.Unmarshal(rb, &doc); err != nil {
		return nil, refuse(m.Report, "summary: %v", err)
	}
	if d, _ := compare.SuiteDigest(run); d != m.SuiteDigest {
		return nil, refuse(manifestFile, "suite digest %s is not the report's %s", report.ShortDigest(m.SuiteDigest), report.ShortDigest(d))
	}
	if m.Contractbench != run.Provenance.Contractbench {
		return nil, refuse(manifestFile, "contractbench %q is not the version the report names (%q)", m.Contractbench, run.Provenance.Contractbench)
	}

	tasks, err := checkTasks(m, files, run)
	if err != nil {
		return nil, err
	}
	classes, err := bundledClasses(files)
	if err != nil {
		return nil, err
	}
	v := &Verified{Manifest: m, ManifestDigest: suite.SHA256(mb), Report: run, Reported: doc.Summary}
	v.Run, v.Regraded, v.Changed, err = regrade(run, tasks, classes, files)
	if err != nil {
		return nil, err
	}
	v.Recomputed = report.Summarize(v.Run)
	return v, nil
}

// checkFiles reads the manifest of a bundle's entries and checks that
// every file it lists is there with its size and SHA-256, and that the
// archive holds nothing else. It returns the files by name, the manifest
// and its bytes.
func checkFiles(entries []entry) (map[string][]byte, *Manifest, []byte, error) {
	files := map[string][]byte{}
	for _, e := range entries {
		if _, dup := files[e.name]; dup {
			return nil, nil, nil, refuse(e.name, "is in the archive twice")
		}
		files[e.name] = e.data
	}
	mb, ok := files[manifestFile]
	if !ok {
		return nil, nil, nil, refuse(manifestFile, "missing: not a contractbench bundle")
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(mb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, nil, nil, refuse(manifestFile, "%v", err)
	}
	if m.Format != formatVersion {
		return nil, nil, nil, refuse(manifestFile, "format %d is not the supported %d", m.Format, formatVersion)
	}
	listed := map[string]bool{manifestFile: true}
	for _, f := range m.Files {
		b, ok := files[f.Path]
		switch {
		case !ok:
			return nil, nil, nil, refuse(f.Path, "listed in the manifest but not in the archive")
		case len(b) != f.Bytes:
			return nil, nil, nil, refuse(f.Path, "%d bytes, but the manifest says %d: the file changed after it was bundled", len(b), f.Bytes)
		case suite.SHA256(b) != f.SHA256:
			return nil, nil, nil, refuse(f.Path, "SHA-256 %s, but the manifest says %s: the file changed after it was bundled", report.ShortDigest(suite.SHA256(b)), report.ShortDigest(f.SHA256))
		}
		listed[f.Path] = true
	}
	for _, e := range entries {
		if !listed[e.name] {
			return nil, nil, nil, refuse(e.name, "in the archive but not in the manifest")
		}
	}

	return files, &m, mb, nil
}

// checkTasks parses every task file of the bundle and checks its digests
// against the manifest and every result of the task, and each transcript's
// against the results; it returns the tasks by id.
func checkTasks(m *Manifest, files map[string][]byte, run *report.Run) (map[string]*suite.Task, error) {
	tasks := map[string]*suite.Task{}
	byID := map[string]Task{}
	for _, bt := range m.Tasks {
		data, ok := files[bt.File]
		if !ok || bt.File != path.Join(tasksDir, bt.ID+".yaml") {
			return nil, refuse(manifestFile, "task %s: spec file %q is not in the bundle", bt.ID, bt.File)
		}
		t, err := suite.ParseTask(bt.File, data)
		if err != nil {
			return nil, refuse(bt.File, "%v", err)
		}
		spec, contract, err := t.Digests()
		if err != nil {
			return nil, refuse(bt.File, "%v", err)
		}
		if contract != bt.Contract {
			return nil, refuse(bt.File, "contract digest %s is not the one the run recorded (%s): the contract was edited after the run", report.ShortDigest(contract), report.ShortDigest(bt.Contract))
		}
		if spec != bt.Spec {
			return nil, refuse(bt.File, "spec digest %s is not the one the run recorded (%s): the task was edited after the run", report.ShortDigest(spec), report.ShortDigest(bt.Spec))
		}
		if bt.Transcript != "" {
			tb, ok := files[bt.Transcript]
			if !ok {
				return nil, refuse(manifestFile, "task %s: transcript %q is not in the bundle", bt.ID, bt.Transcript)
			}
			if d := suite.SHA256(tb); d != bt.TranscriptDigest {
				return nil, refuse(bt.Transcript, "digest %s is not the one the run played (%s)", report.ShortDigest(d), report.ShortDigest(bt.TranscriptDigest))
			}
		}
		tasks[bt.ID], byID[bt.ID] = t, bt
	}
	for _, res := range run.Results {
		p := res.Provenance
		if p == nil || p.Spec == "" {
			continue
		}
		bt, ok := byID[res.Task]
		switch {
		case !ok:
			return nil, refuse(manifestFile, "task %s has results in the report but no spec file in the bundle", res.Task)
		case p.Contract != bt.Contract:
			return nil, refuse(bt.File, "contract digest %s is not the one the report's result (attempt %d) recorded (%s)", report.ShortDigest(bt.Contract), res.Attempt, report.ShortDigest(p.Contract))
		case p.Spec != bt.Spec:
			return nil, refuse(bt.File, "spec digest %s is not the one the report's result (attempt %d) recorded (%s)", report.ShortDigest(bt.Spec), res.Attempt, report.ShortDigest(p.Spec))
		case p.Transcript != bt.TranscriptDigest:
			return nil, refuse(cmp.Or(bt.Transcript, manifestFile), "transcript digest %s is not the one the report's result (attempt %d) recorded (%s)",
				report.ShortDigest(bt.TranscriptDigest), res.Attempt, report.ShortDigest(p.Transcript))
		}
	}
	return tasks, nil
}

// bundledClasses hashes the screenshot classes in the bundle, by the rule
// of phash.LoadClasses: every PNG directly inside a class's folder is an
// example.
func bundledClasses(files map[string][]byte) (phash.Classes, error) {
	classes := phash.Classes{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		rest, ok := strings.CutPrefix(name, classesDir+"/")
		if !ok {
			continue
		}
		class, file, ok := strings.Cut(rest, "/")
		if !ok || strings.Contains(file, "/") || !strings.HasSuffix(file, ".png") {
			return nil, refuse(name, "not an example of a screenshot class (%s/CLASS/NAME.png)", classesDir)
		}
		h, err := phash.FromPNG(files[name])
		if err != nil {
			return nil, refuse(name, "%v", err)
		}
		classes[class] = append(classes[class], h)
	}
	return classes, nil
}

// regrade gives every result of run that has an Observation the verdict
// the judge gives it now against its task's contract in the bundle, with
// its screenshot read from the bundle, and decides its outcome again from
// the stored stop, taint and trust, as a run decides it. It returns the
// re-graded copy, how many results it re-graded and which changed.
func regrade(run *report.Run, tasks map[string]*suite.Task, classes phash.Classes, files map[string][]byte) (*report.Run, int, []string, error) {
	out := *run
	out.Results = slices.Clone(run.Results)
	n := 0
	var changed []string
	for i := range out.Results {
		res := &out.Results[i]
		t, ok := tasks[res.Task]
		if !ok || res.Observation == nil {
			continue
		}
		obs := *res.Observation
		res.Observation = &obs
		if f := obs.Screenshot.File; f != "" {
			png, ok := files[path.Join(reportDir, f)]
			if !ok {
				return nil, 0, nil, refuse(path.Join(reportDir, f), "the report names this screenshot, but it is not in the bundle")
			}
			obs.Screenshot.PNG = png
		}
		before := res.Outcome
		res.SetVerdict(judge.Evaluate(t.Postconditions, &obs, classes))
		res.Decide()
		n++
		if res.Outcome != before {
			changed = append(changed, fmt.Sprintf("%s attempt %d: %s in the report, %s re-graded", res.Task, res.Attempt, before, res.Outcome))
		}
	}
	for _, name := range imageFiles(run) {
		if _, ok := files[path.Join(reportDir, name)]; !ok {
			return nil, 0, nil, refuse(path.Join(reportDir, name), "the report names this image, but it is not in the bundle")
		}
	}
	return &out, n, changed, nil
}
