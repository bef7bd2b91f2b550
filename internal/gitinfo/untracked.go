package gitinfo

// This file lists the untracked paths `git status` shows in its default
// ("normal") mode: untracked files in folders that hold tracked files,
// and an untracked folder once, as "dir/", when something below it is
// untracked and not ignored. Ignored folders are not entered.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// untrackedWalk is one walk of the work tree.
type untrackedWalk struct {
	ctx   context.Context // the walk stops when it ends
	top   string
	ix    *gitIndex
	stack ignoreStack
	out   []string
}

// findUntracked walks the work tree below top and returns the untracked
// paths git shows, folders with a trailing "/".
func findUntracked(ctx context.Context, top, gitDir string, ix *gitIndex, cfg statusConfig, env []string) ([]string, error) {
	w := &untrackedWalk{ctx: ctx, top: top, ix: ix}
	excludes := cfg.excludesFile
	if excludes != "" {
		p, err := expandConfigPath(excludes, top, env)
		if err != nil {
			return nil, err
		}
		excludes = p
	} else {
		excludes = xdgGitFile(env, "ignore")
	}
	// core.excludesFile has the lowest precedence, then info/exclude.
	for _, f := range []string{excludes, filepath.Join(gitDir, "info", "exclude")} {
		if f == "" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("read ignore file %s: %w", f, err)
		}
		l, err := parseIgnore(data, "")
		if err != nil {
			return nil, fmt.Errorf("read ignore file %s: %w", f, err)
		}
		w.stack = append(w.stack, l)
	}
	if err := w.walkTracked(""); err != nil {
		return nil, err
	}
	return w.out, nil
}

// isTracked reports whether the index holds path as a file.
func (w *untrackedWalk) isTracked(path string) bool {
	e := w.ix.entries
	i := sort.Search(len(e), func(i int) bool { return e[i].path >= path })
	return i < len(e) && e[i].path == path
}

// hasTrackedBelow reports whether the index holds a file below the
// folder dir (which ends in "/").
func (w *untrackedWalk) hasTrackedBelow(dir string) bool {
	e := w.ix.entries
	i := sort.Search(len(e), func(i int) bool { return e[i].path >= dir })
	return i < len(e) && strings.HasPrefix(e[i].path, dir)
}

// readDir lists the folder rel ("" or "a/b/") and loads its .gitignore
// onto the stack; the caller pops it with the returned function.
func (w *untrackedWalk) readDir(rel string) ([]os.DirEntry, func(), error) {
	if err := w.ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("list %q: %w", rel, err)
	}
	entries, err := os.ReadDir(w.top + "/" + rel)
	if err != nil {
		return nil, nil, fmt.Errorf("list %q: %w", rel, err)
	}
	pop := func() {}
	for _, e := range entries {
		if e.Name() != ".gitignore" {
			continue
		}
		if !e.Type().IsRegular() {
			return nil, nil, fmt.Errorf("%s.gitignore is not a regular file: %w", rel, errUnsupported)
		}
		data, err := readFile(w.top + "/" + rel + ".gitignore")
		if err != nil {
			return nil, nil, fmt.Errorf("read %s.gitignore: %w", rel, err)
		}
		l, err := parseIgnore(data, rel)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s.gitignore: %w", rel, err)
		}
		w.stack = append(w.stack, l)
		n := len(w.stack)
		pop = func() { w.stack = w.stack[:n-1] }
	}
	return entries, pop, nil
}

// walkTracked lists the untracked paths of the folder rel, which holds
// tracked files (or is the top).
func (w *untrackedWalk) walkTracked(rel string) error {
	entries, pop, err := w.readDir(rel)
	if err != nil {
		return err
	}
	defer pop()
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		path := rel + name
		if name == ".gitattributes" {
			if _, err := checkAttrFile(w.top + "/" + path); err != nil {
				return err
			}
		}
		typ := e.Type()
		isDir := typ.IsDir()
		if !isDir && w.isTracked(path) {
			continue
		}
		if !isDir && !typ.IsRegular() && typ&fs.ModeSymlink == 0 {
			continue // git lists neither sockets nor pipes
		}
		if w.stack.excluded(path, name, isDir) {
			continue
		}
		if !isDir {
			w.out = append(w.out, path)
			continue
		}
		if w.hasTrackedBelow(path + "/") {
			if err := w.walkTracked(path + "/"); err != nil {
				return err
			}
			continue
		}
		show, err := w.untrackedDir(path + "/")
		if err != nil {
			return err
		}
		// A folder where the index has a file is not listed (git drops
		// untracked names the index holds).
		if show && !w.isTracked(path) {
			w.out = append(w.out, path+"/")
		}
	}
	return nil
}

// untrackedDir reports whether git shows the folder rel (ending in "/"),
// which holds no tracked file: it is a nested repository, or something
// below it is untracked and not ignored.
func (w *untrackedWalk) untrackedDir(rel string) (bool, error) {
	nested, err := nestedRepo(w.top + "/" + rel)
	if err != nil || nested {
		return nested, err
	}
	entries, pop, err := w.readDir(rel)
	if err != nil {
		return false, err
	}
	defer pop()
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		path := rel + name
		if name == ".gitattributes" {
			if _, err := checkAttrFile(w.top + "/" + path); err != nil {
				return false, err
			}
		}
		typ := e.Type()
		isDir := typ.IsDir()
		if !isDir && !typ.IsRegular() && typ&fs.ModeSymlink == 0 {
			continue
		}
		if w.stack.excluded(path, name, isDir) {
			continue
		}
		if !isDir {
			return true, nil
		}
		show, err := w.untrackedDir(path + "/")
		if err != nil || show {
			return show, err
		}
	}
	return false, nil
}

// nestedRepo reports whether dir holds a repository of its own (a .git
// folder with HEAD, objects and refs). A .git that is a file or an
// incomplete folder is errUnsupported.
func nestedRepo(dir string) (bool, error) {
	fi, err := os.Lstat(dir + ".git")
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("lstat %s.git: %w", dir, err)
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("%s.git is not a folder: %w", dir, errUnsupported)
	}
	head, err := readFile(dir + ".git/HEAD")
	if err != nil {
		return false, fmt.Errorf("%s.git has no HEAD: %w", dir, errUnsupported)
	}
	h := strings.TrimSpace(string(head))
	_, isID := parseOID([]byte(h))
	if !strings.HasPrefix(h, "ref: refs/") && !isID {
		return false, fmt.Errorf("%s.git/HEAD is %q: %w", dir, h, errUnsupported)
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(dir + ".git/" + sub); err != nil || !fi.IsDir() {
			return false, fmt.Errorf("%s.git has no %s: %w", dir, sub, errUnsupported)
		}
	}
	return true, nil
}
