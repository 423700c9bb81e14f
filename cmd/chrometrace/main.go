// Command chrometrace records Chromium's own trace of a run and says
// which of the browser's processes and threads took the processor, and
// in what. It launches a browser as a run would, starts Chromium's
// tracing on it (the DevTools Tracing domain), runs
// `contractbench run ARGS --browser-url URL` against it, ends the trace,
// writes it (a JSON trace that Perfetto's UI and chrome://tracing open)
// and prints two tables: the CPU time of each kind of process and thread,
// and the events that took the most of it themselves (their own time,
// less what the events inside them took). make bench-trace runs it on the
// generated sample (docs/benchmarks/browser.md):
//
//	chrometrace [-bin bin/contractbench] [-out trace.json] [-top 40] -- RUN ARGS
//	chrometrace -read trace.json [-top 40]
//
// With -read it prints the tables of a trace written before.
//
// The times are thread CPU time inside the events Chromium traces: the
// start and end of processes, the kernel's own work and what runs outside
// a traced task are not in them, and tracing costs a little CPU itself
// (its own service process, listed apart).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/cdproto/tracing"

	"contractbench/internal/browser"
	"contractbench/internal/cdpconn"
)

// categories are what the trace records: every task a thread runs
// (toplevel) with the work inside it that Chromium names, the page's
// (blink, v8) and the compositor's and the display's (cc, viz, gpu), and
// the messages between processes (mojom). A generated task takes about
// 12 MB of it.
var categories = []string{"toplevel", "mojom", "blink", "v8", "cc", "viz", "gpu"}

func main() {
	bin := flag.String("bin", "bin/contractbench", "the contractbench binary to run")
	out := flag.String("out", "chrometrace.json", "where to write the trace")
	top := flag.Int("top", 40, "how many events to list by their own time")
	read := flag.String("read", "", "print the tables of this trace instead of recording one")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: chrometrace [-bin bin/contractbench] [-out trace.json] [-top 40] -- RUN ARGS")
		fmt.Fprintln(os.Stderr, "       chrometrace -read trace.json [-top 40]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if (flag.NArg() == 0) == (*read == "") {
		flag.Usage()
		os.Exit(2)
	}
	if *read == "" {
		if err := record(*bin, *out, flag.Args()); err != nil {
			// No trace is better than part of one.
			os.Remove(*out)
			fmt.Fprintln(os.Stderr, "chrometrace:", err)
			var exit *exec.ExitError
			if errors.As(err, &exit) && exit.ExitCode() == 2 {
				os.Exit(2) // the run's arguments were wrong
			}
			os.Exit(1)
		}
		*read = *out
	}
	f, err := os.Open(*read)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chrometrace:", err)
		os.Exit(1)
	}
	defer f.Close()
	p, err := readProfile(f)
	if err != nil {
		fmt.Fprintf(os.Stderr, "chrometrace: %s: %v\n", *read, err)
		os.Exit(1)
	}
	p.write(os.Stdout, *top)
}

// record launches a browser, traces it while the run args plays against
// it, and writes the trace to out.
func record(bin, out string, args []string) error {
	ctx := context.Background()
	b, err := browser.Launch(ctx, browser.Options{NoSandbox: os.Geteuid() == 0})
	if err != nil {
		return err
	}
	defer b.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	s := &sink{w: f, complete: make(chan bool, 1)}
	conn, err := cdpconn.Dial(ctx, b.URL(), s.event)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.Listen()
	_, err = cdpconn.Send(ctx, conn, "", tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig: &tracing.TraceConfig{
			RecordMode:          tracing.TraceConfigRecordModeRecordContinuously,
			TraceBufferSizeInKb: 1 << 20,
			IncludedCategories:  categories,
		},
	})
	if err != nil {
		return fmt.Errorf("starting the trace: %w", err)
	}
	run := exec.Command(bin, append(append([]string{"run"}, args...), "--browser-url", b.URL())...)
	run.Stdout, run.Stderr = os.Stderr, os.Stderr
	runErr := run.Run()
	if _, err := cdpconn.Send(ctx, conn, "", tracing.End, cdp.Empty{}); err != nil {
		return fmt.Errorf("ending the trace: %w", err)
	}
	if err := s.finish(); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	var exit *exec.ExitError
	if runErr != nil && !(errors.As(runErr, &exit) && exit.ExitCode() == 1) {
		// 1 is a task that failed: the trace still shows its cost.
		return fmt.Errorf("%s run: %w", bin, runErr)
	}
	return f.Close()
}

// sink writes a trace's events as the browser sends them: a JSON array.
type sink struct {
	w        io.Writer
	complete chan bool // whether the browser lost events

	mu    sync.Mutex
	wrote bool
	err   error
}

// event takes the browser's events (cdpconn.Dial's onEvent).
func (s *sink) event(_ target.SessionID, m *cdproto.Message) {
	switch m.Method {
	case cdproto.MethodType(tracing.DataCollected.Method):
		e, _ := cdpconn.Decode[tracing.EventDataCollected](m)
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, v := range e.Value {
			sep := ",\n"
			if !s.wrote {
				sep, s.wrote = "[", true
			}
			if _, err := io.WriteString(s.w, sep+string(v)); err != nil && s.err == nil {
				s.err = err
			}
		}
	case cdproto.MethodType(tracing.TracingComplete.Method):
		e, _ := cdpconn.Decode[tracing.EventTracingComplete](m)
		s.complete <- e != nil && e.DataLossOccurred
	}
}

// finish waits for the browser's last events and closes the array.
func (s *sink) finish() error {
	lost := <-s.complete
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.wrote {
		return fmt.Errorf("the browser recorded no trace")
	}
	if lost {
		fmt.Fprintln(os.Stderr, "chrometrace: the browser's trace buffer overflowed: the trace misses its earliest events; trace fewer tasks")
	}
	if _, err := io.WriteString(s.w, "]\n"); err != nil && s.err == nil {
		s.err = err
	}
	return s.err
}
