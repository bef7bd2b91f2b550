//go:build !windows

package bash

import (
	"errors"
	"syscall"
)

// groupAttr starts bash as the leader of a session (and so of a process
// group) of its own, so that stopping a command reaches everything it
// started. The new session has no controlling terminal: a command that
// asks on /dev/tty (ssh's host-key question, a git or sudo password
// prompt) fails at once instead of being stopped by the terminal until
// its timeout, and nothing is written over the terminal UI.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// groupAlive reports whether process group pgid has a process left.
func groupAlive(pgid int) bool {
	return pgid > 0 && syscall.Kill(-pgid, 0) == nil
}

// signalGroup sends sig to process group pgid; a group already gone is
// not an error.
func signalGroup(pgid int, sig syscall.Signal) error {
	if pgid <= 0 {
		return nil
	}
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
