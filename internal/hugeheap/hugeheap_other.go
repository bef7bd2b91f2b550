//go:build !linux

package hugeheap

// Prepare does nothing where the kernel has no transparent huge pages.
func Prepare(Options) {}

// Active reports whether Prepare acts on this machine: never here.
func Active() bool { return false }

// MarkedMappings counts this process's mappings marked for huge pages:
// none here.
func MarkedMappings() (int, error) { return 0, nil }
