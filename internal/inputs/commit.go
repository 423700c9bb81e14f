package inputs

import (
	"bytes"
	"os/exec"
	"strings"
	"time"
)

// Commit is the version of the inputs in dir that names a run's report:
// the short commit of the tree dir is in, with -dirty when it has
// uncommitted changes, or "nogit-" and now outside a repository.
func Commit(dir string, now time.Time) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "nogit-" + now.UTC().Format("20060102T150405Z")
	}
	sha := strings.TrimSpace(string(out))
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	if err == nil && len(bytes.TrimSpace(status)) > 0 {
		sha += "-dirty"
	}
	return sha
}
