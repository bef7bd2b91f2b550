package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// repo makes a git repository with one commit and returns its folder.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "user.email=t@x", "-c", "user.name=t", "commit", "-qm", "first"}} {
		run(t, dir, args...)
	}
	return dir
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestCreateMakesABranchUnderClaudeWorktrees(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	w, err := Create(ctx, dir, "job-1")
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(dir)
	if w.Path != filepath.Join(root, ".claude", "worktrees", "job-1") || w.Branch != "worktree-job-1" {
		t.Errorf("worktree %+v", w)
	}
	if data, err := os.ReadFile(filepath.Join(w.Path, "a.txt")); err != nil || string(data) != "alpha\n" {
		t.Errorf("checkout: %q %v", data, err)
	}
	if got := run(t, w.Path, "branch", "--show-current"); got != "worktree-job-1" {
		t.Errorf("branch %q", got)
	}
	// The user's checkout does not list the worktree as untracked.
	if st := run(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("user's status: %q", st)
	}
	if _, err := Create(ctx, dir, "job-1"); err == nil {
		t.Error("a second worktree of the same name was made")
	}
}

func TestFinishRemovesAnUnchangedWorktreeAndKeepsAChangedOne(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	clean, err := Create(ctx, dir, "clean")
	if err != nil {
		t.Fatal(err)
	}
	if kept, err := clean.Finish(ctx); kept || err != nil {
		t.Fatalf("clean: kept %v, err %v", kept, err)
	}
	if _, err := os.Stat(clean.Path); !os.IsNotExist(err) {
		t.Errorf("clean worktree still there: %v", err)
	}
	if out := run(t, dir, "branch", "--list", clean.Branch); out != "" {
		t.Errorf("branch left: %q", out)
	}

	edited, _ := Create(ctx, dir, "edited")
	os.WriteFile(filepath.Join(edited.Path, "a.txt"), []byte("changed\n"), 0o644)
	committed, _ := Create(ctx, dir, "committed")
	os.WriteFile(filepath.Join(committed.Path, "b.txt"), []byte("new\n"), 0o644)
	run(t, committed.Path, "add", "-A")
	run(t, committed.Path, "-c", "user.email=t@x", "-c", "user.name=t", "commit", "-qm", "second")
	for _, w := range []*Worktree{edited, committed} {
		if kept, err := w.Finish(ctx); !kept || err != nil {
			t.Errorf("%s: kept %v, err %v", w.Branch, kept, err)
		}
		if _, err := os.Stat(w.Path); err != nil {
			t.Errorf("%s removed: %v", w.Branch, err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(data) != "alpha\n" {
		t.Errorf("the user's file changed: %q", data)
	}
}

func TestCreateOutsideARepositoryIsErrNotRepo(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	if _, err := Create(context.Background(), dir, "x"); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("err %v, want ErrNotRepo", err)
	}
}

func TestValidName(t *testing.T) {
	for name, ok := range map[string]bool{"feature-1": true, "a.b_c": true, "": false, "-x": false, ".x": false, "a/b": false, "a b": false, strings.Repeat("x", 65): false} {
		if err := ValidName(name); (err == nil) != ok {
			t.Errorf("ValidName(%q) = %v", name, err)
		}
	}
}

func TestParallelCreatesAndRemovalsDoNotCollide(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i := range errs {
		wg.Go(func() {
			w, err := Create(ctx, dir, fmt.Sprintf("p%d", i))
			if err == nil {
				_, err = w.Finish(ctx)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("worktree %d: %v", i, err)
		}
	}
	if b := run(t, dir, "branch", "--list", "worktree-*"); b != "" {
		t.Errorf("branches left: %q", b)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".git", "info", "exclude"))
	if n := strings.Count(string(data), "/.claude/worktrees/"); n < 1 {
		t.Errorf("info/exclude: %q", data)
	}
}

func TestCreateFromTheRemotesDefaultBranch(t *testing.T) {
	origin := repo(t)
	clone := filepath.Join(t.TempDir(), "clone")
	run(t, filepath.Dir(clone), "clone", "-q", origin, clone)
	// A local commit the remote does not have.
	os.WriteFile(filepath.Join(clone, "local.txt"), []byte("local\n"), 0o644)
	run(t, clone, "add", "-A")
	run(t, clone, "-c", "user.email=t@x", "-c", "user.name=t", "commit", "-qm", "local")
	ctx := context.Background()
	from := RemoteDefault(ctx, clone)
	if from != "origin/HEAD" {
		t.Fatalf("RemoteDefault = %q", from)
	}
	w, err := CreateFrom(ctx, clone, "s", from)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(w.Path, "local.txt")); !os.IsNotExist(err) {
		t.Errorf("the worktree has the local commit's file: %v", err)
	}
	if RemoteDefault(ctx, origin) != "" {
		t.Error("a repository without a remote has a remote default")
	}
	if _, err := CreateFrom(ctx, clone, "t", "no-such-branch"); err == nil || !strings.Contains(err.Error(), "no-such-branch names no commit") {
		t.Errorf("bad revision: %v", err)
	}
}
