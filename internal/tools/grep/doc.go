// Package grep is the Grep tool: a regular-expression search of file
// contents with Claude Code's input names and ripgrep's output forms,
// running on package search (no external program).
//
// Output modes: files_with_matches (the default) lists matching files,
// most recently modified first; content shows path:line:text lines with
// optional context (path-line-text, groups separated by "--"); count
// shows path:N per file. head_limit (250 by default, 0 for none) and
// offset page whatever the mode returns. Paths inside the working folder
// are shown relative to it.
//
// The structured result (tool.Result.Data) is an *Output with Claude
// Code's field names: mode, numFiles, filenames, content, numLines,
// numMatches, appliedLimit, appliedOffset.
//
// With Tool.Dir set (reins sets the Bash tool's current folder), a search
// without a path starts where cd left the shell, and relative paths start
// there too, as in Claude Code.
//
// This package must not import the engine or any front end.
package grep
