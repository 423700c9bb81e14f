// Package testprogress turns the event stream of `go test -json` into what
// a person waiting on `make test` wants to see: each package as it starts
// and ends with its running time, a line at least every minute naming
// what still runs, the output of each test that failed (as plain go test
// prints it), and at the end a one-screen summary of passed and failed
// packages, their times and the failures' names.
//
// It reads events and writes text; cmd/testprogress runs go test and owns
// the process.
package testprogress

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json), with the fields
// read here.
type event struct {
	Time        time.Time
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string // build-output, build-fail
	FailedBuild string // a package's fail when its build failed
}

// pkgState is what is known of one package.
type pkgState struct {
	name    string
	started time.Time
	// lastTest is the test that started last, for the minute lines.
	lastTest string
	// output holds the output of each running test ("" for the
	// package's own), until it passes or fails.
	output map[string][]string
	// failed names the tests that failed, in the order they did.
	failed  []string
	action  string // pass, fail or skip once it ended; "" before
	elapsed time.Duration
	noTests bool
	build   bool // its build failed
}

// Progress reads one `go test -json` stream.
type Progress struct {
	w     io.Writer
	start time.Time
	pkgs  map[string]*pkgState
	order []string
	// build holds build output by import path, for a build that fails.
	build map[string][]string
}

// New returns a Progress writing to w; start is when go test started.
func New(w io.Writer, start time.Time) *Progress {
	return &Progress{w: w, start: start, pkgs: map[string]*pkgState{}, build: map[string][]string{}}
}

// Line takes one line of the stream, writing progress as it comes.
func (p *Progress) Line(line []byte) {
	var e event
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
		fmt.Fprintf(p.w, "%s\n", line) // a message of the go command
		return
	}
	switch e.Action {
	case "build-output":
		p.build[e.ImportPath] = append(p.build[e.ImportPath], e.Output)
		return
	case "build-fail":
		return
	}
	if e.Package == "" {
		return
	}
	s := p.pkg(e.Package)
	switch e.Action {
	case "start":
		s.started = e.Time
		fmt.Fprintf(p.w, "start %s\n", e.Package)
	case "run":
		if s.started.IsZero() {
			s.started = e.Time
		}
		if !strings.Contains(e.Test, "/") {
			s.lastTest = e.Test
		}
	case "output":
		if e.Test == "" && strings.Contains(e.Output, "[no test files]") {
			s.noTests = true
		}
		s.output[e.Test] = append(s.output[e.Test], e.Output)
	case "pass", "skip":
		if e.Test != "" {
			delete(s.output, e.Test)
			return
		}
		p.end(s, e)
	case "fail":
		if e.Test != "" {
			s.failed = append(s.failed, e.Test)
			p.printOutput(e.Package+" "+e.Test, s.output[e.Test])
			delete(s.output, e.Test)
			return
		}
		if e.FailedBuild != "" {
			s.build = true
			p.printOutput(e.FailedBuild+" (build)", p.build[e.FailedBuild])
		}
		p.end(s, e)
	}
}

func (p *Progress) pkg(name string) *pkgState {
	s := p.pkgs[name]
	if s == nil {
		s = &pkgState{name: name, output: map[string][]string{}}
		p.pkgs[name] = s
		p.order = append(p.order, name)
	}
	return s
}

// end records that package s ended with e and says so.
func (p *Progress) end(s *pkgState, e event) {
	s.action = e.Action
	s.elapsed = time.Duration(e.Elapsed * float64(time.Second))
	if s.noTests {
		return // said in the summary's count only
	}
	if e.Action == "fail" && len(s.failed) == 0 && !s.build {
		// The package failed outside any test (a panic, a timeout, a
		// race report after the tests): what it printed says why.
		p.printOutput(s.name, s.output[""])
	}
	delete(s.output, "")
	verdict := map[string]string{"pass": "ok  ", "fail": "FAIL", "skip": "skip"}[e.Action]
	fmt.Fprintf(p.w, "%s  %s  %s\n", verdict, s.name, round(s.elapsed))
}

