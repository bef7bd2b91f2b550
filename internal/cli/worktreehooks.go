package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"reins/internal/hooks"
	"reins/internal/session"
	"reins/internal/settings"
	"reins/internal/trust"
	"reins/internal/worktree"
)

// worktreeHooks runs the WorktreeCreate and WorktreeRemove hooks of a
// session: a WorktreeCreate hook makes the worktree in place of git (for
// a version control system other than git, or a layout of the user's
// own), and WorktreeRemove hooks hear that one is about to go.
type worktreeHooks struct {
	run *hooks.Runner
	// input gives the common fields of a hook's input.
	input func() hooks.Input
}

// creates reports whether a WorktreeCreate hook makes worktrees.
func (h worktreeHooks) creates() bool {
	return h.run != nil && h.run.Has(hooks.WorktreeCreate)
}

// create runs the WorktreeCreate hooks for a worktree called name and
// returns the worktree the first of them made: the folder a command hook
// printed as the last non-empty line of its stdout (an http hook gives
// hookSpecificOutput.worktreePath), relative to the folder hooks run in
// unless absolute. A hook that fails, blocks or names no folder fails
// the creation: git is not tried instead, as in Claude Code. root is the
// repository (or folder) the worktree is made for.
func (h worktreeHooks) create(ctx context.Context, name, root, hookDir string) (*worktree.Worktree, error) {
	in := h.input()
	in.Event, in.Name = hooks.WorktreeCreate, name
	r := h.run.Run(ctx, in)
	names := make([]string, 0, len(r.Outputs))
	for _, o := range r.Outputs {
		names = append(names, o.Name)
	}
	switch {
	case r.Block:
		return nil, fmt.Errorf("WorktreeCreate hook failed: %s", r.Reason)
	case len(r.Errors) > 0:
		return nil, fmt.Errorf("WorktreeCreate hook failed: %s", strings.Join(r.Errors, "; "))
	case r.Stop:
		return nil, fmt.Errorf("WorktreeCreate hook failed: it said to stop: %s", firstNonEmpty(r.StopReason, "no reason given"))
	case r.WorktreePath == "":
		return nil, fmt.Errorf("WorktreeCreate hook failed: %s: no output (it must print the worktree's absolute path on stdout)", strings.Join(names, ", "))
	}
	path := r.WorktreePath
	if !filepath.IsAbs(path) {
		path = filepath.Join(hookDir, path)
	}
	path = filepath.Clean(path)
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("WorktreeCreate hook printed %s, which is not a folder reins can enter", path)
	}
	return &worktree.Worktree{Path: path, Root: root}, nil
}

// finish ends a worktree the session made and reports whether it was
// kept. A git worktree goes when nothing changed in it, the
// WorktreeRemove hooks hearing of it first; one a WorktreeCreate hook
// made goes to the WorktreeRemove hooks, which decide what to do with it
// (reins cannot tell whether it holds work), and stays on disk when there
// are none. What WorktreeRemove hooks say is not shown: they cannot block
// the removal.
func (h worktreeHooks) finish(ctx context.Context, wt *worktree.Worktree, byHook bool) (kept bool, err error) {
	hasRemove := h.run != nil && h.run.Has(hooks.WorktreeRemove)
	if byHook {
		if !hasRemove {
			return true, nil
		}
		h.remove(ctx, wt.Path)
		return false, nil
	}
	changed, err := wt.Changed(ctx)
	if err != nil || changed {
		return true, err
	}
	if hasRemove {
		h.remove(ctx, wt.Path)
	}
	if err := wt.Remove(ctx); err != nil {
		return true, err
	}
	return false, nil
}

// remove runs the WorktreeRemove hooks for the worktree at path.
func (h worktreeHooks) remove(ctx context.Context, path string) {
	in := h.input()
	in.Event, in.WorktreePath = hooks.WorktreeRemove, path
	h.run.Run(ctx, in)
}

// sessionWorktreeHooks loads the hooks a --worktree session started in
// cwd would run, for its WorktreeCreate and WorktreeRemove hooks: the
// worktree is made before the session's settings are read in it. The
// project's settings count once the folder is trusted (always outside
// the terminal UI, as for the session itself). It returns a zero value
// when the settings cannot be read (the session reports that itself) or
// hooks are off.
func sessionWorktreeHooks(ctx context.Context, env *Env, o *Options, cwd string, tui bool) worktreeHooks {
	if o.Bare {
		return worktreeHooks{}
	}
	home, err := homeDir(env.Getenv)
	if err != nil {
		return worktreeHooks{}
	}
	configDir := session.ConfigDir(env.Getenv, home)
	trusted := true
	if tui {
		ts := &trust.Store{ConfigDir: configDir, ClaudeJSON: trust.ClaudeJSONPath(env.Getenv, home), Home: home}
		trusted, _ = ts.IsTrusted(cwd)
	}
	opts := settings.Options{Cwd: cwd, ProjectDir: cwd, Home: home, ConfigDir: configDir,
		ClaudeDir: settings.ClaudeConfigDir(env.Getenv, home), CLISettings: o.Settings,
		ParentManaged: o.ManagedSettings, Trusted: trusted, Getenv: env.Getenv}
	if o.SourcesSet {
		srcs, err := settings.ParseSources(o.SettingSources)
		if err != nil {
			return worktreeHooks{}
		}
		opts.Sources = srcs
	}
	s, _, err := settings.Load(ctx, opts)
	if err != nil || (len(s.Hooks[string(hooks.WorktreeCreate)]) == 0 && len(s.Hooks[string(hooks.WorktreeRemove)]) == 0) {
		return worktreeHooks{}
	}
	environ := func() []string {
		e := os.Environ()
		for k, v := range s.Env {
			e = append(e, k+"="+v)
		}
		return e
	}
	run := hooks.New(hooks.Config{Hooks: s.Hooks, ProjectDir: cwd, Environ: environ})
	return worktreeHooks{run: run, input: func() hooks.Input {
		wd, _ := os.Getwd()
		return hooks.Input{SessionID: o.SessionID, Cwd: firstNonEmpty(wd, cwd), PermissionMode: o.PermissionMode}
	}}
}
