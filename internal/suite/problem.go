package suite

import (
	"fmt"
	"strings"

	"contractbench/internal/contract"
)

// Problem is one thing wrong with an input file, located as precisely as
// the decoder can: the file, the line when known, and the path inside the
// document (postconditions[2].children[0].pattern).
type Problem struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Path string `json:"path,omitempty"`
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Problems lists every problem found in one or more files. Loaders collect
// all of them rather than stopping at the first, so one run of
// `contractbench validate` shows everything to fix.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// problemsOf converts a decoder's errors into Problems of file.
func problemsOf(file string, errs contract.Errors) Problems {
	ps := make(Problems, 0, len(errs))
	for _, e := range errs {
		ps = append(ps, Problem{File: file, Line: e.Line, Path: e.Path, Msg: e.Msg})
	}
	return ps
}
