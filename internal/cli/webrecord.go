package cli

import (
	"cmp"
	"fmt"
	"path/filepath"

	"contractbench/internal/webreplay"
)

// recordedArchiveDir is where --web record writes what it captured when
// --record-to is not given: beside the suite's hand-made web/, never over
// it, so a capture is reviewed before it replaces the replicas.
func recordedArchiveDir(suiteDir, recordTo string) string {
	return cmp.Or(recordTo, filepath.Join(suiteDir, "web-recorded"))
}

// saveRecording writes what rec, a --web record run's recorder, captured,
// in the archive format replay reads, and lists the requests the real
// sites did not answer. It does nothing for other web modes (no rec).
func saveRecording(st *State, rec *webreplay.Recorder, dir string) error {
	if rec == nil {
		return nil
	}
	archive := rec.Archive()
	if err := archive.Write(dir); err != nil {
		return fmt.Errorf("write the recorded archive: %w", err)
	}
	fmt.Fprintf(st.Stdout, "recorded %d host(s) into %s\n", len(archive.Hosts()), dir)
	for _, m := range rec.Misses() {
		fmt.Fprintf(st.Stdout, "  not recorded: %s %s: %s\n", m.Method, m.URL, m.Reason)
	}
	return nil
}
