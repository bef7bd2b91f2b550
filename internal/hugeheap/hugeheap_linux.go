//go:build linux

package hugeheap

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// reserveSize is the memory marked ahead: enough for the heap of a
// session's first minutes.
const reserveSize = 8 << 20

const (
	hugePageSize   = 2 << 20
	heapChunkSize  = 4 << 20 // the runtime grows its heap in aligned chunks of this size
	madvHugePage   = 14
	thpSettingFile = "/sys/kernel/mm/transparent_hugepage/enabled"
)

// Prepare lets the heap be backed by 2 MiB pages where it grows next.
// Call it once, as early as possible: reins calls it from package
// fastpath's initialiser, before most packages have initialised, so that
// their allocations already land on the large pages.
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
// So Prepare makes the runtime map the memory the program will grow into
// now: it allocates a block (reserveSize) that is never touched, marks
// the block and the untouched rest of the heap's current chunk, and has a
// collection free the block again. Later allocations reuse that memory,
// 2 MiB at a time.
//
// The price is that collection, of a heap that is still small, which also
// starts the runtime's marking threads the first collection would start
// anyway. After it, the next collection waits until the heap has grown
// into the reserve (see deferCollections). Done during initialisation, it
// brings the first model request about 3 ms sooner and a six-turn print
// session about 15% sooner than no preparation, with about 1,000 fewer
// page faults and no collection; resident memory grows in 2 MiB steps.
// With o.ZeroData it marks the program's zero-initialised data too (see
// Options). Prepare does nothing when the kernel already uses huge pages
// everywhere ("always"), never ("never"), or when GODEBUG=disablethp=1
// asks the runtime to keep them off.
func Prepare(o Options) {
	if !Active() {
		return
	}
	if o.ZeroData {
		markZeroData()
	}
	// An allocation of 40 KiB comes from the page allocator, at the top
	// of the heap so far.
	top := uintptr(unsafe.Pointer(unsafe.SliceData(heapBytes(40 << 10))))
	// The reserve would start a collection of its own (it is more than
	// the heap's first goal), before the one below that frees it.
	gcPercent := int(setGCPercent(-1))
	reserve := uintptr(unsafe.Pointer(unsafe.SliceData(heapBytes(reserveSize))))

	// The rest of the chunk the heap is in: the 2 MiB region holding
	// the top already has small pages and keeps them; one above it is
	// still untouched.
	madviseHuge(top&^(hugePageSize-1), (top+heapChunkSize)&^(heapChunkSize-1))
	// The reserve, which the runtime has just mapped.
	madviseHuge((reserve+hugePageSize-1)&^(hugePageSize-1), (reserve+reserveSize)&^(hugePageSize-1))
	runtime.GC() // frees the reserve for reuse
	if !deferCollections(gcPercent) {
		setGCPercent(int32(gcPercent))
	}
}

// deferCollections lets the heap grow into the reserve before the next
// collection: the collector stays off (it was turned off for the reserve)
// and a memory limit about the reserve's size above the memory in use
// now stands in for it. A finalizer on an object dropped at once notices
// the first collection and puts the usual policy (gcPercent, no limit)
// back. A short session so runs without a collection, allocating from
// the huge pages, as cmd/compile does for short compilations. It leaves
// the policy alone, and reports false, when GOGC or GOMEMLIMIT set one.
func deferCollections(gcPercent int) bool {
	if gcPercent < 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	// ReadMemStats rather than runtime/metrics: that package's
	// initialiser costs more at start-up than this one brief stop.
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	inUse := ms.Sys - ms.HeapReleased
	limit := setMemoryLimit(int64(inUse) + reserveSize)
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		setGCPercent(int32(gcPercent))
		setMemoryLimit(limit)
	})
	return true
}

// sentinel is the object whose finalizer marks the first collection (it
// has a pointer, so the tiny allocator, whose objects may never be
// finalized, does not take it).
type sentinel struct{ _ *int }

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
	return err == nil && containsStr(string(b), "[madvise]")
}

// disablesTHP reports whether a GODEBUG value sets disablethp=1, the
// runtime's switch for keeping huge pages off its heap.
func disablesTHP(godebug string) bool {
	return containsStr(","+godebug+",", ",disablethp=1,")
}

// setGCPercent and setMemoryLimit are the runtime's implementations of
// debug.SetGCPercent and debug.SetMemoryLimit, which the runtime provides
// to runtime/debug by name. This package refers to them the same way
// rather than importing runtime/debug. The runtime initialises, of the
// packages whose imports are done, the first by import path, and
// "runtime/debug" sorts after most of the program's packages; a package
// importing it waits for them (fastpath went from 22nd of about 137 to
// 93rd, behind encoding/gob and yaml): too late to put their allocations
// on large pages. They take and return what the debug functions do.
//
//go:linkname setGCPercent runtime/debug.setGCPercent
func setGCPercent(percent int32) int32

//go:linkname setMemoryLimit runtime/debug.setMemoryLimit
func setMemoryLimit(limit int64) int64

// containsStr is strings.Contains, kept here for the same reason: this
// package imports only what os needs.
func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// Active reports whether Prepare acts on this machine: the kernel gives
// huge pages on request and GODEBUG does not turn them off.
func Active() bool {
	return hugePagesOnRequest(thpSettingFile) && !disablesTHP(os.Getenv("GODEBUG"))
}

// MarkedMappings counts this process's mappings marked for huge pages
// (the "hg" flag in /proc/self/smaps): after Prepare, where Active, the
// heap's.
func MarkedMappings() (int, error) {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	const prefix = "VmFlags:"
	marked := 0
	for len(b) > 0 {
		end := 0
		for end < len(b) && b[end] != '\n' {
			end++
		}
		line := string(b[:end])
		b = b[min(end+1, len(b)):]
		if len(line) > len(prefix) && line[:len(prefix)] == prefix && containsStr(line[len(prefix):]+" ", " hg ") {
			marked++
		}
	}
	return marked, nil
}

// zeroData is one of the program's zero-initialised variables without
// pointers: the linker puts it with the rest of them (.noptrbss), in the
// anonymous mapping that follows the executable's file-backed data.
var zeroData [8]byte

// markZeroData marks the whole 2 MiB regions of the mapping holding the
// program's zero-initialised data. The kernel gives a region a huge page
// on its first touch only while no byte of it has been touched, so this
// runs before the packages whose tables live there initialise.
func markZeroData() {
	at := uintptr(unsafe.Pointer(&zeroData))
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	for len(maps) > 0 {
		end := 0
		for end < len(maps) && maps[end] != '\n' {
			end++
		}
		lo, hi, _, ok := MapsRange(string(maps[:end]))
		maps = maps[min(end+1, len(maps)):]
		if ok && lo <= at && at < hi {
			madviseHuge((lo+hugePageSize-1)&^(hugePageSize-1), hi&^(hugePageSize-1))
			return
		}
	}
}
