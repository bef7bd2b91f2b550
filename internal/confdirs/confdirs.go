// Package confdirs names the configuration folders that hold Claude
// Code-style extensions (commands/, skills/, agents/): the user's
// ~/.claude and reins's own config folder, and the project's .claude and
// .reins. It only computes paths; the packages that read those folders own
// what they read.
package confdirs

import (
	"os"
	"path/filepath"
)

// Roots are configuration folders, each list in rising precedence.
type Roots struct {
	User    []string // e.g. ~/.claude, then the reins config folder
	Project []string // e.g. <cwd>/.claude, then <cwd>/.reins
	Managed []string // managed policy folders
}

// Standard returns ~/.claude and configDir (reins's own, ~/.reins unless
// REINS_CONFIG_DIR says otherwise) for the user, and for the project the
// .claude and .reins folders of cwd and of each folder above it, as Claude
// Code looks for them: up to the root of the git repository holding cwd
// (the folder with .git), or, outside a repository, up to the home folder
// (which is left out: its .claude is the user's). A folder nearer to cwd
// takes precedence over one above it, so <cwd>/.claude and <cwd>/.reins
// come last. Empty arguments are left out.
func Standard(home, configDir, cwd string) Roots {
	var r Roots
	if home != "" {
		r.User = append(r.User, filepath.Join(home, ".claude"))
	}
	if configDir != "" {
		r.User = append(r.User, configDir)
	}
	if cwd != "" {
		dirs := projectDirs(home, cwd)
		for i := len(dirs) - 1; i >= 0; i-- {
			r.Project = append(r.Project, filepath.Join(dirs[i], ".claude"), filepath.Join(dirs[i], ".reins"))
		}
	}
	return r
}

// projectDirs returns cwd and the folders above it whose configuration
// applies to the project, nearest first: up to and including the git root,
// or, outside a repository, up to the home folder or the filesystem root
// (both left out).
func projectDirs(home, cwd string) []string {
	cwd = filepath.Clean(cwd)
	if a, err := filepath.Abs(cwd); err == nil {
		cwd = a
	}
	top := gitRoot(cwd)
	if home != "" {
		home = filepath.Clean(home)
	}
	var dirs []string
	for d := cwd; ; {
		if d == home && d != cwd {
			break
		}
		dirs = append(dirs, d)
		if d == top {
			break
		}
		parent := filepath.Dir(d)
		if parent == d || (top == "" && parent == filepath.Dir(parent)) {
			break // d is the root, or its parent is and we are not in a repository
		}
		d = parent
	}
	return dirs
}

// gitRoot returns the nearest folder at or above dir that holds .git (a
// folder, or the file of a worktree or submodule), or "".
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}
