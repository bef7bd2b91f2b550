// Package mdrender renders Markdown for a terminal: CommonMark blocks and
// inlines with GitHub's tables, task lists, strikethrough and bare URLs,
// wrapped to a width that counts wide (East Asian, emoji) characters as
// two columns, styled with SGR escape sequences or as structured plain
// text, and with a small highlighter of its own for the languages code
// answers use most.
//
// It exists so that the binary's start-up does not pay for a general
// Markdown and highlighting stack: the package does no work at init and
// keeps no tables; keyword sets are switch statements.
//
// Render is the whole API:
//
//	out := mdrender.Render(answer, mdrender.Options{Width: 80, Color: true})
//
// It must not write to the terminal, read the environment or keep state
// between calls.
package mdrender
