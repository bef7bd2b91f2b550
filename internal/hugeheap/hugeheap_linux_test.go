//go:build linux

package hugeheap

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func TestHugePagesOnRequestOnlyInMadviseMode(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		content string
		want    bool
	}{
		{"always [madvise] never\n", true},
		{"[always] madvise never\n", false},
		{"always madvise [never]\n", false},
		{"", false},
	} {
		f := filepath.Join(dir, "enabled")
		if err := os.WriteFile(f, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := hugePagesOnRequest(f); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.content, got, tc.want)
		}
	}
	if hugePagesOnRequest(filepath.Join(dir, "missing")) {
		t.Error("a missing setting file counts as madvise mode")
	}
}

func TestDisablesTHPReadsTheGODEBUGList(t *testing.T) {
	for _, tc := range []struct {
		godebug string
		want    bool
	}{
		{"disablethp=1", true},
		{"gctrace=1,disablethp=1", true},
		{"disablethp=1,madvdontneed=1", true},
		{"disablethp=0", false},
		{"xdisablethp=1", false},
		{"", false},
	} {
		if got := disablesTHP(tc.godebug); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.godebug, got, tc.want)
		}
	}
}

// Read by TestMain: before Prepare, the mappings marked for huge pages
// and the collector's policy; right after it, the policy and the number
// of collections.
var (
	markedBefore                   int
	gogcBefore, limitBefore        uint64
	gogcAfter, limitAfter, cycles0 uint64
)

func TestMain(m *testing.M) {
	var err error
	if markedBefore, err = MarkedMappings(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gogcBefore, limitBefore, _ = policy()
	Prepare(Options{ZeroData: true})
	gogcAfter, limitAfter, cycles0 = policy()
	os.Exit(m.Run())
}

// policy reads the collector's percentage and memory limit, and the
// number of collections so far.
func policy() (gogc, limit, cycles uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()
}

// TestPrepareMarksTheHeapForHugePages checks Prepare's effect: where the
// kernel gives huge pages on request, part of the heap then carries the
// mark (the "hg" flag in /proc/self/smaps); elsewhere nothing does.
func TestPrepareMarksTheHeapForHugePages(t *testing.T) {
	if markedBefore != 0 {
		t.Fatalf("%d mappings were marked for huge pages before Prepare", markedBefore)
	}
	marked, err := MarkedMappings()
	if err != nil {
		t.Fatal(err)
	}
	if want := Active(); want && marked == 0 {
		t.Error("the kernel gives huge pages on request, but no mapping is marked for them")
	} else if !want && marked != 0 {
		t.Errorf("%d mappings are marked for huge pages, though the kernel setting or GODEBUG says no", marked)
	}
}

// TestPrepareDefersTheNextCollectionUntilTheHeapGrows checks that after
// Prepare the collector waits, under a memory limit, and that the first
// collection brings back the usual policy.
func TestPrepareDefersTheNextCollectionUntilTheHeapGrows(t *testing.T) {
	if !Active() || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		if gogcAfter != gogcBefore || limitAfter != limitBefore {
			t.Fatalf("Prepare changed the collector's policy where it should not: GOGC %d, limit %d (were %d, %d)",
				int64(gogcAfter), limitAfter, int64(gogcBefore), limitBefore)
		}
		return
	}
	if int64(gogcAfter) != -1 || limitAfter > 1<<30 {
		t.Fatalf("after Prepare: GOGC %d, limit %d; want the collector off under a limit", int64(gogcAfter), limitAfter)
	}
	// Grow the heap past the limit: a collection must come, and with it
	// the usual policy.
	var keep [][]byte
	deadline := time.Now().Add(10 * time.Second)
	var now uint64
	for {
		var gogc, limit uint64
		gogc, limit, now = policy()
		if gogc == gogcBefore && limit == limitBefore {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the usual policy did not come back: GOGC %d, limit %d, %d collections since Prepare",
				int64(gogc), limit, now-cycles0)
		}
		if len(keep) < 64 {
			keep = append(keep, make([]byte, 1<<20))
		}
		time.Sleep(time.Millisecond)
	}
	if now == cycles0 {
		t.Error("the policy came back without a collection")
	}
	runtime.KeepAlive(keep)
}

// bigZero is zero-initialised data of this test binary, large enough to
// hold whole 2 MiB regions, never touched (as the terminal UI's width
// table is before its first frame).
var bigZero [6 << 20]byte

// TestPrepareMarksUntouchedZeroData checks Options.ZeroData (TestMain
// prepares with it): where the kernel gives huge pages on request, the
// mapping holding the middle of bigZero carries the mark; elsewhere not.
func TestPrepareMarksUntouchedZeroData(t *testing.T) {
	at := uintptr(unsafe.Pointer(&bigZero[len(bigZero)/2]))
	flags, err := vmFlagsAt(at)
	if err != nil {
		t.Fatal(err)
	}
	if marked := strings.Contains(" "+flags+" ", " hg "); marked != Active() {
		t.Errorf("the zero-initialised data at %#x has VmFlags %q; marked %v, want %v", at, flags, marked, Active())
	}
}

// vmFlagsAt returns the VmFlags of the mapping of this process holding
// addr, from /proc/self/smaps.
func vmFlagsAt(addr uintptr) (string, error) {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	in := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if lo, hi, _, ok := MapsRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.TrimSpace(flags), nil
		}
	}
	return "", fmt.Errorf("no mapping holds %#x", addr)
}

func TestMapsRange(t *testing.T) {
	for _, tc := range []struct {
		line   string
		lo, hi uintptr
		rest   string
		ok     bool
	}{
		{"00400000-00bde000 r-xp 00000000 fe:00 123  /bin/x", 0x400000, 0xbde000, "r-xp 00000000 fe:00 123  /bin/x", true},
		{"7f22c9a60000-7f22c9c00000 rw-p 00000000 00:00 0 ", 0x7f22c9a60000, 0x7f22c9c00000, "rw-p 00000000 00:00 0 ", true},
		{"00400000-00400000 r-xp", 0, 0, "", false},
		{"-00400000 r-xp", 0, 0, "", false},
		{"00400000- r-xp", 0, 0, "", false},
		{"00400000-00bde000", 0, 0, "", false},
		{"Rss:  4 kB", 0, 0, "", false},
		{"", 0, 0, "", false},
	} {
		lo, hi, rest, ok := MapsRange(tc.line)
		if lo != tc.lo || hi != tc.hi || rest != tc.rest || ok != tc.ok {
			t.Errorf("MapsRange(%q) = %#x, %#x, %q, %v; want %#x, %#x, %q, %v", tc.line, lo, hi, rest, ok, tc.lo, tc.hi, tc.rest, tc.ok)
		}
	}
}

func FuzzMapsRange(f *testing.F) {
	f.Add("00400000-00bde000 r-xp 00000000 fe:00 123 /x")
	f.Add("a-b c")
	f.Fuzz(func(t *testing.T, line string) {
		lo, hi, rest, ok := MapsRange(line)
		if ok && (hi <= lo || !strings.HasSuffix(line, rest) || len(rest) >= len(line)) {
			t.Fatalf("MapsRange(%q) = %#x, %#x, %q, true", line, lo, hi, rest)
		}
	})
}
