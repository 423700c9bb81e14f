package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
Validates input files without running anything and prints every problem with
its location (file:line: path: message). With no PATH it validates the whole
default suite. A PATH may be a suite folder (every file of it: tasks,
contracts and their selectors, fixture archive, baseline.json, the
servers.yaml beside it, each task's reference on each server, and every
transcript, including whether it is stale), a task file (tasks/*.yaml), a
standalone contract file (a YAML or JSON mapping with one key,
postconditions), a fixture archive folder (one holding archive.yaml), a
baseline.json, a servers.yaml or a .jsonl transcript. run checks the same
before any browser starts and refuses a suite that does not validate
(a stale transcript aside: the replay reports it as replay_drift).

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
	// A lone transcript: well formed, finished, and not edited by hand.
	checkTranscript := func(path string) error {
		tr, err := readTranscript(path)
		if err == nil {
			if err = transcript.VerifyDigests(tr); err != nil {
				err = problem.List{{File: path, Msg: err.Error() + " (edited after recording; re-record it)"}}
			}
		}
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, problem.List{{File: path, Msg: "cannot read: " + errors.Unwrap(err).Error()}}
	}
	if fi.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "archive.yaml")); err == nil {
			return 1, validateArchive(path)
		}
		_, n, err := validateSuite(path, true)
		return n, err
	}
	switch {
	case filepath.Ext(path) == ".jsonl":
		return 1, checkTranscript(path)
	case filepath.Base(path) == "baseline.json":
		return 1, validateBaseline(path, nil)
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

// validateSuite checks every file of a suite folder: its tasks (with their
// contracts and selectors), its fixture archive, baseline.json, the tool
// servers file beside it, every task's reference against every server that
// file describes, and every transcript under transcripts/<server>/. With
// drift, a transcript recorded for another version of its task is a
// problem too; run leaves that to the replay, which reports it as
// replay_drift. It returns the suite it loaded, with the number of files
// checked; the suite is not nil when the error is nil.
func validateSuite(dir string, drift bool) (*suite.Suite, int, error) {
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
	n := 0
	if err != nil {
		add(err)
	} else {
		n = len(s.Tasks)
	}
	web := filepath.Join(dir, "web")
	if _, err := os.Stat(web); err == nil {
		n++
		add(validateArchive(web))
	}
	if s == nil {
		return nil, n, orNil(problems)
	}
	if _, err := os.Stat(s.BaselineFile()); err == nil {
		n++
		add(validateBaseline(s.BaselineFile(), s))
	}
	profiles := []*servers.Profile{servers.Builtin()}
	if file := serversFileOf(dir); fileExists(file) {
		n++
		set, err := loadServers(file)
		add(err)
		if set != nil {
			profiles = profiles[:0]
			for _, name := range set.Names() {
				p, _ := set.Get(name)
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
		tr, err := readTranscript(f)
		if err != nil {
			add(err)
			continue
		}
		id := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t, ok := s.Task(id)
		switch {
		case !ok:
			problems = append(problems, problem.Problem{File: f, Msg: fmt.Sprintf("%s is not a task of the suite", id)})
		case tr.Header.Task != id:
			problems = append(problems, problem.Problem{File: f, Line: 1, Path: "task", Msg: fmt.Sprintf("%q, but the file is named for %s", tr.Header.Task, id)})
		case drift:
			if err := transcript.VerifyDigests(tr); err != nil {
				problems = append(problems, problem.Problem{File: f, Msg: err.Error() + " (edited after recording; re-record it)"})
			}
			if digest, err := taskDigest(t); err == nil && digest != tr.Header.TaskDigest {
				server := filepath.Base(filepath.Dir(f))
				problems = append(problems, problem.Problem{File: f, Line: 1, Path: "task_digest",
					Msg: fmt.Sprintf("stale: recorded for another version of what %s asks of the agent; re-record with: %s", id,
						recordHint(runOptions{suiteDir: dir, server: server}, id))})
			}
		}
	}
	return s, n, orNil(problems)
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

// readTranscript reads a transcript and checks what makes one unusable for
// a replay: malformed lines, and no final answer line (cut short, or a run
// that never finished).
func readTranscript(path string) (*transcript.Transcript, error) {
	tr, err := transcript.ReadFile(path)
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
	return tr, nil
}

// validateBaseline checks a baseline file and, given its suite, that every
// task it names is in the suite.
func validateBaseline(path string, s *suite.Suite) error {
	if s == nil {
		dir := filepath.Dir(path)
		if fileExists(filepath.Join(dir, "tasks")) {
			var err error
			if s, err = suite.Load(dir); err != nil {
				s = nil
			}
		}
	}
	if s == nil {
		if _, err := report.LoadBaseline(path); err != nil {
			return problem.List{{File: path, Msg: strings.TrimPrefix(err.Error(), "baseline "+path+": ")}}
		}
		return nil
	}
	_, err := loadBaseline(s)
	var ps problem.List
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ps):
		return ps
	}
	return problem.List{{File: path, Msg: strings.TrimPrefix(errors.Unwrap(err).Error(), "baseline "+path+": ")}}
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

// validateArchive checks a fixture archive folder.
func validateArchive(dir string) error {
	_, err := webreplay.Open(dir)
	var ps problem.List
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ps):
		// The archive names files relative to its folder.
		located := make(problem.List, len(ps))
		for i, p := range ps {
			p.File = filepath.Join(dir, p.File)
			located[i] = p
		}
		return located
	default:
		return problem.List{{File: dir, Msg: err.Error()}}
	}
}
