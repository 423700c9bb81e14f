package servers

import (
	"contractbench/internal/lockfile"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// inGroup makes cmd the leader of a process group of its own, so that the
// whole tree it starts (a shell's children, node's workers) can be killed
// at once, and kills it if this process dies first.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills every process left in cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// A task's scratch folder outlives a process killed before it could
// remove it. Like the browser's launch folders, each holds a lock file for
// as long as its owner runs; the kernel drops the lock when the owner dies,
// and NewWorkDir removes the folders whose lock is free.
const (
	workDirPrefix = "contractbench-server-"
	workDirLock   = ".contractbench-owner.lock"
)

// NewWorkDir creates an empty scratch folder for one task's tool server in
// the system's temporary folder, after removing the ones left behind by
// runs that were killed. remove deletes it when the task is done.
func NewWorkDir() (dir string, remove func(), err error) {
	sweepWorkDirs(os.TempDir())
	dir, err = os.MkdirTemp("", workDirPrefix)
	if err != nil {
		return "", nil, err
	}
	// Locked before it has its name: a sweep by another run must never
	// find this folder's lock file unlocked (lockfile.Create).
	lock, err := lockfile.Create(filepath.Join(dir, workDirLock))
	if err != nil {
		return "", nil, errors.Join(fmt.Errorf("locking %s: %w", dir, err), os.RemoveAll(dir))
	}
	return dir, func() {
		os.RemoveAll(dir)
		lock.Close()
	}, nil
}

// sweepWorkDirs removes the scratch folders in parent whose owner is gone.
// A folder without a lock file is being created, or is not one of these.
func sweepWorkDirs(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, workDirPrefix+"*"))
	for _, dir := range dirs {
		f, err := os.Open(filepath.Join(dir, workDirLock))
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.RemoveAll(dir)
		}
		f.Close()
	}
}
