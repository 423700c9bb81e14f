package cli

import (
	"fmt"
	"io"
	"os"

	"contractbench/internal/report"
)

// writeRunTable prints row as a table of its own on w, and with a summary
// file appends it to that file's table (the header first when the file
// is new or empty), so that several runs (make bench's three suites) end
// with one table of all of them.
func writeRunTable(w io.Writer, row report.RunRow, summaryFile string) error {
	fmt.Fprintln(w)
	report.WriteRunTable(w, true, row)
	if summaryFile == "" {
		return nil
	}
	f, err := os.OpenFile(summaryFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--summary: %w", err)
	}
	info, err := f.Stat()
	if err := report.WriteRunTable(f, err == nil && info.Size() == 0, row); err != nil {
		f.Close()
		return fmt.Errorf("--summary: %s: %w", summaryFile, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--summary: %s: %w", summaryFile, err)
	}
	return nil
}

// checkSummaryFile makes sure, before the first task, that the run's row
// can be appended to path ("" for no summary file).
func checkSummaryFile(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return usagef("--summary: %v", err)
	}
	return f.Close()
}
