package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// --project-config-root (the Agent SDK's projectConfigRoot) takes the
// project's settings, hooks and commands from that folder, not from the
// working folder (a worktree of it): CLAUDE_PROJECT_DIR names it too.
func TestProjectConfigRootSuppliesTheProjectConfiguration(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Join(sb.Home, "trusted-checkout")
	mark := filepath.Join(sb.Home, "hook-saw")
	writeFile(t, filepath.Join(root, ".claude", "commands", "hello.md"), "---\ndescription: x\n---\nFROM-THE-ROOT $ARGUMENTS\n")
	writeFile(t, filepath.Join(root, ".claude", "settings.json"),
		`{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"printf %s \"$CLAUDE_PROJECT_DIR\" > `+mark+`"}]}]}}`)
	sb.Write(t, ".claude/commands/hello.md", "---\ndescription: x\n---\nFROM-THE-WORKTREE $ARGUMENTS\n")
	r := sb.Run(t, "", "-p", "/hello there", "--project-config-root", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "FROM-THE-ROOT there") {
		t.Errorf("the prompt was expanded from the wrong folder:\n%s", got)
	}
	saw, err := os.ReadFile(mark)
	if err != nil {
		t.Fatalf("the root's hook did not run: %v", err)
	}
	if real, _ := filepath.EvalSymlinks(root); string(saw) != real {
		t.Errorf("CLAUDE_PROJECT_DIR %q, want %q", saw, real)
	}
	if r := sb.Run(t, "", "-p", "x", "--project-config-root", filepath.Join(sb.Home, "missing")); r.Code != 2 {
		t.Errorf("a missing folder: code %d, stderr %q; want a usage error", r.Code, r.Stderr)
	}
}
