//go:build unix

package tui

import "golang.org/x/sys/unix"

// jobControl reports whether a shell with job control started reins: it
// runs in a process group of its own within the session, so a stopped
// reins can be brought back with fg. A program run by a script or a
// process manager shares the session leader's group; stopped there, or in
// an orphaned group where the stop is dropped, it would never come back.
func jobControl() bool {
	sid, err := unix.Getsid(0)
	if err != nil {
		return false
	}
	return unix.Getpgrp() != sid
}
