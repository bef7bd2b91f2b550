package e2e

import (
	"os"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// Models write numbers and booleans as strings often enough that Claude
// Code's tools take "offset": "2" and "replace_all": "true"; reins must
// run such calls instead of refusing them as invalid input.
func TestQA3ToolsTakeNumbersAndBooleansWrittenAsStrings(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	f := sb.Write(t, "notes.txt", "one\ntwo\nthree\ntwo\n")
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": f, "offset": "2", "limit": "1"})),
		llmtest.Calls(llmtest.ToolUse("toolu_e", "Edit", map[string]any{"file_path": f, "old_string": "two", "new_string": "2", "replace_all": "true"})),
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "edit", "--permission-mode", "acceptEdits")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	read := reqs[1].ToolResults()[0]
	if read.IsError || !strings.Contains(read.ResultText(), "2\ttwo") || strings.Contains(read.ResultText(), "three") {
		t.Errorf("Read with offset \"2\", limit \"1\" = %q (error %v)", read.ResultText(), read.IsError)
	}
	if edit := reqs[2].ToolResults()[0]; edit.IsError {
		t.Errorf("Edit with replace_all \"true\" = %q", edit.ResultText())
	}
	if b, _ := os.ReadFile(f); string(b) != "one\n2\nthree\n2\n" {
		t.Errorf("file after the edit = %q", b)
	}
}

// Models trained on older Claude Code stop a background command with
// KillShell and its shell_id; the call must reach TaskStop (which
// declares the alias) instead of failing as an unknown tool.
func TestQA3KillShellStopsABackgroundCommand(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": "sleep 60", "run_in_background": true})),
		llmtest.Calls(llmtest.ToolUse("toolu_k", "KillShell", map[string]any{"shell_id": "bash_1"})),
		llmtest.Reply("stopped"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "start and stop", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	res := srv.Requests()[2].ToolResults()[0]
	if res.IsError || !strings.Contains(res.ResultText(), "Stopped task bash_1") {
		t.Errorf("KillShell answered %q (error %v)", res.ResultText(), res.IsError)
	}
}
