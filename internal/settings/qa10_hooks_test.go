package settings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hook for a Claude Code event reins does not fire (Setup) is warned
// about as such, not as a likely typo of another event ("did you mean
// Stop?").
func TestUnfiredClaudeCodeHookEventIsNotTakenForATypo(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"),
		[]byte(`{"hooks": {"ConfigChange": [{"hooks": [{"type": "command", "command": "npm ci"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	_, warns, err := Load(context.Background(), Options{Cwd: dir, Home: home, Trusted: true,
		ManagedPaths: []string{filepath.Join(home, "none.json")}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.Message)
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, `hook event "ConfigChange" is a Claude Code event reins does not fire`) || strings.Contains(got, "did you mean") {
		t.Errorf("warnings %q, want ConfigChange named as an event reins does not fire, with no typo suggestion", got)
	}
}
