package report

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to dir/name atomically (a temporary file renamed
// into place), creating dir, and returns the file's path: for views, such
// as the server comparison, written beside a run's report.
func WriteFile(dir, name string, data []byte) (string, error) {
	if !SafeName(name) {
		return "", fmt.Errorf("report file name %q is not a plain file name", name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	temp, err := writeTemp(dir, name, data)
	if err != nil {
		os.Remove(temp)
		return "", err
	}
	path := filepath.Join(dir, name)
	if err := os.Rename(temp, path); err != nil {
		os.Remove(temp)
		return "", err
	}
	return path, nil
}
