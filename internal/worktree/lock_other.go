//go:build !unix

package worktree

import "context"

// lockRepo is a no-op where there is no flock: worktree changes are not
// serialised there.
func lockRepo(context.Context, string) (func(), error) { return func() {}, nil }
