package e2e

import (
	"debug/elf"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/fastpath"
)

// TestBinaryIsStatic checks that reins, built as the README says, needs no
// dynamic loader and no shared libraries: one file that runs anywhere and
// starts without the C library's relocation work.
func TestBinaryIsStatic(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ELF check; linux only")
	}
	f, err := elf.Open(e2etest.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary names a dynamic loader (PT_INTERP): it was linked with cgo")
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		t.Errorf("the binary needs shared libraries: %v", libs)
	}

	if fastpath.HasEntry {
		syms, err := f.Symbols()
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(syms, func(s elf.Symbol) bool { return s.Name == fastpath.EntrySymbol })
		if i < 0 || f.Entry != syms[i].Value {
			t.Errorf("the binary's entry point %#x is not %s", f.Entry, fastpath.EntrySymbol)
		}
	}

	// The README's build command is what users run, and the binary above
	// came from it: the script must build static and link the entry point
	// that answers the version.
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "\n./scripts/build.sh && ./reins -p") {
		t.Error("README's set-up no longer builds with ./scripts/build.sh")
	}
	script, err := os.ReadFile(filepath.Join("..", "scripts", "build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CGO_ENABLED=0", "-E=" + fastpath.EntrySymbol} {
		if !strings.Contains(string(script), want) {
			t.Errorf("scripts/build.sh does not set %s", want)
		}
	}
}
