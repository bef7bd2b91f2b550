package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// firstText is the text of the first message of a request: the memory
// files reach the model there.
func firstText(r *llmtest.Request) string {
	if len(r.Messages) == 0 {
		return ""
	}
	return historyTexts(r)[0]
}

// An --add-dir folder's CLAUDE.md reaches the model only with
// CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD set, in the environment or
// in the settings' env, as in Claude Code; before, it always loaded.
func TestQA8AddDirMemoryNeedsTheEnvironmentVariable(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	extra := t.TempDir()
	if err := os.WriteFile(filepath.Join(extra, "CLAUDE.md"), []byte("EXTRA-FOLDER-MEMORY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, "CLAUDE.md", "PROJECT-MEMORY\n")
	run := func(env ...string) *llmtest.Request {
		t.Helper()
		srv.Add(llmtest.Reply("ok"))
		s := *sb
		s.Env = append(append([]string(nil), sb.Env...), env...)
		r := s.Run(t, "", "-p", "hi", "--add-dir", extra)
		if r.Code != 0 {
			t.Fatalf("code %d err %q", r.Code, r.Stderr)
		}
		reqs := srv.Requests()
		return reqs[len(reqs)-1]
	}
	if got := firstText(run()); !strings.Contains(got, "PROJECT-MEMORY") || strings.Contains(got, "EXTRA-FOLDER-MEMORY") {
		t.Errorf("without the variable: want the project's memory and not the --add-dir folder's:\n%s", got)
	}
	if got := firstText(run("CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1")); !strings.Contains(got, "EXTRA-FOLDER-MEMORY") {
		t.Errorf("with the variable set: the --add-dir folder's memory is missing:\n%s", got)
	}
	sb.Write(t, ".claude/settings.json", `{"env":{"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD":"true"}}`)
	if got := firstText(run()); !strings.Contains(got, "EXTRA-FOLDER-MEMORY") {
		t.Errorf("with the variable in the settings' env: the --add-dir folder's memory is missing:\n%s", got)
	}
}

// A rule whose paths: glob has brace alternatives (the form Claude Code's
// documentation shows) reaches the model with the Read of a matching
// file; its glob was cut at the comma, so it never did.
func TestQA8RuleWithBraceGlobLoadsWhenAMatchingFileIsRead(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/rules/frontend.md", "---\npaths:\n  - \"src/**/*.{ts,tsx}\"\n---\nFRONTEND-RULE: use hooks.\n")
	f := sb.Write(t, "src/ui/App.tsx", "export const App = 1\n")
	srv.Add(
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("r1", "Read", map[string]any{"file_path": f})}},
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "read the app")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "done" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if carries(reqs[0], "FRONTEND-RULE") {
		t.Error("the conditional rule was sent before a matching file was read")
	}
	if !carries(reqs[len(reqs)-1], "FRONTEND-RULE") {
		t.Errorf("the rule did not come with the Read of src/ui/App.tsx:\n%q\nstderr %s", historyTexts(reqs[len(reqs)-1]), r.Stderr)
	}
}
