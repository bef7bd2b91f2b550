//go:build linux && (amd64 || arm64)

package fastpath

// HasEntry reports whether this platform has EntrySymbol.
const HasEntry = true
