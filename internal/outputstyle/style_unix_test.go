//go:build unix

package outputstyle

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe called *.md in a styles folder is skipped: reading it
// would wait for a writer forever.
func TestNamedPipeIsNotReadAsAStyle(t *testing.T) {
	user := t.TempDir()
	write(t, filepath.Join(user, "output-styles", "ok.md"), "fine\n")
	if err := syscall.Mkfifo(filepath.Join(user, "output-styles", "pipe.md"), 0o644); err != nil {
		t.Skip(err)
	}
	all, _ := Load(Roots{User: []string{user}})
	if _, ok := Match(all, "ok"); !ok {
		t.Error("the regular style was lost")
	}
	if _, ok := Match(all, "pipe"); ok {
		t.Error("the pipe became a style")
	}
}
