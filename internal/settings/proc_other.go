//go:build !unix

package settings

import (
	"os/exec"
	"time"
)

// KillGroupOnCancel bounds the wait for output after cmd's context ends.
// Process groups are a Unix feature; elsewhere only the process is killed.
func KillGroupOnCancel(cmd *exec.Cmd) {
	cmd.WaitDelay = 2 * time.Second
}

// lockDir is a no-op where flock is not available.
func lockDir(string) (func(), error) { return func() {}, nil }
