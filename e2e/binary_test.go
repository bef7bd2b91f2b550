package e2e

import (
	"debug/elf"
	"os"
	"os/exec"
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

// TestBuildsForOtherSystems cross-compiles the binary for macOS and
// Windows, which CI does not run on: a Unix-only call in a shared file
// (syscall.Kill, Setpgid, Stat_t) breaks those builds without failing any
// test here. It takes about a minute per system with a cold build cache.
func TestBuildsForOtherSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiling takes minutes; not under -short")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, target := range []string{"windows/amd64", "darwin/arm64"} {
		goos, goarch, _ := strings.Cut(target, "/")
		cmd := exec.Command(goBin, "build", "-o", os.DevNull, "./cmd/reins")
		cmd.Dir = filepath.Join("..")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go build for %s: %v\n%s", target, err, out)
		}
	}
}
