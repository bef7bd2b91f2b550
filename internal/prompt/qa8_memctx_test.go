package prompt

import (
	"path/filepath"
	"strings"
	"testing"
)

// The --add-dir folders' memory files (at start and in their
// sub-folders) load only when asked for, as Claude Code loads them only
// with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD set; project memory
// may still import files from those folders.
func TestAddDirMemoryLoadsOnlyWhenAsked(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"repo/CLAUDE.md":           "Repo memory. @../extra/shared.md",
		"extra/shared.md":          "SHARED-IMPORT",
		"extra/CLAUDE.md":          "EXTRA-TOP",
		"extra/.claude/rules/r.md": "EXTRA-RULE",
		"extra/pkg/CLAUDE.md":      "EXTRA-NESTED",
		"extra/pkg/a.go":           "package pkg",
	})
	o := MemoryOptions{Cwd: filepath.Join(root, "repo"), Home: filepath.Join(root, "home"), ManagedDirs: []string{},
		AddDirs: []string{filepath.Join(root, "extra")}, TopDir: root}
	for _, on := range []bool{false, true} {
		o.AddDirMemory = on
		m := LoadMemory(o)
		ctx := m.UserContext("2026-01-01")
		nested := m.Touch(filepath.Join(root, "extra", "pkg", "a.go"))
		if !strings.Contains(ctx, "SHARED-IMPORT") {
			t.Errorf("AddDirMemory=%v: project memory's import from the --add-dir folder was not loaded:\n%s\n%q", on, ctx, m.Warnings())
		}
		for _, s := range []string{"EXTRA-TOP", "EXTRA-RULE"} {
			if strings.Contains(ctx, s) != on {
				t.Errorf("AddDirMemory=%v: context has %s = %v", on, s, !on)
			}
		}
		if strings.Contains(nested, "EXTRA-NESTED") != on {
			t.Errorf("AddDirMemory=%v: reading in the folder gave %q", on, nested)
		}
	}
}
