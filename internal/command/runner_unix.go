//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in its own process group and makes cancelling kill
// the whole group, so children of the shell stop too.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
