package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"reins/internal/hooks"
	"reins/internal/worktree"
)

// worktreeTimeout bounds the git commands that make, check and remove a
// sub-agent's worktree.
const worktreeTimeout = 30 * time.Second

// makeWorktree gives an isolated sub-agent its git worktree and makes the
// matching folder in it (the session's folder relative to the repository
// root) its working folder.
// A WorktreeCreate hook, when the session has one, makes it instead.
func (c *agentConv) makeWorktree(ctx context.Context) error {
	name := "agent-" + c.spec.AgentID
	if h := c.a.worktreeHooks(); h.creates() {
		root := c.a.cwd
		if r, err := worktree.Root(ctx, c.a.cwd); err == nil {
			root = r
		}
		wt, err := h.create(ctx, name, root, c.a.projDir)
		if err != nil {
			return fmt.Errorf("isolation worktree: %w", err)
		}
		c.wt, c.wtByHook = wt, true
		c.cwd = worktreeDir(wt, c.a.cwd)
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, worktreeTimeout)
	defer cancel()
	wt, err := worktree.Create(ctx, c.a.cwd, name)
	if errors.Is(err, worktree.ErrNotRepo) {
		return fmt.Errorf("isolation %q needs a git repository, and %s is not inside one; start the agent without isolation", "worktree", c.a.cwd)
	}
	if err != nil {
		return fmt.Errorf("isolation worktree: %w", err)
	}
	c.wt = wt
	c.cwd = worktreeDir(wt, c.a.cwd)
	return nil
}

// worktreeDir is the folder in wt that matches cwd in the checkout wt was
// made from: the worktree's root when cwd is the repository root, cannot
// be placed in it, or is a folder the worktree lacks (one git does not
// track).
func worktreeDir(wt *worktree.Worktree, cwd string) string {
	real := cwd
	if r, err := filepath.EvalSymlinks(cwd); err == nil {
		real = r
	}
	root := wt.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return wt.Path
	}
	dir := filepath.Join(wt.Path, rel)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return wt.Path
	}
	return dir
}

// worktreeHooks are the session's WorktreeCreate and WorktreeRemove
// hooks.
func (a *app) worktreeHooks() worktreeHooks {
	return worktreeHooks{run: a.hookRun, input: func() hooks.Input { return a.hookInput("", nil) }}
}

// worktreeReminder tells an isolated sub-agent where it works.
func worktreeReminder(wt *worktree.Worktree, cwd string) string {
	if wt.Branch == "" {
		// A WorktreeCreate hook made it: no branch reins knows of.
		return fmt.Sprintf("<system-reminder>\nYou are working in a worktree of your own at %s, a separate copy of the project at %s. Your working folder is %s: read, edit and run commands there, not in %s. Whatever you change stays in this worktree for the caller to review.\n</system-reminder>",
			wt.Path, wt.Root, cwd, wt.Root)
	}
	return fmt.Sprintf("<system-reminder>\nYou are working in a git worktree of your own at %s (branch %s), a separate checkout of the repository at %s. Your working folder is %s: read, edit and run commands there, not in %s. Whatever you change stays in this worktree for the caller to review.\n</system-reminder>",
		wt.Path, wt.Branch, wt.Root, cwd, wt.Root)
}

// finishWorktree removes the sub-agent's worktree when nothing changed in
// it, once, and returns its path and branch when it was kept. A failure
// keeps it and tells the user.
func (c *agentConv) finishWorktree() (path, branch string) {
	if c.wt == nil {
		return "", ""
	}
	c.wtDone.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), worktreeTimeout)
		defer cancel()
		kept, err := c.a.worktreeHooks().finish(ctx, c.wt, c.wtByHook)
		if err != nil {
			c.a.notify("warning", fmt.Sprintf("agent %s: %v", c.spec.AgentID, err))
		}
		if kept {
			path, branch = c.wt.Path, c.wt.Branch
		}
	})
	return path, branch
}
