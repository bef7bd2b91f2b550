package hugeheap

// Options says what Prepare marks for huge pages besides the heap.
type Options struct {
	// ZeroData also marks the program's zero-initialised data (the
	// executable's bss), where whole 2 MiB regions of it are still
	// untouched. The terminal UI wants it: the first text it measures
	// makes the character-width package fill a 2.2 MB table there, which
	// otherwise costs one page fault per 4 KiB (about 550, several
	// milliseconds on virtual machines) on the way to the first frame.
	// Print runs never fill it, and would pay for one 2 MiB page where
	// they touch a few bytes, so they leave it off.
	ZeroData bool
}
