//go:build !linux

package hugeheap

// Prepare does nothing where the kernel has no transparent huge pages.
func Prepare() {}