// printOutput prints what a failed test or package printed, under a
// heading, the framing lines of the test runner left out.
func (p *Progress) printOutput(title string, lines []string) {
	fmt.Fprintf(p.w, "--- output of %s:\n", title)
	for _, l := range lines {
		if strings.HasPrefix(l, "=== RUN") || strings.HasPrefix(l, "=== PAUSE") || strings.HasPrefix(l, "=== CONT") {
			continue
		}
		io.WriteString(p.w, l)
		if !strings.HasSuffix(l, "\n") {
			io.WriteString(p.w, "\n")
		}
	}
}

// Tick writes the line of the minute: how long go test has run, how many
// packages have ended, and those that still run with their time and
// their latest test, or that the next are being built.
func (p *Progress) Tick(now time.Time) {
	var running []string
	done := 0
	for _, name := range p.order {
		s := p.pkgs[name]
		switch {
		case s.action != "":
			done++
		case !s.started.IsZero():
			r := fmt.Sprintf("%s (%s", name, round(now.Sub(s.started)))
			if s.lastTest != "" {
				r += ", in " + s.lastTest
			}
			running = append(running, r+")")
		}
	}
	if len(running) == 0 {
		// The go command compiles the test binaries first (with -race,
		// minutes): a line still says it is at work.
		fmt.Fprintf(p.w, "... %s: %d package(s) ended; building the next\n", round(now.Sub(p.start)), done)
		return
	}
	fmt.Fprintf(p.w, "... %s: %d package(s) ended; running %s\n", round(now.Sub(p.start)), done, strings.Join(running, ", "))
}

// slowest is how many packages the summary names by time.
const slowest = 5

// Summary writes the closing summary: packages passed, failed, without
// tests and not ended; the slowest; the failures by package, each with the
// tests that failed; and the go command's exit status when it failed
// otherwise (code is its exit status).
func (p *Progress) Summary(now time.Time, code int) {
	var passed, failed, noTests, unfinished []*pkgState
	for _, name := range p.order {
		s := p.pkgs[name]
		switch {
		case s.action == "":
			unfinished = append(unfinished, s)
		case s.noTests:
			noTests = append(noTests, s)
		case s.action == "fail":
			failed = append(failed, s)
		default:
			passed = append(passed, s)
		}
	}
	fmt.Fprintf(p.w, "\n== go test: %d package(s) passed, %d failed, %d without tests", len(passed), len(failed), len(noTests))
	if len(unfinished) > 0 {
		fmt.Fprintf(p.w, ", %d did not end", len(unfinished))
	}
	fmt.Fprintf(p.w, "; %s in all\n", round(now.Sub(p.start)))
	timed := slices.Concat(passed, failed)
	sort.SliceStable(timed, func(i, j int) bool { return timed[i].elapsed > timed[j].elapsed })
	if len(timed) > 0 {
		var names []string
		for _, s := range timed[:min(slowest, len(timed))] {
			names = append(names, fmt.Sprintf("%s %s", s.name, round(s.elapsed)))
		}
		fmt.Fprintf(p.w, "slowest: %s\n", strings.Join(names, ", "))
	}
	for _, s := range failed {
		why := strings.Join(leaves(s.failed), ", ")
		switch {
		case s.build:
			why = "build failed"
		case why == "":
			why = "failed outside a test (its output is above)"
		}
		fmt.Fprintf(p.w, "FAIL %s: %s\n", s.name, why)
	}
	for _, s := range unfinished {
		fmt.Fprintf(p.w, "did not end: %s\n", s.name)
	}
	switch {
	case code == 0:
		fmt.Fprintln(p.w, "PASS")
	case len(failed) == 0:
		fmt.Fprintf(p.w, "FAIL: go test exited with status %d (its messages are above)\n", code)
	default:
		fmt.Fprintln(p.w, "FAIL")
	}
}

// leaves keeps, of failed test names, those with no failed subtest: a
// failed subtest fails its parent, and names the failure better.
func leaves(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.ContainsFunc(names, func(m string) bool { return strings.HasPrefix(m, n+"/") }) {
			out = append(out, n)
		}
	}
	return out
}

// round is d to the second, at least 0s.
func round(d time.Duration) time.Duration {
	return max(d.Round(time.Second), 0)
}
