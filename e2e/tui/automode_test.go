package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/automode"
	"reins/internal/llm/llmtest"
)

// In the terminal UI, Shift+Tab reaches auto mode after plan; the
// classifier's block is shown and the model told, and when the classifier
// cannot answer the permission dialog comes back.
func TestAutoModeInTheTerminal(t *testing.T) {
	block := llmtest.Turn{Side: true, MatchText: automode.VerdictTool,
		Blocks: []llmtest.Block{llmtest.ToolUse("v1", automode.VerdictTool, map[string]string{"decision": "block", "reason": "archives are not wanted"})}}
	fail := llmtest.Turn{Side: true, MatchText: automode.VerdictTool, Fault: &llmtest.Fault{Status: 400, ErrorType: "invalid_request_error", Message: "no verdict today"}}
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": "tar -cf a.tar notes.txt", "description": "archive"})),
		block,
		llmtest.Reply("skipped the archive"),
		llmtest.Calls(llmtest.ToolUse("b2", "Bash", map[string]any{"command": "tar -cf b.tar notes.txt", "description": "archive again"})),
		fail,
		llmtest.Reply("archived after all"))
	tt.sb.Write(t, "notes.txt", "n")
	tt.start()
	tt.ready()
	tt.keys("BTab")
	tt.waitFor("accept edits on")
	tt.keys("BTab")
	tt.waitFor("plan mode on")
	tt.keys("BTab")
	tt.waitFor("auto mode on")

	tt.prompt("archive the notes")
	tt.waitFor("skipped the archive")
	tt.waitFor("Auto mode blocked Bash", "archives are not wanted")
	if _, err := os.Stat(filepath.Join(tt.sb.Dir, "a.tar")); err == nil {
		t.Fatal("the blocked command ran")
	}
	if res := tt.requests(3)[2].ToolResults(); len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].ResultText(), "Auto mode blocked this Bash call") {
		t.Errorf("the model got %+v", res)
	}

	tt.prompt("try again")
	tt.waitFor("tar -cf b.tar notes.txt", "Do you want to proceed?")
	tt.keys("Enter")
	tt.waitFor("archived after all")
	if _, err := os.Stat(filepath.Join(tt.sb.Dir, "b.tar")); err != nil {
		t.Errorf("the command approved in the dialog did not run: %v", err)
	}
}
