package cli

import (
	"bytes"
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

var validateCommand = command{
	name:    "validate",
	summary: "check task specs, contracts, transcripts and fixture archives",
	run:     runValidate,
}

const validateHelp = `
Validates input files and prints every problem with its location
(file:line: path: message). With no PATH it validates the whole
default suite. A PATH may be a suite folder (every file of it: tasks,
contracts and their selectors, fixture archive, baseline.json, the
servers.yaml beside it, each task's reference on each server, and every
transcript, including whether it is stale), a task file (tasks/*.yaml), a
standalone contract file (a YAML or JSON mapping with one key,
postconditions), a fixture archive folder (one holding archive.yaml), a
baseline.json, a servers.yaml or a .jsonl transcript. run checks the same
before any browser starts and refuses a suite that does not validate
(a stale transcript aside: the replay reports it as replay_drift).

One check needs a browser: a contract that already holds on the task's
start page, before any tool call, passes an agent that does nothing. Once
everything else is valid, validate plays the null agent noop (no tool
call) on the new tasks, in Chromium on the suite's hermetic web: a task
file named on its own in a suite's tasks/ folder, and each task of a suite
folder that has no transcript on the built-in server yet. A contract that
holds is a problem naming each clause and what the judge saw; a suite
whose tasks are all recorded opens no browser. A task whose browser or
web broke is said so and is no problem.

Exits 0 when everything is valid and 2 when anything is not.
`

func runValidate(st *State, args []string) error {
	fs := newFlags(st, "contractbench validate [PATH...]", validateHelp)
	if err := parse(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{defaultSuite}
	}
	var problems problem.List
	checked := 0
	for _, p := range paths {
		n, err := validatePath(p)
		checked += n
		var ps problem.List
		switch {
		case errors.As(err, &ps):
			problems = append(problems, ps...)
		case err != nil:
			problems = append(problems, problem.Problem{File: p, Msg: err.Error()})
		}
	}
	if len(problems) == 0 {
		// Only a suite that validates can be run; its new tasks are
		// played once on their start page.
		problems = checkStartPages(st, st.Stdout, newTasks(paths))
	}
	for _, p := range problems {
		fmt.Fprintln(st.Stdout, p.String())
	}
	if len(problems) > 0 {
		return usagef("%d problem(s) in %d file(s) checked", len(problems), checked)
	}
	fmt.Fprintf(st.Stdout, "ok: %d file(s) valid\n", checked)
	return nil
}

// validatePath validates what is at path and returns how many files it
// checked.
func validatePath(path string) (int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, problem.List{{File: path, Msg: "cannot read: " + errors.Unwrap(err).Error()}}
	}
	if fi.IsDir() {
		if fileExists(filepath.Join(path, "archive.yaml")) {
			_, err := openArchive(path)
			return 1, err
		}
		_, n, err := validateSuite(path, true)
		return n, err
	}
	switch {
	case filepath.Ext(path) == ".jsonl":
		// A lone transcript: well formed, finished, and not edited by hand.
		tr, err := readTranscript(path)
		if err != nil {
			return 1, err
		}
		return 1, orNil(edited(path, tr))
	case filepath.Base(path) == "baseline.json":
		var s *suite.Suite
		if dir := filepath.Dir(path); fileExists(filepath.Join(dir, "tasks")) {
			s, _ = suite.Load(dir)
		}
		_, err := checkBaseline(path, s)
		return 1, err
	case filepath.Base(path) == "servers.yaml":
		_, err := loadServers(path)
		return 1, err
	}
	switch filepath.Ext(path) {
	case ".yaml", ".yml", ".json":
		data, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		if isTaskFile(path, data) {
			_, err = suite.ParseTask(path, data)
			return 1, err
		}
		return 1, validateContractFile(path, data)
	}
	return 0, problem.List{{File: path, Msg: "unknown kind of file (want a suite folder, a fixture archive folder, a task, contract, baseline.json or servers.yaml file, or a .jsonl transcript)"}}
}

// isTaskFile tells a task spec from a standalone contract: tasks live in a
// tasks/ folder or start with an id.
func isTaskFile(path string, data []byte) bool {
	if filepath.Base(filepath.Dir(path)) == "tasks" {
		return true
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "id:") {
			return true
		}
	}
	return false
}

// loadedSuite is a suite folder as validateSuite read it: every file of it
// a run may use, each read once, so that what a run uses is what was
// validated.
type loadedSuite struct {
	*suite.Suite
	// archive is the fixture web (web/), baseline is baseline.json, and
	// servers is the tool servers file (serversFile): the one beside the
	// suite, or the one loadSuite was given. Each is nil when there is
	// none.
	archive     *webreplay.Archive
	baseline    *report.Baseline
	servers     *servers.Set
	serversFile string
	// transcripts holds every transcript under transcripts/<server>/, by
	// path (as Suite.TranscriptFile names it).
	transcripts map[string]*replayFile
	// classes are the screenshot classes; loadSuite loads them.
	classes phash.Classes
}

// replayFile is a transcript as read, with the digest of its bytes.
type replayFile struct {
	*transcript.Transcript
	digest string
}

