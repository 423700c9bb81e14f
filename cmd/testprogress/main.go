// Command testprogress runs `go test -json ...` and shows its progress
// (internal/testprogress): each package as it starts and ends, a line
// every minute while packages run, and a summary at the end. It exits
// with go test's exit status. make test runs it:
//
//	testprogress [-every 1m] go test -json -race ./...
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"contractbench/internal/testprogress"
)

func main() {
	every := flag.Duration("every", time.Minute, "write a line naming the running packages this often")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: testprogress [-every 1m] go test -json [go test flags] [packages]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *every <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(flag.Args(), *every))
}

// run runs the command args, shows its progress and returns its exit
// status.
func run(args []string, every time.Duration) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		return 2
	}
	// An interrupt reaches go test (from the terminal, or passed on
	// here); this process waits for it to end, to sum up what ran.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		return 2
	}
	p := testprogress.New(os.Stdout, start)
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for open := true; open; {
		select {
		case line, ok := <-lines:
			if !ok {
				open = false
				break
			}
			p.Line(line)
		case now := <-tick.C:
			p.Tick(now)
		case s := <-sigs:
			cmd.Process.Signal(s)
		}
	}
	code := 0
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			fmt.Fprintln(os.Stderr, "testprogress:", err)
			code = 2
		} else if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		} else {
			code = exit.ExitCode()
		}
	}
	p.Summary(time.Now(), code)
	return code
}
