//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts a stdio server in its own process group, so
// that the helpers it spawns (npx starts node, for instance) can be ended
// with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup ends what is left of a stdio server's process group
// once its connection is closed.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
