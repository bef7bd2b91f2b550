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

// A project's CLAUDE.md cannot pull files from outside the project into
// the prompt (a cloned repository importing @~/.ssh/id_rsa) unless the
// user approved external imports; the user's own memory can.
func TestProjectMemoryImportsStayInsideTheProject(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"h/.ssh/id_rsa":       "PRIVATE-KEY",
		"h/notes.md":          "USER-NOTES",
		"h/.claude/CLAUDE.md": "mine: @~/notes.md",
		"outside.md":          "OUTSIDE",
		"p/CLAUDE.md":         "see @~/.ssh/id_rsa and @../outside.md and @docs/in.md",
		"p/docs/in.md":        "INSIDE",
	})
	load := func(external bool) (string, string) {
		m := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "p"), Home: filepath.Join(root, "h"), ManagedDirs: []string{}, TopDir: root, ExternalImports: external})
		var got []string
		for _, f := range m.Files() {
			got = append(got, f.Content)
		}
		return strings.Join(got, "|"), strings.Join(m.Warnings(), "\n")
	}
	got, warns := load(false)
	if strings.Contains(got, "PRIVATE-KEY") || strings.Contains(got, "OUTSIDE") {
		t.Errorf("external files were imported without approval: %q", got)
	}
	if !strings.Contains(got, "INSIDE") || !strings.Contains(got, "USER-NOTES") {
		t.Errorf("imports inside the project or from user memory are missing: %q", got)
	}
	if !strings.Contains(warns, "id_rsa") || !strings.Contains(warns, "outside the project") {
		t.Errorf("warnings = %q", warns)
	}
	if got, _ := load(true); !strings.Contains(got, "PRIVATE-KEY") || !strings.Contains(got, "OUTSIDE") {
		t.Errorf("approved external imports were not loaded: %q", got)
	}
}
