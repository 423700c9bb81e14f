package report

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "reports")
	path, err := WriteFile(dir, "abc-servers.md", []byte("| table |\n"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "| table |\n" {
		t.Errorf("read back %q, %v", data, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644 like the other report files", fi.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the report folder, want only the written one (no temporary left)", len(entries))
	}
	if _, err := WriteFile(dir, "../escape.md", nil); err == nil {
		t.Error("WriteFile accepted a name with a path in it")
	}
}
