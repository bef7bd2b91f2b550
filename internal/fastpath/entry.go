package fastpath

// EntrySymbol is the process entry point that answers --version and -v
// before the Go runtime starts, where HasEntry says the platform has one.
// A binary uses it when linked with -ldflags=-E=_reins_rt0, as
// scripts/build.sh does; any other entry point falls through to the Go
// runtime's own (_rt0_<arch>_<os>), so a binary linked without the flag
// still answers, from this package's init, a few milliseconds later.
//
// The entry applies Answer's rules to the raw argument vector: the first
// "--version" or "-v" wins, and "--" ends the search.
const EntrySymbol = "_reins_rt0"

// Version lines as the entry point writes them, newline included. The
// compiler lays constant strings out as static data, so they are readable
// before any Go code has run.
var (
	versionOut    = VersionLine + "\n"
	sdkVersionOut = SDKVersionLine + "\n"
)
