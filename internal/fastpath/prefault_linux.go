//go:build linux

package fastpath

import (
	"os"
	"syscall"

	"reins/internal/hugeheap"
)

// madvPopulateRead asks the kernel to map a range's pages at once
// (MADV_POPULATE_READ, Linux 5.14; older kernels refuse it, harmlessly).
const madvPopulateRead = 22

// prefault maps the executable's code and read-only data (type data and
// the function tables the runtime reads to grow stacks and collect
// garbage) into the page tables in one call per mapping, instead of one
// page fault per 4 KiB page as the program first touches them. Start-up
// touches a few thousand such pages, and on virtual machines, where a
// fault costs tens of microseconds, those faults were a fifth of the time
// to the first model request. It runs on a goroutine while the main one
// goes on initialising, so the work lands on an idle core; the pages are
// the binary's own and already in the page cache, so nothing is read from
// disk.
func prefault() {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	for len(maps) > 0 {
		end := 0
		for end < len(maps) && maps[end] != '\n' {
			end++
		}
		line := string(maps[:end])
		maps = maps[min(end+1, len(maps)):]
		if lo, hi, ok := readOnlyMappingOf(line, exe); ok {
			syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvPopulateRead)
		}
	}
}

// readOnlyMappingOf parses one line of /proc/self/maps
// ("00400000-00bde000 r-xp 00000000 fe:00 123  /path") and reports the
// range when it maps file without write permission.
func readOnlyMappingOf(line, file string) (lo, hi uintptr, ok bool) {
	if len(line) <= len(file) || line[len(line)-len(file)-1:] != " "+file {
		return 0, 0, false
	}
	lo, hi, rest, ok := hugeheap.MapsRange(line)
	if !ok || len(rest) < 3 || rest[0] != 'r' || rest[1] == 'w' {
		return 0, 0, false
	}
	return lo, hi, true
}
