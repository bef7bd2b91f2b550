//go:build unix

package fsutil

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// writable reports whether this process may write the file.
func writable(path string) bool { return unix.Access(path, unix.W_OK) == nil }

// linkCount is the number of hard links to the file.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
