// Package search is reins's file search engine: the Grep and Glob tools
// run on it, with no external program.
//
// It follows ripgrep's rules for what to search and how to match, so that
// models and users who know ripgrep get the same answers:
//
//   - A parallel walk of the tree honours .gitignore files (inside a git
//     repository, nested per directory, plus .git/info/exclude), .ignore
//     and .rgignore files, in ripgrep's order of precedence, including
//     those of the directories above the one searched.
//   - Hidden files and directories are skipped unless asked for;
//     version-control folders (.git, .hg, .svn, ...) always are; symbolic
//     links are not followed.
//   - A file whose first buffer holds a NUL byte is binary and skipped.
//   - Files can be selected by ripgrep type names (go, js, py, ...) and by
//     --glob patterns, where a pattern without "/" matches base names.
//
// A Matcher wraps Go's regexp with a literal prefilter: the literals every
// match must contain are taken from the pattern's syntax tree and found
// with byte searches over whole files, so the regexp runs only on the
// few lines that may match, and not at all for a pattern that is plain
// literals.
//
// On Linux the walk uses getdents64 and openat directly. Files are read
// into a buffer owned by each walking goroutine; very large files are
// mapped.
//
// The package reports matches as data; formatting them for a model or a
// terminal is the caller's job.
package search
