package tui

import (
	"os"
	"path/filepath"
	"testing"

	"reins/internal/llm/llmtest"
)

// A hook's statusMessage is what the spinner says while the hook runs;
// before, the spinner kept its own label and the setting did nothing.
func TestQA10HookStatusMessageShowsInTheSpinner(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("checked and sent"))
	tt.sb.Write(t, ".claude/settings.json", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command",
		"statusMessage":"Scanning the prompt for secrets",
		"command":"while [ ! -f \"$CLAUDE_PROJECT_DIR/go-ahead\" ]; do sleep 0.05; done"}]}]}}`)
	tt.start()
	tt.ready()
	tt.prompt("a prompt the hook checks")
	tt.waitFor("Scanning the prompt for secrets", "esc to interrupt")
	if err := os.WriteFile(filepath.Join(tt.sb.Dir, "go-ahead"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tt.waitFor("checked and sent")
}
