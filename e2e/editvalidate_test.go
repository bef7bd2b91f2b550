package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An Edit that cannot apply (the file was never read; old_string is not
// in it) fails at once with the reason, before the permission check, as
// Claude Code validates a call before asking about it: nobody is asked
// to approve an edit that would fail, and print mode lists no denial.
func TestEditThatCannotApplyFailsBeforeAskingPermission(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	path := sb.Write(t, "notes.txt", "alpha\n")
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Edit", map[string]string{"file_path": path, "old_string": "alpha", "new_string": "beta"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Read", map[string]string{"file_path": path})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Edit", map[string]string{"file_path": path, "old_string": "gamma", "new_string": "beta"})),
		llmtest.Reply("done"))
	res := decodeAutoResult(t, sb.Run(t, "", "-p", "edit it", "--output-format", "json"))
	if len(res.PermissionDenials) != 0 {
		t.Errorf("permission_denials %+v, want none: the edits could not apply, so nobody was asked", res.PermissionDenials)
	}
	reqs := srv.Requests()
	if r := reqs[1].ToolResults(); len(r) != 1 || !r[0].IsError || !strings.Contains(resultText(r[0]), "has not been read") {
		t.Errorf("unread file: result %+v, want the read-first error", r)
	}
	if r := reqs[3].ToolResults(); len(r) != 1 || !r[0].IsError || !strings.Contains(resultText(r[0]), "gamma") && !strings.Contains(resultText(r[0]), "not found") {
		t.Errorf("missing old_string: result %+v, want the not-found error", r)
	}
}
