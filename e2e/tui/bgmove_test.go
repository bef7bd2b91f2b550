package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// While a Bash command runs, its line offers Ctrl+B; pressing it answers
// the call at once with the output so far and a task id, the turn goes
// on, and once the command ends the model is told in a turn of its own.
func TestCtrlBMovesRunningBashToTheBackground(t *testing.T) {
	cmd := "echo before-move; touch started; while [ ! -e release ]; do sleep 0.05; done; echo after-move"
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": cmd, "description": "wait for release"})),
		llmtest.Reply("carried on while it runs"),
		llmtest.Reply("noted that it finished"))
	tt.sb.Write(t, ".claude/settings.json", `{"permissions":{"allow":["Bash"]}}`)
	tt.start()
	tt.ready()
	tt.prompt("start the long job")
	tt.waitFor("ctrl+b to run in background")
	// The offer shows as soon as the command starts; the move is pressed
	// once it has printed, so that its output so far is not empty.
	started := filepath.Join(tt.sb.Dir, "started")
	tt.waitUntil("the command to print", func(string) bool {
		_, err := os.Stat(started)
		return err == nil
	})
	tt.keys("C-b")
	tt.waitFor("carried on while it runs")
	rs := tt.requests(2)
	second := messageTexts(rs[1])
	_, result, _ := strings.Cut(second, "[result toolu_bg]")
	if !strings.HasPrefix(result, " The user moved this command to the background") || !strings.Contains(result, "Output so far:\nbefore-move") || strings.Contains(result, "after-move") {
		t.Fatalf("second request:\n%s\nwant the moved call's result with the output so far", second)
	}
	if err := os.WriteFile(filepath.Join(tt.sb.Dir, "release"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tt.waitFor("noted that it finished")
	third := messageTexts(tt.requests(3)[2])
	if !strings.Contains(third, "<task-notification>") || !strings.Contains(third, "<status>completed</status>") {
		t.Fatalf("third request:\n%s\nwant the task's completion notification", third)
	}
}
