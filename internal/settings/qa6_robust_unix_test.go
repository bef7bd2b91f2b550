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

// A settings file that is a named pipe (or a folder) is skipped with a
// warning that says what it is; reading the pipe waited forever, and the
// start could not even be stopped with a signal.
func TestSettingsFileThatIsAPipeOrFolderIsSkippedNotWaitedOn(t *testing.T) {
	e := newEnv(t)
	pipe := filepath.Join(e.claude, "settings.json")
	e.write(filepath.Join(e.claude, "keep"), "")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	folder := filepath.Join(e.project, ".claude", "settings.json")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	o := e.opts()
	o.ClaudeDir = e.claude
	done := make(chan []Warning, 1)
	go func() {
		_, w := e.load(o)
		done <- w
	}()
	var warns []Warning
	select {
	case warns = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Load is still reading the named pipe")
	}
	all := ""
	for _, w := range warns {
		all += w.String() + "\n"
	}
	for _, want := range []string{pipe + " is a named pipe, not a regular file", folder + " is a folder, not a regular file"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}
