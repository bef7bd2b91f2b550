// Package fastpath answers `reins --version` and `reins -v` while the
// program is still starting, before the packages behind the agent (HTTP,
// MCP, the terminal UI) initialise, so the answer costs a fraction of a
// full start. It is the only package of reins that acts at init: it
// imports nothing but os, so it is initialised among the first, and it
// exits only for those exact flags, leaving every other command line
// alone.
//
// Keep it tiny and free of dependencies: anything it imports is
// initialised before it can answer.
package fastpath

import "os"

// Version is reins's own version.
const Version = "0.1.0"

// ProtocolVersion is the Claude Code headless protocol level reins
// implements (what the Agent SDKs check with -v).
const ProtocolVersion = "2.1.328"

// VersionLine is what --version prints.
const VersionLine = Version + " (reins)"

// SDKVersionLine is what -v prints: the protocol level first, so the
// Agent SDKs' minimum-version check (they parse a leading x.y.z) passes.
const SDKVersionLine = ProtocolVersion + " (reins " + Version + ", Claude Code protocol)"

func init() {
	if line := Answer(os.Args[1:]); line != "" {
		os.Stdout.WriteString(line + "\n")
		os.Exit(0)
	}
}

// Answer returns the line to print when args ask only for a version, or
// "". Flags after "--" are arguments, not flags.
func Answer(args []string) string {
	for _, a := range args {
		switch a {
		case "--":
			return ""
		case "--version":
			return VersionLine
		case "-v":
			return SDKVersionLine
		}
	}
	return ""
}
