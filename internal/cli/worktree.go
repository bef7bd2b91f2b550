package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"reins/internal/worktree"
)

// enterWorktree starts a --worktree session: it makes a git worktree of
// the repository the working folder is in, .claude/worktrees/<name> on
// branch worktree-<name> (a name reins makes up when none is given) from
// origin/HEAD when the repository has it, else from HEAD, and
// moves the process into the matching folder there, so that everything
// the session does happens in the worktree.
// A WorktreeCreate hook, when the settings have one, makes the worktree
// instead of git; the session then works in the folder it printed.
func enterWorktree(ctx context.Context, name string, h worktreeHooks) (*sessionWorktree, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		var b [4]byte
		rand.Read(b[:]) // never fails (crypto/rand)
		name = "session-" + hex.EncodeToString(b[:])
	}
	if err := worktree.ValidName(name); err != nil {
		return nil, usageError{"--worktree: " + err.Error()}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("--worktree: working folder: %w", err)
	}
	if h.creates() {
		// The hook decides where the worktree goes and how long making it
		// takes (its own timeout bounds it).
		root := cwd
		if r, err := worktree.Root(ctx, cwd); err == nil {
			root = r
		}
		wt, err := h.create(ctx, name, root, cwd)
		if err != nil {
			return nil, fmt.Errorf("--worktree: %w", err)
		}
		if err := os.Chdir(worktreeDir(wt, cwd)); err != nil {
			return nil, fmt.Errorf("--worktree: %w", err)
		}
		return &sessionWorktree{wt: wt, byHook: true, hooks: h}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, worktreeTimeout)
	defer cancel()
	// Like Claude Code, the branch starts from the remote's default
	// branch when the repository has one, else from HEAD.
	from := worktree.RemoteDefault(ctx, cwd)
	if from == "" {
		from = "HEAD"
	}
	wt, err := worktree.CreateFrom(ctx, cwd, name, from)
	if errors.Is(err, worktree.ErrNotRepo) {
		return nil, fmt.Errorf("--worktree needs a git repository, and %s is not inside one", cwd)
	}
	if err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	sw := &sessionWorktree{wt: wt, hooks: h}
	if err := os.Chdir(worktreeDir(wt, cwd)); err != nil {
		leaveWorktree(sw, io.Discard)
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	return sw, nil
}

// sessionWorktree is the worktree of a --worktree session.
type sessionWorktree struct {
	wt *worktree.Worktree
	// byHook is set when a WorktreeCreate hook made it.
	byHook bool
	hooks  worktreeHooks
}

// leaveWorktree ends a --worktree session: an unchanged worktree is
// removed with its branch; one with changes or commits is kept, and w is
// told where it is.
func leaveWorktree(sw *sessionWorktree, w io.Writer) {
	wt := sw.wt
	// Leave the folder first: it may be about to go.
	_ = os.Chdir(wt.Root)
	ctx, cancel := context.WithTimeout(context.Background(), worktreeTimeout)
	defer cancel()
	kept, err := sw.hooks.finish(ctx, wt, sw.byHook)
	if err != nil {
		fmt.Fprintf(w, "reins: warning: %v\n", err)
	}
	switch {
	case kept && wt.Branch == "":
		fmt.Fprintf(w, "reins: the session's work is kept in the worktree %s\n", wt.Path)
	case kept:
		fmt.Fprintf(w, "reins: the session's work is kept in the worktree %s (branch %s)\n", wt.Path, wt.Branch)
	}
}
