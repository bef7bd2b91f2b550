//go:build !linux

package fastpath

// prefault does nothing where the kernel has no MADV_POPULATE_READ.
func prefault() {}
