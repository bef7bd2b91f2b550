// Package prompt assembles what reins tells the model before the
// conversation: the system prompt and the user context.
//
// The system prompt (Build) is a static prefix, the same for every
// session and every user (identity and conduct, doing tasks, tool use,
// git safety), followed by the per-session part: the environment (working
// folder, platform, date fixed at session start, model), extra sections
// the caller supplies, --append-system-prompt text, and the system context
// (the git snapshot and other key: value facts). Both parts carry a
// prompt-cache mark. Build is a pure function of its Options, so the
// prompt is byte-stable across the turns of a session (DESIGN invariant
// 10). --system-prompt replaces the default text; the appended text and
// the system context are kept.
//
// An output style other than the default (Options.Style) adds its text
// after the environment and swaps the static prefix for StyledStatic: an
// introduction that defers to the style, communication rules without the
// ones on brevity, and, unless the style keeps the coding instructions,
// no "Doing tasks" section. The default style's prefix is Static, byte for
// byte.
//
// Memory files (CLAUDE.md, AGENTS.md, rules) are found by LoadMemory and
// go to the model separately from the system prompt, as a
// <system-reminder> user-context message (Memory.UserContext), annotated
// with each file's path and kind. Memory files in folders below the
// working folder, and rules whose paths: frontmatter matches, are loaded
// later, when the model first touches a file they apply to
// (Memory.Touch); each conversation of a session (a sub-agent's through
// Memory.Fork) is told of them on its own.
//
// The prompt texts are our own, kept as embedded files in text/.
//
// This package reads files but never writes them, and it knows nothing of
// the engine: the caller passes Build's blocks as engine.Config.System and
// the user context as engine.Config.UserContext.
package prompt
