package mdrender

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageHasNoInitWork builds a program that links only this package
// and runs it with GODEBUG=inittrace=1: the runtime reports every package
// whose initialisation runs code or allocates, and this package must not
// be among them (reins starts in a few milliseconds, and every linked
// package's init runs each time).
func TestPackageHasNoInitWork(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "initprobe")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/initprobe").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("initprobe: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "init ") {
		t.Fatalf("inittrace printed nothing; cannot check:\n%s", out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "init reins/internal/mdrender ") {
			t.Errorf("package init does work: %s", line)
		}
	}
	t.Logf("init of the probe (mdrender and its dependencies):\n%s", out)
}

// TestNoHeavyDependencies keeps the package free of Markdown,
// highlighting and regexp libraries and of Charm's packages (only the TUI
// imports those).
func TestNoHeavyDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 5 {
		t.Fatalf("go list -deps listed only %v", deps)
	}
	for _, d := range deps {
		for _, bad := range []string{"glamour", "goldmark", "chroma", "bluemonday", "gorilla/css", "regexp", "charmbracelet", "charm.land"} {
			if strings.Contains(d, bad) {
				t.Errorf("depends on %s", d)
			}
		}
	}
}
