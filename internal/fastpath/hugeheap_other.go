//go:build !linux

package fastpath

// hugeHeap does nothing where the kernel has no transparent huge pages.
func hugeHeap() {}
