// Package confdirs names the configuration folders that hold Claude
// Code-style extensions (commands/, skills/, agents/): the user's
// ~/.claude and reins's own config folder, and the project's .claude and
// .reins. It only computes paths; the packages that read those folders own
// what they read.
package confdirs

import "path/filepath"

// Roots are configuration folders, each list in rising precedence.
type Roots struct {
	User    []string // e.g. ~/.claude, then the reins config folder
	Project []string // e.g. <cwd>/.claude, then <cwd>/.reins
	Managed []string // managed policy folders
}

// Standard returns ~/.claude and configDir (reins's own, ~/.reins unless
// REINS_CONFIG_DIR says otherwise) for the user, <cwd>/.claude and
// <cwd>/.reins for the project. Empty arguments are left out.
func Standard(home, configDir, cwd string) Roots {
	var r Roots
	if home != "" {
		r.User = append(r.User, filepath.Join(home, ".claude"))
	}
	if configDir != "" {
		r.User = append(r.User, configDir)
	}
	if cwd != "" {
		r.Project = append(r.Project, filepath.Join(cwd, ".claude"), filepath.Join(cwd, ".reins"))
	}
	return r
}
