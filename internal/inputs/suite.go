package inputs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"contractbench/internal/phash"
	"contractbench/internal/problem"
	"contractbench/internal/report"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/webreplay"
)

// Suite is a suite folder as Check read it: every file of it a run may
// use, each read once.
type Suite struct {
	*suite.Suite
	// Archive is the fixture web (web/), Baseline is baseline.json, and
	// Servers is the tool servers file (ServersFile): the one beside the
	// suite, or the one Load was given. Each is nil when there is none.
	Archive     *webreplay.Archive
	Baseline    *report.Baseline
	Servers     *servers.Set
	ServersFile string
	// Transcripts holds every transcript under transcripts/<server>/, by
	// path (as suite.Suite.TranscriptFile names it).
	Transcripts map[string]*Transcript
	// Classes are the screenshot classes; Load loads them.
	Classes phash.Classes
}

// Transcript is a transcript as read, with the digest of its bytes.
type Transcript struct {
	*transcript.Transcript
	Digest string
}

// Load loads the suite in dir for a run with the tool servers of
// serversFile ("" for the suite's own): every file checkSuite checks, read
// by the same code and once (a stale transcript is no problem here: the
// replay reports it), the screenshot classes, and another servers file
// than the suite's, which is the run's alone.
func Load(dir, serversFile string) (*Suite, error) {
	s, _, err := checkSuite(dir, false)
	if err != nil {
		return nil, err
	}
	if s.Classes, err = LoadClasses(s.ClassesDir()); err != nil {
		return nil, err
	}
	if serversFile != "" && !samePath(serversFile, s.ServersFile) {
		if s.Servers, err = LoadServers(serversFile); err != nil {
			return nil, err
		}
		s.ServersFile = serversFile
	}
	return s, nil
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && a == b
}

// checkSuite checks every file of a suite folder: its tasks (with their
// contracts and selectors), its fixture archive, baseline.json, the tool
// servers file beside it, every task's reference against every server that
// file describes, and every transcript under transcripts/<server>/. With
// drift, a transcript recorded for another version of its task is a
// problem too; a run leaves that to the replay, which reports it as
// replay_drift. It returns what it read, with the number of files
// checked; the suite is not nil when the error is nil.
func checkSuite(dir string, drift bool) (*Suite, int, error) {
	var problems problem.List
	add := func(err error) {
		var ps problem.List
		switch {
		case err == nil:
		case errors.As(err, &ps):
			problems = append(problems, ps...)
		default:
			problems = append(problems, problem.Problem{File: dir, Msg: err.Error()})
		}
	}
	st, err := suite.Load(dir)
	s := &Suite{Suite: st, ServersFile: ServersFileOf(dir), Transcripts: map[string]*Transcript{}}
	n := 0
	if err != nil {
		add(err)
	} else {
		n = len(st.Tasks)
	}
	if web := filepath.Join(dir, "web"); exists(web) {
		n++
		s.Archive, err = openArchive(web)
		add(err)
	}
	if st == nil {
		return nil, n, orNil(problems)
	}
	if exists(st.BaselineFile()) {
		n++
		s.Baseline, err = readBaseline(st.BaselineFile(), st)
		add(err)
	}
	profiles := []*servers.Profile{servers.Builtin()}
	if exists(s.ServersFile) {
		n++
		s.Servers, err = LoadServers(s.ServersFile)
		add(err)
		if s.Servers != nil {
			profiles = profiles[:0]
			for _, name := range s.Servers.Names() {
				p, _ := s.Servers.Get(name)
				profiles = append(profiles, p)
			}
		}
	}
	for _, t := range st.Tasks {
		for _, p := range profiles {
			if err := p.CheckReference(t.Reference); err != nil {
				problems = append(problems, problem.Problem{File: t.File, Path: "reference", Msg: fmt.Sprintf("on server %s: %v", p.Name(), err)})
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "transcripts", "*", "*.jsonl"))
	for _, f := range files {
		n++
		add(s.addTranscript(f, drift))
	}
	return s, n, orNil(problems)
}

// addTranscript reads the suite's transcript file and checks it belongs to
// its task; with drift, also that it was neither edited after recording nor
// recorded for another version of the task.
func (s *Suite) addTranscript(file string, drift bool) error {
	tr, err := readTranscript(file)
	if err != nil {
		return err
	}
	id := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	t, ok := s.Task(id)
	switch {
	case !ok:
		return problem.List{{File: file, Msg: fmt.Sprintf("%s is not a task of the suite", id)}}
	case tr.Header.Task != id:
		return problem.List{{File: file, Line: 1, Path: "task", Msg: fmt.Sprintf("%q, but the file is named for %s", tr.Header.Task, id)}}
	}
	s.Transcripts[file] = tr
	if !drift {
		return nil
	}
	problems := edited(file, tr)
	if digest, err := TaskDigest(t); err == nil && digest != tr.Header.TaskDigest {
		server := filepath.Base(filepath.Dir(file))
		problems = append(problems, problem.Problem{File: file, Line: 1, Path: "task_digest",
			Msg: fmt.Sprintf("stale: recorded for another version of what %s asks of the agent; re-record with: %s", id,
				RecordHint(s.Dir, server, "", id))})
	}
	return orNil(problems)
}

// RecordHint is the command that records task's transcript in the suite
// at suiteDir on server, described by serversFile ("" for the default).
func RecordHint(suiteDir, server, serversFile, task string) string {
	h := "contractbench record --suite " + suiteDir + " --server " + server
	if serversFile != "" {
		h += " --servers " + serversFile
	}
	return h + " --agent reference --task " + task
}

// TaskDigest is the digest a transcript of t carries: of what the task
// asks of the agent (suite.Task.AgentTask), so that editing the contract,
// the timeout or the rationale re-grades a recording instead of making it
// stale.
func TaskDigest(t *suite.Task) (string, error) {
	canon, err := t.AgentTask()
	if err != nil {
		return "", fmt.Errorf("task %s: %w", t.ID, err)
	}
	return transcript.TaskDigest(canon)
}

// TaskInputs digests what each task is loaded from, for its results'
// provenance: the spec and the contract (a replay adds its transcript's).
func TaskInputs(tasks []*suite.Task) (map[string]report.TaskProvenance, error) {
	out := make(map[string]report.TaskProvenance, len(tasks))
	for _, t := range tasks {
		spec, pc, err := t.Digests()
		if err != nil {
			return nil, err
		}
		out[t.ID] = report.TaskProvenance{Spec: spec, Contract: pc}
	}
	return out, nil
}

// ServersFileOf is where a suite's server profiles live by default:
// beside the suite's folder (benchmarks/servers.yaml for
// benchmarks/webvoyager).
func ServersFileOf(suiteDir string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(suiteDir)), "servers.yaml")
}

