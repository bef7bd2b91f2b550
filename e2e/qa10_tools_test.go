package e2e

import (
	"os"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An .ipynb file is JSON whose cells are escaped strings: a text
// replacement there misses or corrupts the notebook. Edit and MultiEdit
// refuse it and name NotebookEdit, as Claude Code does, and the file is
// left as it was.
func TestQA10EditRefusesNotebooksAndNamesNotebookEdit(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	nb := `{"cells":[{"cell_type":"code","id":"c1","metadata":{},"execution_count":null,"outputs":[],"source":["print(1)\n"]}],"metadata":{},"nbformat":4,"nbformat_minor":5}`
	path := sb.Write(t, "nb.ipynb", nb)
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": path})),
		llmtest.Calls(llmtest.ToolUse("toolu_e", "Edit", map[string]any{"file_path": path, "old_string": "print(1)", "new_string": "print(2)"})),
		llmtest.Calls(llmtest.ToolUse("toolu_m", "MultiEdit", map[string]any{"file_path": path,
			"edits": []map[string]any{{"old_string": "print(1)", "new_string": "print(3)"}}})),
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "change the cell", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	for i, name := range []string{"Edit", "MultiEdit"} {
		got := reqs[2+i].ToolResults()[0]
		if !got.IsError || !strings.Contains(got.ResultText(), "NotebookEdit") {
			t.Errorf("%s on a notebook answered %q (error %v); want an error naming NotebookEdit", name, got.ResultText(), got.IsError)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != nb {
		t.Errorf("the notebook changed:\n%s", b)
	}
}
