package tui

import (
	"os"
	"path/filepath"
	"strings"
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

// /resume ends the conversation being left: SessionEnd hooks run with
// reason "resume" before the resumed one starts.
func TestQA10ResumeRunsSessionEndWithReasonResume(t *testing.T) {
	afterClear := llmtest.Reply("fresh start")
	afterClear.ResetPrefix = true
	tt := newTerm(t, llmtest.Reply("one"), afterClear)
	tt.sb.Write(t, ".claude/settings.json", `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command",
		"command": "cat >> \"$CLAUDE_PROJECT_DIR/ended.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/ended.jsonl\""}]}]}}`)
	tt.start()
	tt.ready()
	tt.prompt("first question")
	tt.waitFor("● one")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("second question")
	tt.waitFor("fresh start")
	tt.prompt("/resume")
	tt.waitFor("Resume a conversation", "first question")
	tt.typeText("first")
	tt.keys("Enter")
	tt.waitFor("Resumed: first question")
	data, _ := os.ReadFile(filepath.Join(tt.sb.Dir, "ended.jsonl"))
	if !strings.Contains(string(data), `"reason":"clear"`) || !strings.Contains(string(data), `"reason":"resume"`) {
		t.Errorf("SessionEnd hook inputs %q, want reasons clear and resume", data)
	}
	// Exit and wait, so that the last SessionEnd hook has written into
	// the working folder before the test removes it.
	tt.prompt("/exit")
	tt.waitFor("[reins exited")
}