// validateSuite checks every file of a suite folder: its tasks (with their
// contracts and selectors), its fixture archive, baseline.json, the tool
// servers file beside it, every task's reference against every server that
// file describes, and every transcript under transcripts/<server>/. With
// drift, a transcript recorded for another version of its task is a
// problem too; run leaves that to the replay, which reports it as
// replay_drift. It returns what it read, with the number of files
// checked; the suite is not nil when the error is nil.
func validateSuite(dir string, drift bool) (*loadedSuite, int, error) {
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
	s, err := suite.Load(dir)
	ls := &loadedSuite{Suite: s, serversFile: serversFileOf(dir), transcripts: map[string]*replayFile{}}
	n := 0
	if err != nil {
		add(err)
	} else {
		n = len(s.Tasks)
	}
	if web := filepath.Join(dir, "web"); fileExists(web) {
		n++
		ls.archive, err = openArchive(web)
		add(err)
	}
	if s == nil {
		return nil, n, orNil(problems)
	}
	if fileExists(s.BaselineFile()) {
		n++
		ls.baseline, err = checkBaseline(s.BaselineFile(), s)
		add(err)
	}
	profiles := []*servers.Profile{servers.Builtin()}
	if fileExists(ls.serversFile) {
		n++
		ls.servers, err = loadServers(ls.serversFile)
		add(err)
		if ls.servers != nil {
			profiles = profiles[:0]
			for _, name := range ls.servers.Names() {
				p, _ := ls.servers.Get(name)
				profiles = append(profiles, p)
			}
		}
	}
	for _, t := range s.Tasks {
		for _, p := range profiles {
			if err := p.CheckReference(t.Reference); err != nil {
				problems = append(problems, problem.Problem{File: t.File, Path: "reference", Msg: fmt.Sprintf("on server %s: %v", p.Name(), err)})
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "transcripts", "*", "*.jsonl"))
	for _, f := range files {
		n++
		add(ls.addTranscript(f, drift))
	}
	return ls, n, orNil(problems)
}

// addTranscript reads the suite's transcript file and checks it belongs to
// its task; with drift, also that it was neither edited after recording nor
// recorded for another version of the task.
func (ls *loadedSuite) addTranscript(file string, drift bool) error {
	tr, err := readTranscript(file)
	if err != nil {
		return err
	}
	id := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	t, ok := ls.Task(id)
	switch {
	case !ok:
		return problem.List{{File: file, Msg: fmt.Sprintf("%s is not a task of the suite", id)}}
	case tr.Header.Task != id:
		return problem.List{{File: file, Line: 1, Path: "task", Msg: fmt.Sprintf("%q, but the file is named for %s", tr.Header.Task, id)}}
	}
	ls.transcripts[file] = tr
	if !drift {
		return nil
	}
	problems := edited(file, tr)
	if digest, err := taskDigest(t); err == nil && digest != tr.Header.TaskDigest {
		server := filepath.Base(filepath.Dir(file))
		problems = append(problems, problem.Problem{File: file, Line: 1, Path: "task_digest",
			Msg: fmt.Sprintf("stale: recorded for another version of what %s asks of the agent; re-record with: %s", id,
				recordHint(ls.Dir, server, "", id))})
	}
	return orNil(problems)
}

// edited is the problem of a transcript a call of which was edited after
// recording; none when no call was.
func edited(file string, tr *replayFile) problem.List {
	if err := transcript.VerifyDigests(tr.Transcript); err != nil {
		return problem.List{{File: file, Msg: err.Error() + " (edited after recording; re-record it)"}}
	}
	return nil
}

func orNil(ps problem.List) error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readTranscript reads a transcript, once, and checks what makes one
// unusable for a replay: malformed lines, and no final answer line (cut
// short, or a run that never finished).
func readTranscript(path string) (*replayFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, problem.List{{File: path, Msg: "transcript: " + err.Error()}}
	}
	tr, err := transcript.Read(bytes.NewReader(data), path)
	var pe *transcript.ParseError
	switch {
	case errors.As(err, &pe):
		return nil, problem.List{{File: path, Line: pe.Line, Msg: pe.Msg}}
	case err != nil:
		return nil, problem.List{{File: path, Msg: err.Error()}}
	}
	if tr.Final == nil {
		return nil, problem.List{{File: path, Line: 1 + len(tr.Calls), Msg: "ends without the final answer line: cut short, or the recorded run never finished; re-record it"}}
	}
	return &replayFile{tr, sha256Of(data)}, nil
}

// checkBaseline loads a baseline file and, given its suite, checks that
// every task it names is in the suite: a gate on a task that cannot run
// would fail every run. Its problems are located.
func checkBaseline(path string, s *suite.Suite) (*report.Baseline, error) {
	b, err := report.LoadBaseline(path)
	if err != nil {
		return nil, problem.List{{File: path, Msg: strings.TrimPrefix(err.Error(), "baseline "+path+": ")}}
	}
	if s == nil {
		return b, nil
	}
	var problems problem.List
	for i, t := range b.Tasks {
		if _, ok := s.Task(t); !ok {
			problems = append(problems, problem.Problem{File: path, Path: fmt.Sprintf("tasks[%d]", i),
				Msg: fmt.Sprintf("%q is not a task of the suite (%s)", t, s.TasksDir())})
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return b, nil
}

// loadServers loads a tool servers file; its problems are located.
func loadServers(path string) (*servers.Set, error) {
	set, err := servers.Load(path)
	var ps problem.List
	switch {
	case err == nil:
		return set, nil
	case errors.As(err, &ps):
		return nil, ps
	}
	return nil, problem.List{{File: path, Msg: err.Error()}}
}

// openArchive opens a fixture archive folder; its problems are located.
func openArchive(dir string) (*webreplay.Archive, error) {
	a, err := webreplay.Open(dir)
	var ps problem.List
	switch {
	case err == nil:
		return a, nil
	case errors.As(err, &ps):
		// The archive names files relative to its folder.
		located := make(problem.List, len(ps))
		for i, p := range ps {
			p.File = filepath.Join(dir, p.File)
			located[i] = p
		}
		return nil, located
	default:
		return nil, problem.List{{File: dir, Msg: err.Error()}}
	}
}
