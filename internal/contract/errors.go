package contract

import (
	"strings"

	"contractbench/internal/problem"
)

// FieldError is one problem in a contract document.
type FieldError struct {
	// Path locates the offending value inside the document, in the form
	// postconditions[2].children[0].pattern. For a missing field it names
	// the field that should be there.
	Path string
	// Line is the 1-based line of the offending node in the source, or of
	// the enclosing mapping when a field is missing; 0 when unknown.
	// Error leaves it out: whoever knows the file name adds
	// "file:line: " in front.
	Line int
	Msg  string
}

func (e FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Errors is every problem found in one contract document, in source order.
// Decoding does not stop at the first problem, so an author can fix them
// all in one edit.
type Errors []FieldError

// Error lists every problem, one per line.
func (e Errors) Error() string {
	var b strings.Builder
	for i, fe := range e {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(fe.Error())
	}
	return b.String()
}

// In locates the errors in file, for reports that name it.
func (e Errors) In(file string) problem.List {
	ps := make(problem.List, 0, len(e))
	for _, fe := range e {
		ps = append(ps, problem.Problem{File: file, Line: fe.Line, Path: fe.Path, Msg: fe.Msg})
	}
	return ps
}
