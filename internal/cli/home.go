package cli

import (
	"errors"
	"fmt"
	"os/user"
	"path/filepath"
)

// homeDir returns the user's home folder: $HOME, or, when it is unset,
// the user database's entry for this user (as Claude Code's os.homedir()
// does). Without either the user config folders (~/.reins, ~/.claude)
// would resolve against the working folder, where a project's own
// .claude/ would be read as the user's settings and the user's sessions
// written into the project, so that is an error, as is a relative $HOME.
func homeDir(getenv func(string) string) (string, error) {
	if h := getenv("HOME"); h != "" {
		if !filepath.IsAbs(h) {
			return "", fmt.Errorf("home folder: HOME is %q, which is not an absolute path; set HOME to your home folder", h)
		}
		return h, nil
	}
	if u, err := user.Current(); err == nil && filepath.IsAbs(u.HomeDir) {
		return u.HomeDir, nil
	}
	return "", errors.New("home folder: HOME is not set and the user database has no home folder for this user; set HOME")
}
