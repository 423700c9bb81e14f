package cli

import (
	"errors"
	"fmt"
)

// Exit codes. They are resolved in one place, exitCode, from the error a
// command returns.
const (
	exitOK       = 0 // every task and gate passed
	exitFailed   = 1 // a task or a gate failed
	exitUsage    = 2 // bad usage or a bad input file
	exitInternal = 3 // the harness itself broke
	// exitInterrupted is the shells' code for a run ended by SIGINT
	// (128+2), used for every interruption (SIGINT, SIGTERM, SIGHUP): the
	// run stopped early and its report, if any, is marked incomplete.
	exitInterrupted = 130
)

// usageError is a mistake of the caller: a bad flag or a bad input file.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &usageError{err}
}

// failedError says that the command ran but what it checked did not pass:
// a task failed, a gate failed, a fixture page was missing. The details
// have been printed already.
type failedError struct{ msg string }

func (e *failedError) Error() string { return e.msg }

func failed(format string, args ...any) error {
	return &failedError{fmt.Sprintf(format, args...)}
}

// interruptedError says that the run was stopped by a signal before every
// task ran. What was done has been reported already.
type interruptedError struct{}

func (*interruptedError) Error() string { return "interrupted" }

func interrupted() error { return &interruptedError{} }

// exitCode maps a command's error to the process exit code. Anything not
// known to be the caller's fault or a failed check is a harness error.
func exitCode(err error) int {
	var u *usageError
	var f *failedError
	var i *interruptedError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &i):
		return exitInterrupted
	case errors.As(err, &u):
		return exitUsage
	case errors.As(err, &f):
		return exitFailed
	default:
		return exitInternal
	}
}
