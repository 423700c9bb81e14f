package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand. Each lives in its own file.
type command struct {
	name    string
	summary string // one line for the command list
	// run parses args with the command's own flag set and does the work.
	run func(st *State, args []string) error
}

// commands is the list `contractbench --help` shows, in that order, each
// with its one-line summary.
func commands() []command {
	return []command{
		{"run", "run the suite's tasks with an agent and judge them by contract", runRun},
		{"record", "run tasks and record their tool calls as replayable transcripts", runRecord},
		{"compare", "run the suite against several MCP tool servers and compare them", runCompare},
		{"merge", "combine the reports of shards or partial runs into one", runMerge},
		{"show", "render a run's JSON report as its self-contained HTML page", runShow},
		{"diff", "compare stored reports over the tasks they share, with paired tests", runDiff},
		{"board", "rank the stored reports of several runs on one self-contained page", runBoard},
		{"bundle", "pack a run into one archive that anyone can verify offline", runBundle},
		{"verify", "check a run bundle's digests and re-grade it offline", runVerify},
		{"judge", "grade a task's contract on a browser your own agent drives", runJudge},
		{"regrade", "re-grade a stored report against the suite's current contracts, offline", runRegrade},
		{"validate", "check task specs, contracts, transcripts and fixture archives", runValidate},
		{"generate", "draw new instances of the task templates into a suite folder", runGenerate},
		{"web", "serve the hermetic fixture web, or check it against the suite", runWeb},
		{"mcp", "run the built-in MCP browser tool server over stdio or HTTP", runMCP},
		{"snapshot", "print a page as a tool server shows it, with the targets references can name", runSnapshot},
	}
}

const mainUsage = `contractbench measures whether an LLM agent driving a real browser completes
web tasks, judged by outcome contracts: deterministic postconditions on the
browser's final state (URL, DOM text and counts, network, dialogs, screenshot
class), never by an LLM.

Usage:
  contractbench <command> [flags] [args]

Commands:
%s
Exit codes:
  0    every task and gate passed
  1    a task or a gate failed
  2    bad usage or a bad input file
  3    the harness itself broke (browser, server, internal error)
  130  interrupted (Ctrl-C, SIGTERM, a closed terminal); the report says incomplete

Run "contractbench <command> --help" for a command's flags.
`

// Main runs the program with args (without the program name) and returns
// the process exit code.
func Main(args []string, st *State) int {
	err := dispatch(st, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	// A failed check or an interruption has said what it needed to.
	var f *failedError
	var i *interruptedError
	if err != nil && (!errors.As(err, &f) || f.msg != "") && !errors.As(err, &i) {
		fmt.Fprintf(st.Stderr, "contractbench: %v\n", err)
	}
	return exitCode(err)
}

func dispatch(st *State, args []string) error {
	if len(args) == 0 {
		printMainUsage(st.Stderr)
		return usagef("no command given")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		printMainUsage(st.Stdout)
		return nil
	case "version", "--version":
		fmt.Fprintln(st.Stdout, "contractbench", buildVersion())
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(st, args[1:])
		}
	}
	return usagef("unknown command %q (run contractbench --help)", args[0])
}

func printMainUsage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, mainUsage, b.String())
}

// newFlags returns a flag set for a subcommand whose --help prints usage
// (a synopsis line such as "contractbench validate [PATH...]") and
// description, then the flags, on stdout.
func newFlags(st *State, usage, description string) *flag.FlagSet {
	fs := flag.NewFlagSet(strings.Fields(usage)[1], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		w := st.Stdout
		fmt.Fprintf(w, "Usage:\n  %s\n\n%s\n", usage, strings.TrimSpace(description))
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}

// parse parses args into fs, turning flag errors into usage errors. A
// request for help prints it and returns flag.ErrHelp.
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return err // the flag package has printed the usage
	default:
		return usagef("%s: %v (run contractbench %s --help)", fs.Name(), err, fs.Name())
	}
}

// parseNoArgs parses args into fs for a command that takes no positional
// argument.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// parseArgs parses flags that may come before, between or after the
// positional arguments (board a.json b.json -o board.html), and returns
// those arguments: the flag package stops at the first argument that is
// not a flag, so parsing resumes after each; after "--" every argument is
// positional.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var out []string
	for rest := args; ; {
		if err := parse(fs, rest); err != nil {
			return nil, err
		}
		left := fs.Args()
		if len(left) == 0 {
			return out, nil
		}
		if n := len(rest) - len(left); n > 0 && rest[n-1] == "--" {
			return append(out, left...), nil
		}
		out, rest = append(out, left[0]), left[1:]
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
