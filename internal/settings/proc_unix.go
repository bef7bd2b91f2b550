//go:build unix

package settings

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// KillGroupOnCancel makes cmd start its own process group and, when its
// context ends, kill the whole group, then stop waiting for output after a
// short delay. Call it before Start.
func KillGroupOnCancel(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 2 * time.Second
}

// lockDir takes an exclusive lock on the folder dir and returns the
// function that releases it. Locking the folder itself leaves no lock file
// behind in the user's project.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