// Server returns the named server's profile from set, read from file (nil
// when there is none: the built-in server alone), and checks it can
// start. root is the folder whose node_modules holds the peers: the
// nearest folder above the profiles file with a package.json.
func Server(set *servers.Set, file, name string) (p *servers.Profile, root string, err error) {
	if set == nil {
		if name == "builtin" {
			return servers.Builtin(), "", nil
		}
		return nil, "", fmt.Errorf("%s: no server %q (known: builtin; the file does not exist)", file, name)
	}
	if p, err = set.Get(name); err != nil {
		return nil, "", err
	}
	if root, err = filepath.Abs(filepath.Dir(file)); err != nil {
		return nil, "", err
	}
	for dir := root; ; dir = filepath.Dir(dir) {
		if exists(filepath.Join(dir, "package.json")) {
			root = dir
			break
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if err := p.Installed(root); err != nil {
		return nil, "", err
	}
	return p, root, nil
}

// LoadClasses loads the suite's screenshot classes; a suite without the
// folder has none.
func LoadClasses(dir string) (phash.Classes, error) {
	if !exists(dir) {
		return nil, nil
	}
	c, err := phash.LoadClasses(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return c, nil
}

// Replays returns the transcript each of tasks replays on server, by task
// ID: the suite's, read with it, or, when dir is not "", the one in dir,
// read now. Each one's digest goes into its task's provenance in prov. A
// task without one is an error naming the file and the command that
// records it, as hint writes it.
func (s *Suite) Replays(tasks []*suite.Task, server, dir string, hint func(task string) string, prov map[string]report.TaskProvenance) (map[string]*transcript.Transcript, error) {
	records := map[string]*transcript.Transcript{}
	for _, t := range tasks {
		path := s.TranscriptFile(server, t.ID)
		if dir != "" {
			path = filepath.Join(dir, t.ID+".jsonl")
		}
		tr, ok := s.Transcripts[path]
		if !ok {
			if !exists(path) {
				return nil, fmt.Errorf("%s: no transcript for %s (record one with: %s)", path, t.ID, hint(t.ID))
			}
			var err error
			if tr, err = readTranscript(path); err != nil {
				return nil, err
			}
		}
		records[t.ID] = tr.Transcript
		p := prov[t.ID]
		p.Transcript = tr.Digest
		prov[t.ID] = p
	}
	return records, nil
}
