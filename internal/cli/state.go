package cli

import (
	"context"
	"io"
	"net"
	"os"
	"os/signal"
	"sync"
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
	// Context returns the run's context, cancelled on SIGINT, SIGTERM or
	// SIGHUP.
	Context func() (context.Context, context.CancelFunc)
	// Dial opens a network connection; nil means net.Dialer's. It is how
	// --web live checks that the network is there before a run.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Interrupts, when set, is what runs use instead of Context: the
	// context is cancelled on the first SIGINT, SIGTERM or SIGHUP (finish
	// grading, stop the rest), abort is closed on the second (stop at
	// once), and stop ends the listening.
	Interrupts func() (ctx context.Context, abort <-chan struct{}, stop func())
}

// interruptSignals are the signals that stop a run: Ctrl-C, a polite kill,
// and a closed terminal or dropped SSH session, which would otherwise end
// the process with no report and a browser's profile left behind.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// watchSignals turns the signals arriving on sigs into a run's interrupts:
// the first cancels ctx, the second closes abort; later ones are ignored.
// stop ends the watching and cancels ctx.
func watchSignals(sigs <-chan os.Signal) (ctx context.Context, abort <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	aborted := make(chan struct{})
	done := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-sigs:
				n++
				switch n {
				case 1:
					cancel()
				case 2:
					close(aborted)
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, aborted, sync.OnceFunc(func() {
		close(done)
		cancel()
	})
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
			return signal.NotifyContext(context.Background(), interruptSignals...)
		},
		Interrupts: func() (context.Context, <-chan struct{}, func()) {
			sigs := make(chan os.Signal, 2)
			signal.Notify(sigs, interruptSignals...)
			ctx, abort, stop := watchSignals(sigs)
			return ctx, abort, func() {
				signal.Stop(sigs)
				stop()
			}
		},
	}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
