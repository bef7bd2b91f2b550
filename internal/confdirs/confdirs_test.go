package confdirs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// Started in a sub-folder of a repository, the project's folders are
// those of every folder up to the repository's root, nearest last (it
// wins); folders above the root are left out.
func TestStandardWalksUpToTheGitRoot(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	repo := filepath.Join(base, "outer", "repo")
	cwd := filepath.Join(repo, "pkg", "app")
	mkdirs(t, home, filepath.Join(repo, ".git"), cwd)
	got := Standard(home, filepath.Join(home, ".reins"), cwd)
	want := []string{
		filepath.Join(repo, ".claude"), filepath.Join(repo, ".reins"),
		filepath.Join(repo, "pkg", ".claude"), filepath.Join(repo, "pkg", ".reins"),
		filepath.Join(cwd, ".claude"), filepath.Join(cwd, ".reins"),
	}
	if !slices.Equal(got.Project, want) {
		t.Errorf("Project = %q\nwant      %q", got.Project, want)
	}
	if wantUser := []string{filepath.Join(home, ".claude"), filepath.Join(home, ".reins")}; !slices.Equal(got.User, wantUser) {
		t.Errorf("User = %q, want %q", got.User, wantUser)
	}
}

// A worktree or submodule marks its root with a .git file.
func TestStandardStopsAtAGitFile(t *testing.T) {
	base := t.TempDir()
	wt := filepath.Join(base, "wt")
	cwd := filepath.Join(wt, "sub")
	mkdirs(t, filepath.Join(base, ".git"), cwd)
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: ../.git/worktrees/wt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Standard("", "", cwd).Project
	want := []string{filepath.Join(wt, ".claude"), filepath.Join(wt, ".reins"), filepath.Join(cwd, ".claude"), filepath.Join(cwd, ".reins")}
	if !slices.Equal(got, want) {
		t.Errorf("Project = %q\nwant      %q", got, want)
	}
}

// Outside a repository the walk stops below the home folder.
func TestStandardOutsideARepositoryStopsBelowHome(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "work", "proj")
	mkdirs(t, cwd)
	got := Standard(home, "", cwd).Project
	want := []string{filepath.Join(home, "work", ".claude"), filepath.Join(home, "work", ".reins"), filepath.Join(cwd, ".claude"), filepath.Join(cwd, ".reins")}
	if !slices.Equal(got, want) {
		t.Errorf("Project = %q\nwant      %q", got, want)
	}
}
