// Package glob is the Glob tool: it lists the files under a folder whose
// paths match a glob pattern, newest first, at most 100, with Claude
// Code's input names and structured result fields (filenames,
// durationMs, numFiles, truncated).
//
// Patterns use ripgrep's --glob syntax through package search: "**"
// crosses folders and a pattern without "/" matches base names at any
// depth. As in Claude Code, files that ignore files list and hidden files
// are included and version-control folders skipped;
// CLAUDE_CODE_GLOB_NO_IGNORE=false and CLAUDE_CODE_GLOB_HIDDEN=false
// (EnvOptions) leave ignored and hidden files out. With ignore files
// honoured, a pattern whose leading folders are literal ("dist/**/*.js")
// searches from the folder it names, which is searched even when ignored,
// as ripgrep searches a path it is given. A search stops after 20
// seconds (CLAUDE_CODE_GLOB_TIMEOUT_SECONDS) and answers with the files
// found by then, saying so.
//
// With Tool.Dir set (reins sets the Bash tool's current folder), a search
// without a path starts where cd left the shell, and relative paths start
// there too, as in Claude Code.
//
// This package must not import the engine or any front end.
package glob
