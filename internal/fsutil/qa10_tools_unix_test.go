//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Edit and Write replace a file through a new file renamed over it. Run
// as root (in a container, or with sudo) on a user's file, that new file
// belonged to root, so every edited file changed owner and its user could
// no longer write it. The replacement keeps the file's owner and group.
func TestQA10WriteFileKeepsTheFilesOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	p := filepath.Join(t.TempDir(), "user.txt")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const uid, gid = 12345, 23456
	if err := os.Chown(p, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != uid || st.Gid != gid {
		t.Errorf("after the write the file belongs to %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("content = %q", b)
	}
}
