//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in a session of its own (and so a process group of
// its own) and makes cancelling kill the whole group, so children of the
// shell stop too. The session has no controlling terminal, as the Bash
// tool's commands have none: a line that asks on /dev/tty (a password
// prompt) fails at once instead of waiting on the user's terminal, and
// nothing is written over the terminal UI.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
