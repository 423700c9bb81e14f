// Package cli is the contractbench command: its subcommands (run, record,
// compare, judge, validate, web, mcp), one file each, their flags and
// --help texts, and the exit codes.
//
// It is the only package that touches the process. State carries what the
// process gives the program (standard streams, environment, clock,
// signals, whether it runs as root); OSState builds the real one, and tests
// build their own. Every package below receives what it needs from here as
// options and io.Writers: none of them exits, reads the environment or
// arguments, or writes to the standard streams (internal/architecture
// checks that).
//
// A command that runs tasks turns its flags into one runner.Plan before
// anything starts (plan.go): the suite read once, by the code validate
// uses, and the plan checked once, by runner.NewPlan; nothing changes it
// after.
//
// Main returns the exit code instead of exiting, resolved in one place
// (exitCode) from the error a command returns: 0 every task and gate
// passed, 1 a task or a gate failed, 2 bad usage or a bad input file, 3 the
// harness itself broke.
//
// It may import every package of the module; nothing but main imports it.
package cli
