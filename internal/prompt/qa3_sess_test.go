package prompt

import (
	"path/filepath"
	"strings"
	"testing"
)

// A forked Memory (a sub-agent's) starts from the files loaded at start:
// it is told of a sub-folder's memory even when the conversation it was
// forked from was told already, and telling it does not touch the other.
func TestForkedMemoryLoadsNestedFilesOnItsOwn(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"p/CLAUDE.md":       "top",
		"p/sub/CLAUDE.md":   "SUB-MEMORY",
		"p/sub/a.go":        "package sub",
		"p/other/CLAUDE.md": "OTHER-MEMORY",
		"p/other/b.go":      "package other",
	})
	m := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "p"), Home: filepath.Join(root, "h"), ManagedDirs: []string{}, TopDir: root})
	if got := m.Touch(filepath.Join(root, "p/sub/a.go")); !strings.Contains(got, "SUB-MEMORY") {
		t.Fatalf("main Touch = %q", got)
	}
	f := m.Fork()
	if len(f.Files()) != len(m.Files()) {
		t.Errorf("fork has %d start files, want %d", len(f.Files()), len(m.Files()))
	}
	if got := f.Touch(filepath.Join(root, "p/sub/a.go")); !strings.Contains(got, "SUB-MEMORY") {
		t.Errorf("fork Touch of sub = %q; want the sub-folder's memory", got)
	}
	if got := f.Touch(filepath.Join(root, "p/other/b.go")); !strings.Contains(got, "OTHER-MEMORY") {
		t.Errorf("fork Touch of other = %q", got)
	}
	if got := m.Touch(filepath.Join(root, "p/other/b.go")); !strings.Contains(got, "OTHER-MEMORY") {
		t.Errorf("main Touch of other after the fork's = %q; want the memory (the fork's state is its own)", got)
	}
}

// Each folder's CLAUDE.local.md comes right after that folder's project
// files, as in Claude Code: a folder nearer to the working folder comes
// later (and so takes precedence), local file or not.
func TestLocalMemoryLoadsWithItsFolder(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"outer/CLAUDE.md":         "outer project",
		"outer/CLAUDE.local.md":   "outer local",
		"outer/p/CLAUDE.md":       "inner project",
		"outer/p/CLAUDE.local.md": "inner local",
	})
	m := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "outer/p"), Home: filepath.Join(root, "h"), ManagedDirs: []string{}, TopDir: root})
	var got []string
	for _, f := range m.Files() {
		got = append(got, f.Content)
	}
	want := "outer project|outer local|inner project|inner local"
	if strings.Join(got, "|") != want {
		t.Errorf("order %q, want %q", strings.Join(got, "|"), want)
	}
}
