package agent

import (
	"os"
	"path/filepath"
	"testing"
)

// Agent files written by Claude Code's agent generator keep a multi-line
// description on one YAML line with literal "\n" escapes; they are line
// breaks, as Claude Code reads them.
func TestLoadTurnsEscapedNewlinesInDescriptionIntoLineBreaks(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "agents", "test-runner.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	text := "---\nname: test-runner\ndescription: Use this agent to run tests. Examples:\\n\\n<example>Context: new code. user: \"run the tests\"</example>\ncolor: green\n---\nYou run tests.\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	defs, errs := Load(Roots{Project: []string{root}})
	if len(errs) != 0 || len(defs) != 1 {
		t.Fatalf("defs %d, errs %v", len(defs), errs)
	}
	want := "Use this agent to run tests. Examples:\n\n<example>Context: new code. user: \"run the tests\"</example>"
	if got := defs[0].Description; got != want {
		t.Errorf("Description = %q, want %q", got, want)
	}
}
