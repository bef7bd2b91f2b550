package prompt

import (
	"strings"
	"testing"

	"reins/internal/gitinfo"
)

// ExcludeDynamic leaves the working folder, the date and the git snapshot
// out of the default prompt, and DynamicContext carries them; a custom
// prompt is not affected.
func TestExcludeDynamicMovesThePerUserPartsToDynamicContext(t *testing.T) {
	git := gitinfo.Snapshot{IsRepo: true, Branch: "main"}
	o := Options{Cwd: "/home/ann/proj", AddDirs: []string{"/home/ann/lib"}, Platform: "linux", Date: "2026-11-30",
		Model: "claude-opus-5-5", Git: git, ExcludeDynamic: true}
	var sys []string
	for _, b := range Build(o) {
		sys = append(sys, b.Text)
	}
	all := strings.Join(sys, "\n")
	for _, s := range []string{"/home/ann/proj", "/home/ann/lib", "2026-11-30", "gitStatus"} {
		if strings.Contains(all, s) {
			t.Errorf("the system prompt still holds %q", s)
		}
	}
	if !strings.Contains(all, "Model: claude-opus-5-5") {
		t.Errorf("the system prompt lost the model: %s", all)
	}
	dyn := DynamicContext(o)
	for _, s := range []string{"<system-reminder>", "Working folder: /home/ann/proj", "Additional working folder: /home/ann/lib",
		"Is a git repository: yes", "2026-11-30", "gitStatus:"} {
		if !strings.Contains(dyn, s) {
			t.Errorf("DynamicContext lacks %q:\n%s", s, dyn)
		}
	}
	o.Custom = "Be brief."
	var custom []string
	for _, b := range Build(o) {
		custom = append(custom, b.Text)
	}
	if !strings.Contains(strings.Join(custom, "\n"), "gitStatus") {
		t.Error("with a custom prompt the git snapshot must stay in the system prompt")
	}
}
