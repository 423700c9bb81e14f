// Package transcripttest helps tests read and edit transcripts: reading a
// committed one from its file, and rehashing one a test changed on
// purpose. Production code reads transcripts through transcript.Read and
// never edits them.
package transcripttest

import (
	"fmt"
	"os"

	"contractbench/internal/transcript"
)

// ReadFile reads and checks the transcript at path; errors name the path.
func ReadFile(path string) (*transcript.Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	defer f.Close()
	return transcript.Read(f, path)
}

// Rehash sets every call's ArgsDigest to the digest of its Args, for a
// test that edits a transcript deliberately (plants a wrong URL): after
// Rehash the edit is part of the recording rather than drift.
func Rehash(t *transcript.Transcript) error {
	for i := range t.Calls {
		d, err := transcript.ArgsDigest(t.Calls[i].Args)
		if err != nil {
			return fmt.Errorf("seq %d: args: %w", t.Calls[i].Seq, err)
		}
		t.Calls[i].ArgsDigest = d
	}
	return nil
}
