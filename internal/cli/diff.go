package cli

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"contractbench/internal/compare"
	"contractbench/internal/report"
	"contractbench/internal/stats"
)

const diffHelp = `
Compares stored JSON reports over the tasks they share. With two reports,
A (the first, the baseline) and B: the tasks by outcome pair (both passed,
only A, only B, neither), each run's score with its 95% Wilson interval,
the difference B − A with Newcombe's 95% paired interval, the exact
McNemar p-value, and whether the difference is significant at 5%. With
repeated attempts (run --repeat k) the difference is the mean over tasks
of the difference in pass rate, with a paired bootstrap interval and
p-value over tasks (seeded by --seed). The same numbers follow for each
task tag, and for each template of tasks tagged template:NAME; instances
of one template are not independent, so the difference then also gets an
interval clustered by template, which decides significance. With three
or more reports each is compared with the first, and a difference is
significant only at 5% divided by the number of comparisons (Bonferroni).

An attempt counts when it finished (passed, failed, replay_drift,
budget_exceeded, timeout or tainted; only passed is a pass). An error
(the harness, the browser or the provider broke) or an interrupted
attempt says nothing about the agent and is left out; a task with no
attempt that counts in one of the runs is left out of the comparison and
listed. Each report's line gives its whole denominator first (passed,
failed, harness error, interrupted, not run), saying which of them diff
counts.

A shared task whose task-file or contract digest differs between two
reports asks a different question there: diff refuses such reports and
lists the tasks, unless --allow-changed, which leaves those tasks out and
lists them. Tasks only one report holds are counted and listed.

Prints a table, or JSON with --json; -o writes either to FILE instead, and
only once every report was read and compared. docs/statistics.md gives
every formula and a worked example.

Exit codes: 0 compared, whatever the difference; 2 bad usage, a report
that cannot be read, or changed tasks without --allow-changed.
`

func runDiff(st *State, args []string) error {
	f, paths, err := parseDiffArgs(st, args)
	if err != nil {
		return err
	}
	var runs []*compare.Run
	for i, path := range paths {
		r, err := readRunReport(path, false)
		if err != nil {
			return err
		}
		runs = append(runs, compare.NewRun(compare.Label(i), path, r))
	}
	doc, err := compare.Diff(runs, compare.Options{Seed: f.seed, Resamples: f.resamples, AllowChanged: f.allowChanged})
	var changed *compare.ChangedError
	if errors.As(err, &changed) {
		return usagef("%v\n(--allow-changed leaves these tasks out of the comparison)", err)
	} else if err != nil {
		return err
	}
	var b bytes.Buffer
	if f.json {
		err = compare.WriteJSON(&b, doc)
	} else {
		compare.WriteText(&b, doc, runs)
	}
	if err != nil {
		return err
	}
	if f.out == "" {
		_, err := st.Stdout.Write(b.Bytes())
		return err
	}
	// The path is the caller's: whatever keeps it from being written is a
	// usage error, named.
	path, err := report.WriteFile(filepath.Dir(f.out), filepath.Base(f.out), b.Bytes())
	if err != nil {
		return usagef("diff: -o %s: %v", f.out, err)
	}
	fmt.Fprintln(st.Stdout, path)
	return nil
}

// diffFlags are diff's flags.
type diffFlags struct {
	json, allowChanged bool
	out                string
	seed               uint64
	resamples          int
}

// parseDiffArgs parses diff's flags and returns them with the reports'
// paths, at least two.
func parseDiffArgs(st *State, args []string) (diffFlags, []string, error) {
	var f diffFlags
	fs := newFlags(st, "contractbench diff [flags] A.json B.json [C.json...]", diffHelp)
	fs.BoolVar(&f.json, "json", false, fmt.Sprintf("write JSON (schema_version %d) instead of the table", compare.SchemaVersion))
	fs.StringVar(&f.out, "o", "", "write the output to `FILE` instead of stdout, through a temporary file renamed into place; its name may hold letters, digits, '.', '-' and '_'")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the paired bootstrap, used with repeated attempts")
	fs.IntVar(&f.resamples, "resamples", stats.DefaultResamples, "resamples of the paired bootstrap")
	fs.BoolVar(&f.allowChanged, "allow-changed", false, "leave out and list the tasks whose task or contract digest differs, instead of refusing")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return f, nil, err
	}
	switch base := filepath.Base(f.out); {
	case len(paths) < 2:
		return f, nil, usagef("diff: want at least two reports, got %d (run contractbench diff --help)", len(paths))
	case f.resamples < 1:
		return f, nil, usagef("diff: --resamples %d: want at least 1", f.resamples)
	case f.out != "" && (base == "." || base == ".." || base == string(filepath.Separator)):
		return f, nil, usagef("diff: -o %q: not a file name", f.out)
	}
	return f, paths, nil
}
