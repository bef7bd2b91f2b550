// Package outputstyle finds the output styles a session may use: the
// built-in ones (default, Explanatory, Learning) and Markdown files with
// frontmatter (name, description, keep-coding-instructions) in the user's
// and the project's output-styles folders and in loaded plugins, as
// Claude Code reads them. A style changes how the main agent talks: its
// text is added to the system prompt, and unless it keeps the coding
// instructions, reins's instructions about conducting software
// engineering tasks are left out (package prompt does that part).
//
// The default style needs nothing read: Find("default") and Find("")
// touch no file. Files are read only when another style is looked up or
// the styles are listed.
//
// This package reads files but never writes them; saving the choice
// (outputStyle in .claude/settings.local.json) is the caller's job.
package outputstyle
