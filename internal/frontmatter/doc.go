// Package frontmatter splits a leading YAML frontmatter block from a
// Markdown document and reads its fields the way people actually write
// them.
//
// A document has frontmatter when its first line (after an optional UTF-8
// byte order mark) is exactly "---"; the block ends at the next line that is
// exactly "---" (trailing spaces allowed). CRLF line endings are read as LF.
// A block that is opened but never closed is an error naming the line that
// opened it.
//
// The block is YAML (go.yaml.in/yaml/v3), but frontmatter in the wild is
// often loose YAML: "description: Fix: the bug", "argument-hint: [file]
// [line]" or "tools: *". When the block does not parse, every top-level
// "key: value" line whose value does not parse on its own is quoted and the
// block is parsed again; only if that also fails is the YAML error returned,
// with the file's line number.
//
// Field accessors are tolerant too: List accepts a comma- or
// space-separated string or a YAML list, and keeps parentheses together, so
// "Read, Bash(git add:*)" and [Read, "Bash(git add:*)"] read alike; Bool
// accepts true/false, yes/no, on/off and 1/0.
//
// This package knows nothing of commands, skills or agents; their loaders
// decide which fields mean what.
package frontmatter
