package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// The @ menu leaves out files .gitignore ignores (respectGitignore, on by
// default, as in Claude Code's file picker); respectGitignore: false in
// settings lists them again. reins offered build output and logs beside
// the sources.
func TestQA8MentionMenuRespectsGitignore(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("unused"))
	tt.sb.Write(t, ".gitignore", "dist/\n")
	tt.sb.Write(t, "src/widget_impl.go", "package src\n")
	tt.sb.Write(t, "dist/widget_bundle.js", "x\n")
	if out, err := exec.Command("git", "-C", tt.sb.Dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	tt.start()
	tt.ready()
	tt.typeText("@widget")
	s := tt.waitFor("src/widget_impl.go")
	if strings.Contains(s, "widget_bundle.js") {
		t.Fatalf("the @ menu offers an ignored file:\n%s", s)
	}

	user := filepath.Join(tt.sb.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte(`{"respectGitignore": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tt.start()
	tt.ready()
	tt.typeText("@widget")
	tt.waitFor("src/widget_impl.go", "dist/widget_bundle.js")
}
