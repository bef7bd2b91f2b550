// Package worktree creates and removes the temporary git worktrees that
// isolate work from the user's checkout: a sub-agent started with
// isolation "worktree", and a whole session started with --worktree. Each
// worktree lives under <repository root>/.claude/worktrees/<name>, on a
// new branch worktree-<name> made from the checkout's HEAD or another
// revision (CreateFrom), as Claude Code lays them out.
//
// The package runs the git command; it never touches the user's checkout
// beyond `git worktree add` and, once, adding .claude/worktrees/ to the
// repository's info/exclude so the worktrees do not show up as untracked
// files there.
package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Dir is the folder, relative to the repository root, that holds the
// worktrees.
const Dir = ".claude/worktrees"

// ErrNotRepo is returned by Create for a folder outside any git
// repository.
var ErrNotRepo = errors.New("not inside a git repository")

// waitDelay bounds how long a git command may outlive its cancelled
// context.
const waitDelay = 5 * time.Second

// Worktree is a worktree Create made.
type Worktree struct {
	// Path is the worktree's folder; Branch the branch checked out there.
	Path   string
	Branch string
	// Root is the root of the repository it was made from.
	Root string
	// Base is the commit the branch started at.
	Base string
}

// git runs git in dir and returns its trimmed standard output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.WaitDelay = waitDelay
	// A hook's or the user's environment must not point the command at
	// another repository.
	cmd.Env = without(os.Environ(), "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(out.String()), nil
}

// without returns env without the entries that set one of names.
func without(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || k == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// Root returns the root of the work tree dir is in, or ErrNotRepo.
func Root(ctx context.Context, dir string) (string, error) {
	root, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if errors.Is(err, exec.ErrNotFound) {
		return "", fmt.Errorf("worktree: git is not installed: %w", err)
	}
	if err != nil || root == "" {
		return "", fmt.Errorf("%s: %w", dir, ErrNotRepo)
	}
	return root, nil
}

// ValidName reports whether name can name a worktree: letters, digits,
// dots, underscores and dashes, at most 64 characters, not starting with
// a dot or dash.
func ValidName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("worktree name %q: want 1 to 64 characters", name)
	}
	if name[0] == '.' || name[0] == '-' {
		return fmt.Errorf("worktree name %q: must not start with a dot or a dash", name)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return fmt.Errorf("worktree name %q: only letters, digits, dots, underscores and dashes", name)
		}
	}
	return nil
}

// Create makes a worktree named name for the repository dir is in: the
// folder <root>/.claude/worktrees/<name> on a new branch worktree-<name>
// from HEAD. It fails with ErrNotRepo outside a repository, and when the
// folder or the branch already exists.
func Create(ctx context.Context, dir, name string) (*Worktree, error) {
	return CreateFrom(ctx, dir, name, "HEAD")
}

// CreateFrom is Create with the branch made from rev (a commit, branch or
// other revision) instead of HEAD.
func CreateFrom(ctx context.Context, dir, name, rev string) (*Worktree, error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	root, err := Root(ctx, dir)
	if err != nil {
		return nil, err
	}
	base, err := git(ctx, root, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if rev == "HEAD" {
			return nil, fmt.Errorf("create worktree %s: the repository at %s has no commit yet to branch from", name, root)
		}
		return nil, fmt.Errorf("create worktree %s: %s names no commit in %s", name, rev, root)
	}
	w := &Worktree{Path: filepath.Join(root, filepath.FromSlash(Dir), name), Branch: "worktree-" + name, Root: root, Base: base}
	if _, err := os.Lstat(w.Path); err == nil {
		return nil, fmt.Errorf("create worktree %s: %s already exists", name, w.Path)
	}
	common, err := commonDir(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("create worktree %s: %w", name, err)
	}
	unlock, err := lockRepo(ctx, common)
	if err != nil {
		return nil, fmt.Errorf("create worktree %s: %w", name, err)
	}
	defer unlock()
	excludeWorktrees(common)
	if _, err := git(ctx, root, "worktree", "add", "-b", w.Branch, w.Path, base); err != nil {
		return nil, fmt.Errorf("create worktree %s: %w", name, err)
	}
	return w, nil
}

