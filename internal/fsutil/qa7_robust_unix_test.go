//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadRegularFileMax refuses a named pipe without opening it (opening
// waits for a writer), and a file over the limit with its size and the
// limit; a file within the limit is read whole.
func TestReadRegularFileMaxRefusesPipesAndLargeFiles(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadRegularFileMax(pipe, 100); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe, not a regular file") {
			t.Errorf("pipe: err = %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ReadRegularFileMax waits on a named pipe")
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, make([]byte, 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRegularFileMax(big, 2<<20); err == nil || !strings.Contains(err.Error(), "is too large (3.0 MB; the limit is 2.0 MB)") {
		t.Errorf("big: err = %v", err)
	}
	if data, err := ReadRegularFileMax(big, 3<<20); err != nil || len(data) != 3<<20 {
		t.Errorf("at the limit: %d bytes, %v", len(data), err)
	}
}
