package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/llm/llmtest"
)

// A Notification hook (the usual "tell me when reins waits for me" hook)
// runs when the permission dialog opens, with notification_type
// "permission_prompt" and a message naming the tool.
func TestQAPermsNotificationHookRunsWhenPermissionIsAsked(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": "touch approved.txt", "description": "create a file"})),
		llmtest.Reply("created it"),
	)
	tt.sb.Write(t, ".claude/settings.json", `{"hooks": {"Notification": [{"matcher": "", "hooks": [{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR/notified.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/notified.jsonl\""}]}]}}`)
	tt.start()
	tt.ready()
	tt.prompt("make a file")
	tt.waitFor("touch approved.txt", "Do you want to proceed?")
	log := filepath.Join(tt.sb.Dir, "notified.jsonl")
	var data []byte
	for deadline := time.Now().Add(20 * time.Second); ; {
		data, _ = os.ReadFile(log)
		if strings.Contains(string(data), "}") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Notification hook did not run while the dialog was open; screen:\n%s", tt.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	var in struct {
		Event   string `json:"hook_event_name"`
		Type    string `json:"notification_type"`
		Message string `json:"message"`
		Session string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(strings.TrimSpace(string(data)), "\n", 2)[0]), &in); err != nil {
		t.Fatalf("hook input %q: %v", data, err)
	}
	if in.Event != "Notification" || in.Type != "permission_prompt" || !strings.Contains(in.Message, "Bash") || in.Session == "" {
		t.Errorf("hook input = %+v", in)
	}
	tt.keys("Enter")
	tt.waitFor("created it")
}

// /clear runs SessionEnd hooks (reason "clear") and SessionStart hooks
// (source "clear"), and /resume runs SessionStart hooks (source
// "resume"); the context those print reaches the model in the new or
// resumed conversation.
func TestQAPermsClearAndResumeRunSessionHooks(t *testing.T) {
	afterClear := llmtest.Reply("fresh start")
	afterClear.ResetPrefix = true
	afterResume := llmtest.Reply("resumed")
	afterResume.ResetPrefix = true
	tt := newTerm(t, llmtest.Reply("one"), afterClear, afterResume)
	tt.sb.Write(t, ".claude/settings.json", `{"hooks": {
  "SessionStart": [
    {"matcher": "clear", "hooks": [{"type": "command", "command": "echo CONTEXT-AFTER-CLEAR"}]},
    {"matcher": "resume", "hooks": [{"type": "command", "command": "echo CONTEXT-AFTER-RESUME"}]}
  ],
  "SessionEnd": [{"hooks": [{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR/ended.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/ended.jsonl\""}]}]
}}`)
	tt.start()
	tt.ready()
	tt.prompt("first question")
	tt.waitFor("● one")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("second question")
	tt.waitFor("fresh start")
	if h := messageTexts(tt.requests(2)[1]); !strings.Contains(h, "CONTEXT-AFTER-CLEAR") || strings.Contains(h, "first question") {
		t.Fatalf("after /clear the request is:\n%s", h)
	}
	data, _ := os.ReadFile(filepath.Join(tt.sb.Dir, "ended.jsonl"))
	if !strings.Contains(string(data), `"reason":"clear"`) {
		t.Errorf("SessionEnd hook input = %q, want reason clear", data)
	}

	tt.prompt("/resume")
	tt.waitFor("Resume a conversation", "first question")
	tt.typeText("first")
	tt.keys("Enter")
	tt.waitFor("Resumed: first question")
	tt.prompt("third question")
	tt.waitFor("resumed")
	if h := messageTexts(tt.requests(3)[2]); !strings.Contains(h, "CONTEXT-AFTER-RESUME") || !strings.Contains(h, "first question") {
		t.Fatalf("after /resume the request is:\n%s", h)
	}
	// Exit and wait, so that the last SessionEnd hook has written into
	// the working folder before the test removes it.
	tt.prompt("/exit")
	tt.waitFor("[reins exited")
}
