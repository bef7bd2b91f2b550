package gitinfo

// This file builds the status part of a snapshot without git: the
// status lines from nativeStatus and the branch from HEAD.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// nativeResult is what `git status --short --branch` (and, for a
// detached HEAD, `git rev-parse --short HEAD`) would have given a
// snapshot.
type nativeResult struct {
	status   string // the lines after the "## " line
	branch   string // "" when HEAD is detached
	detached string // the abbreviated commit of a detached HEAD
}

// nativeSnapshot computes the status part of a snapshot of dir, whose
// repository's git folder is gitDir, without running git. It declines
// (an error wrapping errUnsupported) unless dir is the top of the work
// tree of a repository whose git folder is dir/.git, and for everything
// nativeStatus declines.
func nativeSnapshot(ctx context.Context, dir, gitDir string, env []string) (nativeResult, error) {
	if env == nil {
		env = os.Environ()
	}
	if err := checkStatusEnv(env); err != nil {
		return nativeResult{}, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nativeResult{}, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	if filepath.Clean(gitDir) != filepath.Join(abs, ".git") {
		return nativeResult{}, fmt.Errorf("snapshot %s: not the top of the work tree: %w", dir, errUnsupported)
	}
	top, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nativeResult{}, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	if fi, err := os.Lstat(filepath.Join(top, ".git")); err != nil || !fi.IsDir() {
		return nativeResult{}, fmt.Errorf("snapshot %s: .git is not a folder: %w", dir, errUnsupported)
	}
	gitDir = filepath.Join(top, ".git")
	st, err := nativeStatus(ctx, gitDir, top, env)
	if err != nil {
		return nativeResult{}, err
	}
	res := nativeResult{status: st}
	if res.branch, res.detached, err = headName(gitDir, env); err != nil {
		return nativeResult{}, err
	}
	return res, nil
}

// headName reads HEAD as git status --branch names it: the branch it
// points at (born or not), or for a detached HEAD the commit id
// abbreviated as `git rev-parse --short` does.
func headName(gitDir string, env []string) (branch, detached string, err error) {
	data, err := readFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", "", fmt.Errorf("read HEAD %s: %w", gitDir, err)
	}
	content := strings.TrimRight(string(data), " \t\r\n")
	if target, ok := strings.CutPrefix(content, "ref:"); ok {
		name := strings.TrimSpace(target)
		b, ok := strings.CutPrefix(name, "refs/heads/")
		if !ok || !validRefName(name) {
			return "", "", fmt.Errorf("read HEAD %s: points at %q: %w", gitDir, name, errUnsupported)
		}
		r, err := openRepo(gitDir, env)
		if err != nil {
			return "", "", err
		}
		ref, found, err := r.readRef(name)
		if err != nil {
			return "", "", err
		}
		if found && strings.HasPrefix(string(ref), "ref:") {
			return "", "", fmt.Errorf("read HEAD %s: %s is a symbolic ref: %w", gitDir, name, errUnsupported)
		}
		return b, "", nil
	}
	id, ok := parseOID([]byte(content))
	if !ok {
		return "", "", fmt.Errorf("read HEAD %s: bad content %q", gitDir, content)
	}
	store, err := openObjectStore(filepath.Join(gitDir, "objects"))
	if err != nil {
		return "", "", err
	}
	defer store.close()
	n, err := store.abbrevLen(id, defaultAbbrev(store.approxObjectCount()))
	if err != nil {
		return "", "", fmt.Errorf("abbreviate HEAD %s: %w", id, err)
	}
	return "", id.String()[:n], nil
}
