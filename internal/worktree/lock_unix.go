//go:build unix

package worktree

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockRepo takes an exclusive lock on the repository's git folder (the
// folder itself: no lock file is left behind) for a change to its list of
// worktrees, and returns the function that releases it. git reads every
// worktree's files while it adds or removes one, and fails on one being
// made or removed at the same moment, so concurrent isolated agents (in
// this process or another reins) take turns. It gives up when ctx ends.
func lockRepo(ctx context.Context, gitDir string) (func(), error) {
	f, err := os.Open(gitDir)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", gitDir, err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if err != syscall.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", gitDir, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", gitDir, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
