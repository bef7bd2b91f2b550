// Package fastpath is the part of reins that acts while the program is
// still starting, before the packages behind the agent (HTTP, MCP, the
// terminal UI) initialise. It decides every init-time effect of reins,
// and keeps them to five:
//
//   - `reins --version` and `reins -v` are answered and the process exits,
//     so the answer costs a fraction of a full start. A binary linked with
//     this package's entry point (EntrySymbol, scripts/build.sh) answers
//     them before the Go runtime starts, and never gets here for them;
//   - for print and SDK runs in a git repository, the start-up snapshot
//     begins at once, so it runs while the rest of the program
//     initialises: git status is started here and collected by package
//     gitinfo with EarlyGit, or, at the top of a plain work tree, where
//     gitinfo reads the status from the repository's files, gitinfo's
//     initialiser starts that reading (EarlyNativeDir). (The interactive
//     UI asks whether the folder is trusted first, so it takes the
//     snapshot afterwards.)
//   - on Linux, the heap is set to grow on 2 MiB pages (hugeheap.Prepare),
//     before most packages allocate anything, and for the terminal UI the
//     zero-initialised data too, where the character-width table it
//     fills on its first frame lives;
//   - on Linux, the executable's code and read-only data are mapped in
//     one go from a goroutine, sparing the rest of start-up thousands of
//     page faults (see prefault). This starts after the heap's
//     preparation: both change the process's memory map, and the kernel
//     lets only one do so at a time;
//   - in the binary scripts/build.sh links, TMUX is out of the
//     environment until main puts it back (RestoreEnv), so that no
//     package's initialiser asks tmux about colours (see hideTMUX).
//
// Keep it small and its imports few: everything it imports is initialised
// before it can act.
package fastpath

import (
	"os"

	"reins/internal/hugeheap"
)

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
		if _, err := os.Stdout.WriteString(line + "\n"); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	// The terminal UI fills a large zero-initialised table on its first
	// frame; print and SDK runs do not.
	hugeheap.Prepare(hugeheap.Options{ZeroData: !trustedRun(os.Args[1:])})
	go prefault()
	startEarlyGit(os.Args[1:])
	hideTMUX()
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
