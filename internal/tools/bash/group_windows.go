package bash

import (
	"os"
	"syscall"
)

// groupAttr starts bash in a process group of its own. Windows has no
// signal for a whole group, so stopping a command (signalGroup) ends the
// shell process only; what it started and left running is not reached.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// stillActive is the exit code Windows reports for a running process.
const stillActive = 259

// groupAlive reports whether the shell process pid still runs.
func groupAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer syscall.CloseHandle(h)
	var code uint32
	return syscall.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// signalGroup ends the shell process pid, whatever sig asks: Windows
// processes get no SIGTERM.
func signalGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil // already gone
	}
	defer p.Release()
	if err := p.Kill(); err != nil && groupAlive(pid) {
		return err
	}
	return nil
}
