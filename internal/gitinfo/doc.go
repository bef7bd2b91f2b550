// Package gitinfo takes a snapshot of a git repository's state once, at
// session start: the current branch, the main branch, `git status --short`
// (cut at StatusLimit characters) and the last few commits.
//
// The snapshot runs its git commands in parallel under a short timeout so
// that it never delays the first model request by much; a folder that is
// not inside a repository costs no process at all. Most snapshots need no
// process either: the recent commits are read from the object store, and
// at the top of a work tree the status is computed from the index, HEAD's
// tree and the work tree (nativeStatus). Each reader declines what it
// does not reproduce exactly, and git runs instead. The snapshot is never
// refreshed during a session: the system prompt that carries it must stay
// byte-stable (DESIGN invariant 10).
//
// For a print or SDK run at the top of a plain work tree, the snapshot
// starts from this package's initialiser, as package fastpath decides
// (fastpath.EarlyNativeDir), so that reading it overlaps the rest of the
// program's start; the session's Start then takes that snapshot.
//
// This package only reads; it never changes a repository, and it passes
// --no-optional-locks so that it does not take the index lock.
package gitinfo
