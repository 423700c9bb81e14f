package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"contractbench/internal/problem"
	"contractbench/internal/suite"
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
default suite. A PATH may be a suite folder, a task file (tasks/*.yaml) or a
standalone contract file (a YAML or JSON mapping with one key,
postconditions), or a fixture archive folder (one holding archive.yaml).

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
	fi, err := os.Stat(path)
	if err != nil {
		return 0, problem.List{{File: path, Msg: "cannot read: " + errors.Unwrap(err).Error()}}
	}
	if fi.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "archive.yaml")); err == nil {
			return 1, validateArchive(path)
		}
		return validateSuite(path)
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
	return 0, problem.List{{File: path, Msg: "unknown kind of file (want a suite folder, a task or contract .yaml/.json)"}}
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

// validateSuite checks a suite folder: its tasks and, when present, its
// fixture archive.
func validateSuite(dir string) (int, error) {
	var problems problem.List
	s, err := suite.Load(dir)
	n := 0
	if err != nil {
		if !errors.As(err, &problems) {
			return 0, err
		}
	} else {
		n = len(s.Tasks)
	}
	web := filepath.Join(dir, "web")
	if _, err := os.Stat(web); err == nil {
		n++
		var ps problem.List
		if err := validateArchive(web); errors.As(err, &ps) {
			problems = append(problems, ps...)
		}
	}
	if len(problems) > 0 {
		return n, problems
	}
	return n, nil
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
