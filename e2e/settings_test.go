package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// claudeSettings is a project .claude/settings.json as a Claude Code user
// writes it: allow and deny rules and a PreToolUse hook script.
const claudeSettings = `{
  "permissions": {
    "allow": ["Bash(echo allowed:*)"],
    "deny": ["Bash(rm:*)", "Read(./secret.txt)"]
  },
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh", "timeout": 10}]}
    ]
  }
}`

// guardHook logs every Bash call it sees and blocks network commands.
const guardHook = `#!/usr/bin/env bash
input=$(cat)
echo "$input" >> "$CLAUDE_PROJECT_DIR/hook.log"
case "$input" in
  *curl*) echo "network access is off in this project" >&2; exit 2 ;;
esac
exit 0
`

func TestProjectSettingsFromClaudeCodeTakeEffectInPrintMode(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo allowed yes"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "rm -rf data"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Bash", map[string]string{"command": "curl http://example.com"})))
	sb := e2etest.NewSandbox(t, srv.URL)
	srv.Add(llmtest.Calls(llmtest.ToolUse("toolu_4", "Read", map[string]string{"file_path": filepath.Join(sb.Dir, "secret.txt")})),
		llmtest.Reply("done"))
	sb.Write(t, ".claude/settings.json", claudeSettings)
	hook := sb.Write(t, ".claude/hooks/guard.sh", guardHook)
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, "data/keep.txt", "keep me")
	sb.Write(t, "secret.txt", "hunter2")

	r := sb.Run(t, "", "-p", "tidy up", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		Result            string `json:"result"`
		PermissionDenials []struct {
			ToolName  string `json:"tool_name"`
			ToolUseID string `json:"tool_use_id"`
		} `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("output is not one JSON object: %q", r.Stdout)
	}
	if res.Result != "done" {
		t.Errorf("result = %q", res.Result)
	}
	var denied []string
	for _, d := range res.PermissionDenials {
		denied = append(denied, d.ToolUseID)
	}
	if strings.Join(denied, ",") != "toolu_2,toolu_3,toolu_4" {
		t.Errorf("permission_denials = %v, want the rm, curl and Read calls", denied)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "data", "keep.txt")); err != nil {
		t.Errorf("the denied rm ran: %v", err)
	}

	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	for i, want := range []string{"allowed yes", "deny rule Bash(rm:*)", "network access is off in this project", "deny rule Read(./secret.txt)"} {
		if got := reqs[i+1].LastUserText(); !strings.Contains(got, want) {
			t.Errorf("tool result %d = %q, want it to contain %q", i+1, got, want)
		}
	}
	if strings.Contains(reqs[4].LastUserText(), "hunter2") {
		t.Error("the denied Read leaked the secret")
	}
	log, err := os.ReadFile(filepath.Join(sb.Dir, "hook.log"))
	if err != nil {
		t.Fatalf("the PreToolUse hook never ran: %v", err)
	}
	if n := strings.Count(string(log), `"hook_event_name":"PreToolUse"`); n != 3 {
		t.Errorf("the hook saw %d Bash calls, want 3 (its matcher is Bash):\n%s", n, log)
	}
}
