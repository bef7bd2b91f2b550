//go:build unix

package fsutil

import (
	"io/fs"
	"os"
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

// sameOwner gives f, a new file that is to replace the file fi
// describes, that file's owner and group. It reports false when f is
// left with others (only root may give a file away), so the caller can
// rewrite the file in place instead.
func sameOwner(f *os.File, fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return true
	}
	return f.Chown(int(st.Uid), int(st.Gid)) == nil
}
