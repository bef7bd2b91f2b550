package cli

import (
	"os"
	"path/filepath"
	"testing"

	"reins/internal/worktree"
)

func TestWorktreeDirMatchesTheSessionFolder(t *testing.T) {
	root := t.TempDir()
	wt := &worktree.Worktree{Root: root, Path: filepath.Join(root, ".claude", "worktrees", "x")}
	os.MkdirAll(filepath.Join(wt.Path, "src", "pkg"), 0o755)
	os.MkdirAll(filepath.Join(root, "src", "pkg"), 0o755)
	os.MkdirAll(filepath.Join(root, "build"), 0o755) // untracked: not in the worktree
	for cwd, want := range map[string]string{
		root:                              wt.Path,
		filepath.Join(root, "src", "pkg"): filepath.Join(wt.Path, "src", "pkg"),
		filepath.Join(root, "build"):      wt.Path,
		filepath.Dir(root):                wt.Path,
	} {
		if got := worktreeDir(wt, cwd); got != want {
			t.Errorf("worktreeDir(%s) = %s, want %s", cwd, got, want)
		}
	}
}
