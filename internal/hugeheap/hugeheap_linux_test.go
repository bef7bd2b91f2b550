//go:build linux

package hugeheap

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// TestPrepareMarksTheHeapForHugePages checks Prepare's effect: where the
// kernel gives huge pages on request, part of the heap then carries the
// mark (the "hg" flag in /proc/self/smaps); elsewhere nothing does.
func TestPrepareMarksTheHeapForHugePages(t *testing.T) {
	if n := markedMappings(t); n != 0 {
		t.Fatalf("%d mappings are marked for huge pages before Prepare", n)
	}
	Prepare()
	want := hugePagesOnRequest(thpSettingFile) && !disablesTHP(os.Getenv("GODEBUG"))
	marked := markedMappings(t)
	if want && marked == 0 {
		t.Error("the kernel gives huge pages on request, but no mapping is marked for them")
	}
	if !want && marked != 0 {
		t.Errorf("%d mappings are marked for huge pages, though the kernel setting or GODEBUG says no", marked)
	}
}

// markedMappings counts this process's mappings marked for huge pages.
func markedMappings(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	marked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if flags, ok := strings.CutPrefix(sc.Text(), "VmFlags:"); ok && strings.Contains(" "+flags+" ", " hg ") {
			marked++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return marked
}
