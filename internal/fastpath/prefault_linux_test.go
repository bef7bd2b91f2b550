//go:build linux

package fastpath

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"reins/internal/hugeheap"
)

func TestReadOnlyMappingOf(t *testing.T) {
	const exe = "/usr/local/bin/my reins"
	for _, tc := range []struct {
		line   string
		ok     bool
		lo, hi uintptr
	}{
		{"00400000-00bde000 r-xp 00000000 fe:00 123                 /usr/local/bin/my reins", true, 0x400000, 0xbde000},
		{"00bde000-01434000 r--p 007de000 fe:00 123 /usr/local/bin/my reins", true, 0xbde000, 0x1434000},
		{"01434000-015a9000 rw-p 01034000 fe:00 123 /usr/local/bin/my reins", false, 0, 0},
		{"7f00-7f10 r-xp 00000000 fe:00 9 /usr/lib/libc.so.6", false, 0, 0},
		{"7f00-7f10 r-xp 00000000 fe:00 9 /usr/local/bin/my reins (deleted)", false, 0, 0},
		{"c000000000-c004000000 rw-p 00000000 00:00 0", false, 0, 0},
		{"zz-7f10 r-xp 0 0 0 /usr/local/bin/my reins", false, 0, 0},
		{"7f10-7f00 r-xp 0 0 0 /usr/local/bin/my reins", false, 0, 0},
		{" /usr/local/bin/my reins", false, 0, 0},
		{"", false, 0, 0},
	} {
		lo, hi, ok := readOnlyMappingOf(tc.line, exe)
		if ok != tc.ok || lo != tc.lo || hi != tc.hi {
			t.Errorf("readOnlyMappingOf(%q) = %#x, %#x, %v; want %#x, %#x, %v", tc.line, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}

func FuzzReadOnlyMappingOf(f *testing.F) {
	f.Add("00400000-00bde000 r-xp 00000000 fe:00 123 /x", "/x")
	f.Add("-", "")
	f.Fuzz(func(t *testing.T, line, file string) {
		if lo, hi, ok := readOnlyMappingOf(line, file); ok && (hi <= lo || !strings.HasSuffix(line, " "+file)) {
			t.Fatalf("accepted %q for %q: %#x-%#x", line, file, lo, hi)
		}
	})
}

// TestPrefaultMapsTheExecutable checks that after prefault nearly every
// page of the test binary's read-only mappings is resident in this
// process's page tables (smaps Rss), which code that ran touches only a
// small part of.
func TestPrefaultMapsTheExecutable(t *testing.T) {
	prefault()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Skipf("no /proc/self/exe: %v", err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	var size, rss int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if _, _, ok := readOnlyMappingOf(line, exe); ok {
			in = true
			continue
		}
		if strings.Contains(line, "-") && strings.Contains(line, " ") && !strings.HasSuffix(line, " kB") {
			in = false // the header of another mapping
			continue
		}
		if !in {
			continue
		}
		name, val, _ := strings.Cut(line, ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		switch name {
		case "Size":
			size += kb
		case "Rss":
			rss += kb
		}
	}
	if size == 0 {
		t.Fatal("found no read-only mapping of the executable in smaps")
	}
	if rss*10 < size*9 {
		t.Errorf("after prefault %d of %d kB of the executable are mapped, want at least 90%%", rss, size)
	}
}

// TestInitPreparedTheHeap checks that this package's initialiser had the
// heap marked for huge pages (hugeheap.Prepare) where the kernel gives
// them on request; elsewhere no mapping may be marked.
func TestInitPreparedTheHeap(t *testing.T) {
	marked, err := hugeheap.MarkedMappings()
	if err != nil {
		t.Fatal(err)
	}
	switch on := hugeheap.Active(); {
	case on && marked == 0:
		t.Error("huge pages are given on request, but init marked no mapping for them")
	case !on && marked != 0:
		t.Errorf("%d mappings are marked for huge pages, though the kernel setting or GODEBUG says no", marked)
	}
}
