// Package cli is reins's entry: it parses the command line, takes the fast
// paths (--version loads nothing), wires the session from settings, tools
// and providers in one place, and dispatches to a front end: the terminal
// UI, print mode (-p), the SDK protocol (stream-json input), or a
// subcommand (mcp, sessions).
//
// Nothing below this package reads flags or the process environment
// directly; values are passed down explicitly.
package cli
