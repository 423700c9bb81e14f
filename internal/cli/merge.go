package cli

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"contractbench/internal/report"
)

const mergeHelp = `
Combines the JSON reports of parts of one selection (the shards of
run --shard I/N, possibly on several machines, or a run and the runs that
resumed it) into the report of the whole: Markdown, JSON and junit.xml in
the folder -o names, with the score, repeats and Wilson interval computed
over every result. Screenshots are not carried over.

It refuses reports whose provenance differs (git sha, suite, agent, model,
server, web, caps, repeat, task selection) and says which field, and an
attempt that two reports both hold. A selection with attempts no report
holds gives an incomplete report.
`

func runMerge(st *State, args []string) error {
	fs := newFlags(st, "contractbench merge -o DIR REPORT.json...", mergeHelp)
	out := fs.String("o", "", "folder for the merged report (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return usagef("merge: -o and at least one report are required")
	}
	var runs []*report.Run
	for _, path := range fs.Args() {
		r, err := readRunReport(path, true)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	merged, err := report.Merge(runs)
	if err != nil {
		return usagef("%v", err)
	}
	paths, err := report.WriteFiles(*out, mergedName(merged), merged)
	if err != nil {
		return err
	}
	fmt.Fprintf(st.Stdout, "merged %d reports: %s, %s, %s\n", len(runs), paths.Markdown, paths.JSON, paths.JUnit)
	return nil
}

// mergedName is the base name of a merged report.
func mergedName(r *report.Run) string {
	return cmp.Or(r.GitSHA, "report") + "-merged"
}

// readRunReport reads a report JSON by report.ReadJSON (which upgrades
// earlier versions), naming the file in any error, and with images the
// screenshots and thumbnails beside it: a command that shows none (diff,
// board) leaves them on disk rather than hold every run's in memory.
func readRunReport(path string, images bool) (*report.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	if !images {
		return r, nil
	}
	if err := report.LoadImages(filepath.Dir(path), r); err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return r, nil
}
