//go:build linux

package fastpath

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// hugeHeapReserve is the memory marked ahead: enough for the heap of a
// session's first minutes.
const hugeHeapReserve = 8 << 20

const (
	hugePageSize   = 2 << 20
	heapChunkSize  = 4 << 20 // the runtime grows its heap in aligned chunks of this size
	madvHugePage   = 14
	thpSettingFile = "/sys/kernel/mm/transparent_hugepage/enabled"
)

// hugeHeap lets the heap be backed by 2 MiB pages where it grows next.
//
// A short run grows its heap by a few megabytes, and each 4 KiB page it
// touches for the first time costs a page fault: about a microsecond on
// bare metal, but ten or more on virtual machines that trap every fault,
// where those faults were over a tenth of a six-turn print session.
// Linux backs a region with one 2 MiB page on its first touch instead
// when the region is marked MADV_HUGEPAGE and still untouched. With the
// kernel's usual setting ("madvise") the Go runtime never marks its heap,
// and the runtime maps new heap memory afresh when it grows, so marks
// made ahead of time are lost.
//
// So hugeHeap makes the runtime map the memory the program will
// grow into now: it allocates a block (hugeHeapReserve) that is never
// touched, marks the block and the untouched rest of the heap's current
// chunk, and lets a collection free the block again. Later allocations
// reuse that memory, 2 MiB at a time.
//
// The price is paid at start: the reserve's size starts a collection and
// runtime.GC adds one that ends with the reserve swept, both of a heap
// that is still tiny but together about 4 ms on the VM where this was
// measured, since the first collection also starts the runtime's marking
// threads. A six-turn print session still ends about 5% sooner, with 800
// fewer page faults (its later collections are as before), and resident
// memory grows in 2 MiB steps. It does nothing when the kernel already
// uses huge pages everywhere ("always"), never ("never"), or when
// GODEBUG=disablethp=1 asks the runtime to keep them off.
func hugeHeap() {
	if !hugePagesOnRequest(thpSettingFile) || disablesTHP(os.Getenv("GODEBUG")) {
		return
	}
	// An allocation of 40 KiB comes from the page allocator, at the top
	// of the heap so far.
	top := uintptr(unsafe.Pointer(unsafe.SliceData(heapBytes(40 << 10))))
	reserve := uintptr(unsafe.Pointer(unsafe.SliceData(heapBytes(hugeHeapReserve))))

	// The rest of the chunk the heap is in: the 2 MiB region holding
	// the top already has small pages and keeps them; one above it is
	// still untouched.
	madviseHuge(top&^(hugePageSize-1), (top+heapChunkSize)&^(heapChunkSize-1))
	// The reserve, which the runtime has just mapped.
	madviseHuge((reserve+hugePageSize-1)&^(hugePageSize-1), (reserve+hugeHeapReserve)&^(hugePageSize-1))
	runtime.GC() // frees the reserve for reuse
}

// heapBytes allocates n bytes on the heap: a slice a function returns
// cannot live on its stack.
//
//go:noinline
func heapBytes(n int) []byte { return make([]byte, n) }

func madviseHuge(lo, hi uintptr) {
	if hi > lo {
		syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvHugePage)
	}
}

// hugePagesOnRequest reports whether the kernel's transparent huge pages
// are in "madvise" mode, where a region gets them only when marked.
func hugePagesOnRequest(settingFile string) bool {
	b, err := os.ReadFile(settingFile)
	return err == nil && contains(string(b), "[madvise]")
}

// disablesTHP reports whether a GODEBUG value sets disablethp=1, the
// runtime's switch for keeping huge pages off its heap.
func disablesTHP(godebug string) bool {
	for godebug != "" {
		kv := godebug
		if i := index(godebug, ","); i >= 0 {
			kv, godebug = godebug[:i], godebug[i+1:]
		} else {
			godebug = ""
		}
		if kv == "disablethp=1" {
			return true
		}
	}
	return false
}

// contains and index are strings.Contains and strings.Index, kept here
// so that this package imports no more than os does (see the package doc).
func contains(s, sub string) bool { return index(s, sub) >= 0 }

func index(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
