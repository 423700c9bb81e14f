//go:build !unix

package agent

import "os/exec"

// ownGroup does nothing where process groups do not exist; the agent's
// own process is still ended at the timeout.
func ownGroup(*exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) { killGroup(cmd) }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
