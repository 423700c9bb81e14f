package cli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// State is everything the process gives the program: arguments aside, the
// only way code below internal/cli learns about its environment. Tests build
// their own State; OSState is the real one.
type State struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// Environ is the whole environment, for child processes.
	Environ func() []string
	// Now is the clock.
	Now func() time.Time
	// Root reports whether the process runs as root (Chromium then needs
	// --no-sandbox).
	Root bool
	// IsTerminal reports whether Stderr is a terminal (live progress line).
	IsTerminal bool
	// Executable is the path of this binary, for spawning `contractbench mcp`.
	Executable string
	// Context returns the run's context, cancelled on SIGINT or SIGTERM.
	Context func() (context.Context, context.CancelFunc)
}

// OSState is the State of the running process.
func OSState() *State {
	exe, _ := os.Executable()
	return &State{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		Environ:    os.Environ,
		Now:        time.Now,
		Root:       os.Geteuid() == 0,
		IsTerminal: isTerminal(os.Stderr),
		Executable: exe,
		Context: func() (context.Context, context.CancelFunc) {
			return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		},
	}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
