package tui

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyTUIImportsCharm checks that no package of reins but this one
// imports Bubble Tea, Lip Gloss, Glamour, Bubbles or the other Charm
// libraries (DESIGN: only the tui front end depends on them).
func TestOnlyTUIImportsCharm(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "reins/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		checked++
		pkg := f[0]
		if pkg == "reins/internal/tui" {
			continue
		}
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, "charm.land/") || strings.HasPrefix(imp, "github.com/charmbracelet/") {
				t.Errorf("%s imports %s; only reins/internal/tui may", pkg, imp)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("go list saw only %d packages", checked)
	}
}