// RemoteDefault returns "origin/HEAD" when the repository dir is in knows
// its remote's default branch, else "".
func RemoteDefault(ctx context.Context, dir string) string {
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "origin/HEAD^{commit}"); err != nil {
		return ""
	}
	return "origin/HEAD"
}

// commonDir is the repository's shared git folder (the main checkout's
// .git, also for a linked worktree).
func commonDir(ctx context.Context, root string) (string, error) {
	common, err := git(ctx, root, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil || common == "" {
		return "", fmt.Errorf("find the git folder of %s: %w", root, err)
	}
	return common, nil
}

// excludeWorktrees adds the worktrees folder to the repository's
// info/exclude, once, so the user's `git status` does not list them. A
// failure only leaves them listed.
func excludeWorktrees(common string) {
	path := filepath.Join(common, "info", "exclude")
	line := "/" + Dir + "/"
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == line {
			return
		}
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		line = "\n" + line
	}
	f.WriteString(line + "\n")
}

// Changed reports whether anything happened in the worktree: files
// changed, added or removed (ignored files aside), commits made on its
// branch, or another worktree made inside it (an isolated sub-agent's of
// a --worktree session, kept with its work or still in use: git's status
// does not show it, since the worktrees folder is excluded, and removing
// the outer folder would delete it).
func (w *Worktree) Changed(ctx context.Context) (bool, error) {
	inner, err := w.holdsWorktree(ctx)
	if err != nil || inner {
		return inner, err
	}
	status, err := git(ctx, w.Path, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return false, fmt.Errorf("check worktree %s: %w", w.Path, err)
	}
	if status != "" {
		return true, nil
	}
	head, err := git(ctx, w.Path, "rev-parse", "HEAD")
	if err != nil {
		return false, fmt.Errorf("check worktree %s: %w", w.Path, err)
	}
	return head != w.Base, nil
}

// holdsWorktree reports whether another worktree of the repository has
// its folder inside w's.
func (w *Worktree) holdsWorktree(ctx context.Context) (bool, error) {
	list, err := git(ctx, w.Root, "worktree", "list", "--porcelain")
	if err != nil {
		return false, fmt.Errorf("check worktree %s: %w", w.Path, err)
	}
	outer := w.Path
	if real, err := filepath.EvalSymlinks(outer); err == nil {
		outer = real
	}
	for _, line := range strings.Split(list, "\n") {
		p, ok := strings.CutPrefix(line, "worktree ")
		if !ok {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		} else {
			continue // its folder is gone: nothing to lose
		}
		if rel, err := filepath.Rel(outer, p); err == nil && rel != "." && rel != ".." &&
			!strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true, nil
		}
	}
	return false, nil
}

// Remove deletes the worktree's folder and its branch, changes or not.
func (w *Worktree) Remove(ctx context.Context) error {
	common, err := commonDir(ctx, w.Root)
	if err != nil {
		return fmt.Errorf("remove worktree %s: %w", w.Path, err)
	}
	unlock, err := lockRepo(ctx, common)
	if err != nil {
		return fmt.Errorf("remove worktree %s: %w", w.Path, err)
	}
	defer unlock()
	var errs []error
	if _, err := git(ctx, w.Root, "worktree", "remove", "--force", w.Path); err != nil {
		errs = append(errs, fmt.Errorf("remove worktree %s: %w", w.Path, err))
	}
	if _, err := git(ctx, w.Root, "branch", "-D", w.Branch); err != nil {
		errs = append(errs, fmt.Errorf("remove worktree branch %s: %w", w.Branch, err))
	}
	return errors.Join(errs...)
}

// Finish removes the worktree when nothing changed in it and reports
// whether it was kept. A worktree whose state cannot be read is kept:
// losing work is worse than leaving a folder.
func (w *Worktree) Finish(ctx context.Context) (kept bool, err error) {
	changed, err := w.Changed(ctx)
	if err != nil || changed {
		return true, err
	}
	if err := w.Remove(ctx); err != nil {
		return true, err
	}
	return false, nil
}
