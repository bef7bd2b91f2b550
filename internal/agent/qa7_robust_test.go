package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent file larger than MaxFileSize is left out with an error that
// gives its size and the limit, instead of being read whole.
func TestLoadLeavesOutAHugeAgentFile(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".claude")
	dir := filepath.Join(root, "agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.md")
	body := "---\nname: huge\ndescription: too big\n---\n" + strings.Repeat("x", 5<<20)
	if err := os.WriteFile(huge, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	defs, errs := Load(Roots{Project: []string{root}})
	if len(defs) != 0 {
		t.Errorf("loaded %d agents, want the huge one left out", len(defs))
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), huge+" is too large (5.0 MB; the limit is 4.0 MB); the agent is left out") {
		t.Errorf("errors = %v, want the file's size and the limit", errs)
	}
}
