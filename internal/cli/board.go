package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"contractbench/internal/bundle"
	"contractbench/internal/compare"
	"contractbench/internal/report"
)

const boardHelp = `
Reads the JSON reports of runs (also ones written by an earlier version),
or their bundles (contractbench bundle: a .tar.gz, .tgz or .zip, verified
as contractbench verify does before it is shown), and writes a
leaderboard: one self-contained HTML page, with no script and nothing
loaded, in the style of the HTML report. A row given as a report alone is
marked "no bundle"; a bundle that is refused, or whose re-graded score is
not the one its report gives, stops the board.

Runs are grouped by suite and suite digest (the SHA-256 of the tasks with
the digests of their specs and contracts, as the reports recorded them),
and each group is ranked on its own: runs of different suites or digests
never share a ranking. A row is an agent, model and server: the score with
its 95% Wilson interval and its whole denominator (passed, failed, harness
error, interrupted, not run), the numbers on tasks that cannot be done and
on doable write tasks where nothing was written, pass^k and the flip rate
when tasks were repeated (a warning when fewer than 3 attempts a task are
ranked), cost per solved task, tokens and median time per task, the trust label, and a link to the
run's report (its .html beside the JSON when there is one, else the JSON).
Each run is tested against the run ranked below it with the exact McNemar
test on the first finished attempt of every task both finished (an error
or interrupted attempt is left out, as diff leaves it out), and "differs"
marks p < 0.05. Each run is also tested against the top-ranked one, the
p-values Holm-corrected over the group: a run the test cannot tell from
the best is "tied with #1". Rank stability is the share of 1000 random
halves of the tasks (seeded: the same runs give the same figures) on which
a run keeps its rank. A run whose
agent held raw browser access (trust: unrestricted agent) is never ranked:
its group lists it under "Unprotected runs" with how often the contract
held. docs/statistics.md says how to read the board.

The page is written to a temporary file and renamed into place, and only
once every report was read: a report that cannot be read leaves no page.

Exit codes: 0 written; 2 bad usage or a report that cannot be read.
`

func runBoard(st *State, args []string) error {
	fs := newFlags(st, "contractbench board [-o FILE] REPORT.json|BUNDLE...", boardHelp)
	out := fs.String("o", "board.html", "file to write; its name may hold letters, digits, '.', '-' and '_'")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usagef("board: want at least one REPORT.json (run contractbench board --help)")
	}
	dest, err := filepath.Abs(*out)
	if err != nil {
		return usagef("board: -o %s: %v", *out, err)
	}
	if name := filepath.Base(dest); !report.SafeName(name) {
		return usagef("board: -o %s: the file name must be letters, digits, '.', '-' and '_'", *out)
	}
	if fi, err := os.Stat(dest); err == nil && fi.IsDir() {
		return usagef("board: -o %s is a folder; name the page's file", *out)
	}

	seen := map[string]string{}
	var runs []compare.BoardRun
	for _, path := range paths {
		abs, err := filepath.Abs(path)
		if err != nil {
			return usagef("%s: %v", path, err)
		}
		if first, ok := seen[abs]; ok {
			return usagef("board: %s is given twice (also as %s)", path, first)
		}
		seen[abs] = path
		br, err := readBoardRun(path, abs, filepath.Dir(dest))
		if err != nil {
			return err
		}
		runs = append(runs, br)
	}

	var page bytes.Buffer
	if err := compare.WriteBoard(&page, runs); err != nil {
		return err
	}
	written, err := report.WriteFile(filepath.Dir(dest), filepath.Base(dest), page.Bytes())
	if err != nil {
		return fmt.Errorf("board: %w", err)
	}
	fmt.Fprintln(st.Stdout, written)
	return nil
}

// readBoardRun reads one run of the board: a bundle, verified, whose row
// links to the bundle, or a report, whose row links to its page.
func readBoardRun(path, abs, boardDir string) (compare.BoardRun, error) {
	if _, ok := bundle.FormatOf(path); ok {
		v, err := readBundle(path)
		if err != nil {
			return compare.BoardRun{}, err
		}
		if !v.Agrees() {
			return compare.BoardRun{}, usagef("%s: re-grading the bundle does not give the score its report gives (run contractbench verify %s)", path, path)
		}
		rel, err := filepath.Rel(boardDir, abs)
		if err != nil {
			return compare.BoardRun{}, usagef("%s: %v", path, err)
		}
		return compare.BoardRun{Run: v.Report, Link: filepath.ToSlash(rel), Bundle: v.ManifestDigest}, nil
	}
	r, err := readRunReport(path, false)
	if err != nil {
		return compare.BoardRun{}, err
	}
	link, err := reportLink(boardDir, abs)
	if err != nil {
		return compare.BoardRun{}, usagef("%s: %v", path, err)
	}
	return compare.BoardRun{Run: r, Link: link}, nil
}

// reportLink is the path from the board's folder to the page of the
// report at abs: its HTML page when one is beside it, else the JSON.
func reportLink(boardDir, abs string) (string, error) {
	target := abs
	page := strings.TrimSuffix(abs, filepath.Ext(abs)) + ".html"
	if fi, err := os.Stat(page); err == nil && fi.Mode().IsRegular() {
		target = page
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	rel, err := filepath.Rel(boardDir, target)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}
