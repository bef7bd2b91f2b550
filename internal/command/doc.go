// Package command holds the slash commands of a session: the registry
// every front end dispatches through, the custom commands and skills read
// from Markdown files, their expansion into prompts, and the skill listing
// the model sees.
//
// # Kinds
//
// A Prompt command expands to text sent to the model (custom commands,
// skills, MCP prompts, builtins such as /init). A Local command runs in
// the process and returns text without calling the model (/cost). A UI
// command needs the terminal UI (/permissions); in print and SDK modes it
// answers "/name isn't available in this mode". Front ends register their
// builtins (Source builtin) first and then the loaded custom commands,
// which override builtins of the same name.
//
// # Input
//
// Parse reads "/name args". The name is letters, digits, '-', '_' and ':';
// any other first word ("/usr/bin/x foo") means the input is an ordinary
// prompt. An unknown name is answered "Unknown command: /name" without a
// model call. Registry.Dispatch applies these rules and runs or expands
// the command.
//
// # Files
//
// Load reads commands from <root>/commands/**/*.md and skills from
// <root>/skills/<name>/SKILL.md for the user roots (~/.claude, ~/.reins),
// then the project roots (.claude, .reins), later roots overriding
// earlier ones. Frontmatter fields: description, argument-hint,
// arguments, allowed-tools, model ("inherit" means the session's), when_to_use,
// disable-model-invocation, user-invocable, context ("fork") and agent.
// The body, trimmed of surrounding white space, is the template. A file
// whose frontmatter is not valid YAML, or never closed, is kept as Claude
// Code keeps it, with the frontmatter ignored; since what it held back
// (disable-model-invocation) is unknown, only the user may invoke it.
// Load returns such problems, and fields it ignored, as errors that name
// the file and line.
//
// # Expansion
//
// Expander.Expand turns a template and the typed arguments into the
// prompt, in one left-to-right pass over the template (text that an
// argument or a command's output puts in is never scanned again):
//
//   - "$ARGUMENTS" becomes the arguments, white space trimmed at both ends.
//   - "$ARGUMENTS[N]" and its shorthand "$N" (digits not followed by a
//     letter, digit or '_') become word N of the arguments as SplitArgs
//     splits them (quotes respected), counting from 0 as Claude Code does:
//     "$0" is the first word, "$1" the second. A word past the last one
//     leaves the placeholder as written.
//   - Names declared in the arguments: frontmatter (a YAML list or a
//     space-separated string) map to positions in order: "$issue" becomes
//     the word at the position of "issue" (not when followed by a letter,
//     digit, '_' or '['; the longest declared name wins).
//   - In a skill, "${CLAUDE_SKILL_DIR}" becomes the skill's folder. In any
//     command, "${CLAUDE_SESSION_ID}" becomes the session's id.
//   - "!`cmd`", where '!' starts the text or follows white space or '(',
//     and cmd is non-empty on one line, runs cmd (placeholders replaced
//     first) in the working folder when the command's allowed-tools permit
//     it (Expander.AllowBash). It is replaced by its standard output and
//     then its standard error, each without trailing newlines, joined by a
//     newline, then "[exit status N]" on its own line when N is not 0;
//     output past the limit ends with "[output truncated: N more bytes]".
//     A command that may not or cannot run is replaced by a note:
//     "[!`cmd` not run: neither this command's allowed-tools nor the permission rules allow it]",
//     "[!`cmd` not run: shell commands are not available here]" or
//     "[!`cmd` failed: reason]".
//   - "@path" or "@\"a path\"", where '@' starts the text or follows white
//     space or '(', mentions a file or folder relative to the working
//     folder ("~/" is the home folder). Trailing . , ; : ! ? ) ] } ' and "
//     are not part of an unquoted path. The mention stays in the text (with
//     placeholders replaced); the file is attached after the text.
//   - If the template holds no argument placeholder and the arguments are
//     not empty, "\n\nARGUMENTS: <arguments>" is appended.
//   - Each distinct mentioned path is then appended, in order of first
//     mention, after a blank line, as
//     "<file path=\"p\">\n<contents>\n</file>" (the contents end with one
//     newline; past the limit a "[truncated: the first N of M bytes are
//     shown]" line follows them), as "<folder path=\"p\">\n<entries>\n</folder>"
//     for a folder (sorted names, folders with a trailing '/'), or as a note
//     "[@p not included: reason]" for a missing, unreadable, binary or
//     disallowed path (by default only paths inside the working folder or
//     the skill's own folder may be included, and never one a permission
//     rule denies reading: Expander.DenyRead). A mention that
//     Expander.Resource takes as an MCP resource (@server:uri) is replaced
//     by the text it returns instead.
//   - A skill's prompt starts with a line naming its folder, so the model
//     can read the skill's other files, and a blank line.
//
// The expansion also carries a Header, the "<command-message>",
// "<command-name>" and "<command-args>" lines that record the invocation,
// and the command's allowed-tools and model for the turn.
//
// # Skills for the model
//
// Prompt commands that are not builtin and do not set
// disable-model-invocation can be called by the model through the Skill
// tool (package tools/skill). SkillListing builds the <system-reminder>
// that names them, within 1% of the context window, with a key that
// changes only when the text does; it is sent as a message, never inside a
// tool description, so the request prefix stays cache-stable.
//
// This package must not import the engine or any front end.
package command
