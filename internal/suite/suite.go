package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"contractbench/internal/problem"
)

// Suite is a benchmark folder: task specs and the data that goes with them.
//
//	<dir>/tasks/<id>.yaml                 task specs
//	<dir>/web/                            fixture archive (hermetic web)
//	<dir>/uploads/                        files tasks may upload
//	<dir>/transcripts/<server>/<id>.jsonl recorded tool calls
//	<dir>/screenshot-classes/<class>/     example PNGs per class
//	<dir>/baseline.json                   the pass gate
//	<dir>/reports/                        run reports
type Suite struct {
	Dir   string
	Tasks []*Task // sorted by ID
}

// Folder names inside a suite.
func (s *Suite) TasksDir() string   { return filepath.Join(s.Dir, "tasks") }
func (s *Suite) WebDir() string     { return filepath.Join(s.Dir, "web") }
func (s *Suite) ClassesDir() string { return filepath.Join(s.Dir, "screenshot-classes") }
func (s *Suite) ReportsDir() string { return filepath.Join(s.Dir, "reports") }

// UploadsDir is the folder of files a task may upload into a page (the
// built-in upload_file tool's files, a peer's file chooser); it may be
// missing when no task uploads anything.
func (s *Suite) UploadsDir() string { return filepath.Join(s.Dir, "uploads") }
func (s *Suite) BaselineFile() string {
	return filepath.Join(s.Dir, "baseline.json")
}

// TranscriptFile is where the transcript of task id against server lives.
func (s *Suite) TranscriptFile(server, id string) string {
	return filepath.Join(s.Dir, "transcripts", server, id+".jsonl")
}

// Load reads and validates every task spec of the suite at dir. It reports
// all problems of all files together.
func Load(dir string) (*Suite, error) {
	s := &Suite{Dir: dir}
	files, err := filepath.Glob(filepath.Join(s.TasksDir(), "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		if _, err := os.Stat(s.TasksDir()); errors.Is(err, fs.ErrNotExist) {
			return nil, problem.List{{File: dir, Msg: "not a suite: it has no tasks/ folder"}}
		}
		return nil, problem.List{{File: s.TasksDir(), Msg: "no task files (*.yaml)"}}
	}
	var problems problem.List
	for _, f := range files {
		t, err := LoadTask(f)
		if err != nil {
			var ps problem.List
			if !errors.As(err, &ps) {
				return nil, err
			}
			problems = append(problems, ps...)
			continue
		}
		s.Tasks = append(s.Tasks, t)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	sort.Slice(s.Tasks, func(i, j int) bool { return s.Tasks[i].ID < s.Tasks[j].ID })
	return s, nil
}

// LoadTask reads and validates one task file.
func LoadTask(file string) (*Task, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, problem.List{{File: file, Msg: "cannot read: " + errors.Unwrap(err).Error()}}
	}
	return ParseTask(file, data)
}

// Task returns the task with the given id.
func (s *Suite) Task(id string) (*Task, bool) {
	i := slices.IndexFunc(s.Tasks, func(t *Task) bool { return t.ID == id })
	if i < 0 {
		return nil, false
	}
	return s.Tasks[i], true
}

// Select returns the tasks named by ids in suite order, or all tasks when
// ids is empty. An id may be given by its number prefix too (task-01);
// a task's whole id names it even when it is also the prefix of others
// (an instance and its controls named after it).
func (s *Suite) Select(ids []string) ([]*Task, error) {
	if len(ids) == 0 {
		return s.Tasks, nil
	}
	var out []*Task
	for _, id := range ids {
		var match []*Task
		if t, ok := s.Task(id); ok {
			match = append(match, t)
		} else {
			for _, t := range s.Tasks {
				if strings.HasPrefix(t.ID, id+"-") {
					match = append(match, t)
				}
			}
		}
		switch len(match) {
		case 0:
			return nil, fmt.Errorf("no task %q in %s (have: %s)", id, s.TasksDir(), strings.Join(s.IDs(), ", "))
		case 1:
			if !slices.Contains(out, match[0]) {
				out = append(out, match[0])
			}
		default:
			var names []string
			for _, t := range match {
				names = append(names, t.ID)
			}
			return nil, fmt.Errorf("task %q is ambiguous in %s: it is the start of %s", id, s.TasksDir(), strings.Join(names, ", "))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// IDs lists the suite's task ids in order.
func (s *Suite) IDs() []string {
	ids := make([]string, len(s.Tasks))
	for i, t := range s.Tasks {
		ids[i] = t.ID
	}
	return ids
}
