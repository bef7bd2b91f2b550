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
