//go:build !linux

package servers

import (
	"os"
	"os/exec"
)

// inGroup leaves cmd as it is: process groups are handled on Linux only.
func inGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// NewWorkDir creates an empty scratch folder for one task's tool server;
// remove deletes it.
func NewWorkDir() (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", "contractbench-server-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}
