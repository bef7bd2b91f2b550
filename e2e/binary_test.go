package e2e

import (
	"debug/elf"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"reins/internal/e2etest"
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

	// The README's build command is what users run; it must build the
	// same static binary.
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var build string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.Contains(l, "go build") && strings.Contains(l, "./cmd/reins") {
			build = l
			break
		}
	}
	if !strings.Contains(build, "CGO_ENABLED=0") {
		t.Errorf("README's build command %q does not set CGO_ENABLED=0", build)
	}
}
