package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// Models write home paths as "~/...". Read refuses them as not absolute,
// but must point at the home folder, not at a "~" folder under the
// working folder; Glob takes "~" as its path as Grep does.
func TestQAHomeRelativePathsPointAtTheHomeFolder(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": "~/notes/todo.txt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_g", "Glob", map[string]any{"pattern": "*.txt", "path": "~/notes"})),
		llmtest.Calls(llmtest.ToolUse("toolu_s", "Grep", map[string]any{"pattern": "buy milk", "path": "~/notes"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	home := filepath.Join(sb.Home, "notes", "todo.txt")
	if err := os.MkdirAll(filepath.Dir(home), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(home, []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "read my notes", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	read := reqs[1].ToolResults()[0].ResultText()
	if !strings.Contains(read, home) || strings.Contains(read, filepath.Join(sb.Dir, "~")) {
		t.Errorf("Read of ~/notes/todo.txt answered %q; it should suggest %s", read, home)
	}
	if got := reqs[2].ToolResults()[0]; got.IsError || !strings.Contains(got.ResultText(), "todo.txt") {
		t.Errorf("Glob in ~/notes = %q (error %v)", got.ResultText(), got.IsError)
	}
	if got := reqs[3].ToolResults()[0]; got.IsError || !strings.Contains(got.ResultText(), "todo.txt") {
		t.Errorf("Grep in ~/notes = %q (error %v)", got.ResultText(), got.IsError)
	}
}
