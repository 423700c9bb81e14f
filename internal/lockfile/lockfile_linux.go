// Package lockfile marks a folder as owned by a live process with an flock
// that the kernel drops when the process dies, so that a later run can
// sweep the folders of runs that were killed. It imports nothing of this
// module.
package lockfile

import (
	"os"
	"syscall"
)

// Create creates the file at path already holding an exclusive flock on
// it: it is made and locked under a temporary name and renamed into place,
// so a sweep by another process that opens path never finds it unlocked
// while its owner lives (a sweep between creation and lock would take the
// folder for a dead run's and remove it under the new one). The lock is
// held until the file is closed; the file is close-on-exec.
func Create(path string) (*os.File, error) {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	return f, nil
}
