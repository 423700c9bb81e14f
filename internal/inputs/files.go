package inputs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"contractbench/internal/contract"
	"contractbench/internal/problem"
	"contractbench/internal/report"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
	"contractbench/internal/webreplay"
)

// Check checks what is at path (a suite folder, a fixture archive folder,
// a task, contract, baseline.json or servers.yaml file, or a .jsonl
// transcript) and returns how many files it checked.
func Check(path string) (int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, problem.List{{File: path, Msg: "cannot read: " + errors.Unwrap(err).Error()}}
	}
	if fi.IsDir() {
		if exists(filepath.Join(path, "archive.yaml")) {
			_, err := openArchive(path)
			return 1, err
		}
		_, n, err := checkSuite(path, true)
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
		if dir := filepath.Dir(path); exists(filepath.Join(dir, "tasks")) {
			s, _ = suite.Load(dir)
		}
		_, err := readBaseline(path, s)
		return 1, err
	case filepath.Base(path) == "servers.yaml":
		_, err := LoadServers(path)
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
		return 1, checkContract(path, data)
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

// checkContract checks a standalone contract document.
func checkContract(path string, data []byte) error {
	_, err := contract.Parse(data)
	var errs contract.Errors
	switch {
	case errors.As(err, &errs):
		return errs.In(path)
	case err != nil:
		return problem.List{{File: path, Msg: err.Error()}}
	}
	return nil
}

// readTranscript reads a transcript, once, and checks what makes one
// unusable for a replay: malformed lines, and no final answer line (cut
// short, or a run that never finished).
func readTranscript(path string) (*Transcript, error) {
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
	return &Transcript{tr, suite.SHA256(data)}, nil
}

// edited is the problem of a transcript a call of which was edited after
// recording; none when no call was.
func edited(file string, tr *Transcript) problem.List {
	if err := transcript.VerifyDigests(tr.Transcript); err != nil {
		return problem.List{{File: file, Msg: err.Error() + " (edited after recording; re-record it)"}}
	}
	return nil
}

// readBaseline loads a baseline file and, given its suite, checks that
// every task it names is in the suite: a gate on a task that cannot run
// would fail every run. Its problems are located.
func readBaseline(path string, s *suite.Suite) (*report.Baseline, error) {
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

// LoadServers loads a tool servers file; its problems are located.
func LoadServers(path string) (*servers.Set, error) {
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

func orNil(ps problem.List) error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
