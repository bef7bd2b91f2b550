//go:build unix

package mcp

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A .mcp.json that is a named pipe is refused with what it is, instead of
// a read that waits forever for a writer.
func TestProjectServersFileThatIsAPipeIsRefusedNotWaitedOn(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ProjectFile), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readProject(dir)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
			t.Errorf("err = %v, want the pipe refused", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("still reading the named pipe")
	}
}
