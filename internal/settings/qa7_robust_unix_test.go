//go:build unix

package settings

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Saving a permission rule ("don't ask again") into a settings file that
// is a named pipe is refused with an error that says what the file is;
// before, reading the pipe waited forever and the answer never returned.
func TestAddRulesRefusesANamedPipe(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), ".claude", "settings.local.json")
	if err := os.MkdirAll(filepath.Dir(pipe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- AddRules(pipe, Allow, []string{"Bash(ls:*)"}) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("AddRules is still waiting on the named pipe")
	}
	if err == nil || !strings.Contains(err.Error(), "a named pipe, not a regular file") {
		t.Fatalf("err = %v, want the pipe refused", err)
	}
	if fi, serr := os.Lstat(pipe); serr != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi, serr)
	}
}
