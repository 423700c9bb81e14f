package cli

import "fmt"

const verifyHelp = `
Checks a bundle written by contractbench bundle, offline: every file is
the one its manifest lists (SHA-256 and size) and nothing else is in the
archive; every task file's spec and contract digests are the ones the
run's results recorded; every transcript is the one the run played; the
suite digest is the report's. Then every stored Observation is re-graded
with the judge's own contract evaluation against the bundle's contracts,
and the score recomputed is compared with the one the report gives.

Prints the manifest's SHA-256, which pins the whole bundle: publish it
beside the number.

Exit codes: 0 verified and the score is the one reported; 1 every digest
holds but re-grading gives another outcome or score; 2 bad usage, or a
bundle refused (a changed byte, a contract edited after the run, a cut or
corrupt archive), naming the file inside the bundle.
`

func runVerify(st *State, args []string) error {
	fs := newFlags(st, "contractbench verify BUNDLE", verifyHelp)
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(paths) != 1 {
		return usagef("verify: want one BUNDLE (run contractbench verify --help)")
	}
	v, err := readBundle(paths[0])
	if err != nil {
		return err
	}
	// A failed write to stdout does not change what was verified.
	v.WriteSummary(st.Stdout, paths[0])
	if !v.Agrees() {
		return failed("%s: re-grading does not give the score the report gives", paths[0])
	}
	fmt.Fprintln(st.Stdout, "verified")
	return nil
}
