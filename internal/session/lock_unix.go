//go:build unix

package session

import (
	"errors"
	"os"
	"syscall"
)

// shareLock marks f as being recorded into by this process: a shared
// flock, which every writer of the file can hold at once and which lasts
// until f is closed. A failure only leaves Busy blind to this writer.
func shareLock(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
}

// Busy reports whether another process holds the transcript at path open
// for recording (a reins that is running the same session). Call it
// before this process's own Writer of path opens the file.
func Busy(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}
