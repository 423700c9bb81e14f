package browser

import (
	"contractbench/internal/lockfile"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// A launch killed before Close (SIGKILL, a test binary's timeout) cannot
// remove its directory; Chromium dies with it (Pdeathsig), the directory
// stays. Each launch therefore holds an flock on a file in its directory
// for as long as it runs, the kernel drops the lock when the owner dies,
// and every Launch removes the directories in its parent whose lock is
// free.
const (
	launchDirPrefix = "cbchrome-"
	lockName        = "owner.lock"
)

// lockLaunchDir takes the lock that marks dir as in use; it is held until
// the returned file is closed. The file is close-on-exec, so Chromium does
// not inherit it and the lock lives exactly as long as this process needs
// the directory.
//
// The lock file is locked under another name and only then renamed into
// place, so a sweep by another process never sees it unlocked: a sweep
// between its creation and its lock would take the directory for a dead
// run's and remove it under the new one.
func lockLaunchDir(dir string) (*os.File, error) {
	f, err := lockfile.Create(filepath.Join(dir, lockName))
	if err != nil {
		return nil, fmt.Errorf("locking browser directory %s: %w", dir, err)
	}
	return f, nil
}

// sweepStale removes the launch directories in parent whose owner is gone.
// A directory without a lock file is left alone: it is being created, or
// is not a launch directory.
func sweepStale(parent string) error {
	if parent == "" {
		parent = os.TempDir()
	}
	dirs, err := filepath.Glob(filepath.Join(parent, launchDirPrefix+"*"))
	if err != nil {
		return err
	}
	var errs []error
	for _, dir := range dirs {
		f, err := os.Open(filepath.Join(dir, lockName))
		if err != nil {
			continue
		}
		// Holding the lock while removing keeps two sweeps from racing.
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			if err := os.RemoveAll(dir); err != nil {
				errs = append(errs, fmt.Errorf("removing stale browser directory: %w", err))
			}
		}
		f.Close()
	}
	return errors.Join(errs...)
}
