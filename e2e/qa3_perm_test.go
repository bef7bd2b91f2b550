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

// A project settings file whose allow list is written as a string (and
// whose defaultMode has a typo) still applies its deny rules: the secret
// stays unread, and the warning names the file, position and field.
func TestQAPermsMistypedAllowListDoesNotDropDenyRules(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "cat secrets/key"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "secrets/key", "TOPSECRET")
	file := sb.Write(t, ".claude/settings.json", `{
  "permissions": {
    "deny": ["Read(./secrets/**)"],
    "allow": "Bash(npm test)",
    "defaultMode": "acceptEdit",
    "ask": ["Bash(git push"]
  }
}`)
	r := sb.Run(t, "", "-p", "show me the key")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for _, want := range []string{file + ":4:14: setting permissions.allow", file + `:5:20: setting permissions.defaultMode: unknown mode "acceptEdit"`,
		file + `:6:13: permission rule "Bash(git push": missing closing parenthesis; rule ignored`} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q does not contain %q", r.Stderr, want)
		}
	}
	got := srv.Requests()[1].LastUserText()
	if strings.Contains(got, "TOPSECRET") || !strings.Contains(got, "deny rule Read(./secrets/**)") {
		t.Errorf("tool result = %q, want the deny rule to refuse the read", got)
	}
}

// After an autocompaction the SessionStart hooks run again with source
// "compact" (the matcher users write to put standing context back), and
// what they print follows the summary; PreCompact hooks see trigger
// "auto".
func TestQAPermsSessionStartHooksRunAgainAfterCompaction(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{
  "models": {"claude-sonnet-4-5": {"contextWindow": 60000, "maxOutputTokens": 8000}},
  "hooks": {
    "SessionStart": [
      {"matcher": "startup", "hooks": [{"type": "command", "command": "echo STARTUP-CONTEXT"}]},
      {"matcher": "compact", "hooks": [{"type": "command", "command": "echo REMEMBER-THE-STYLE-GUIDE"}]}
    ],
    "PreCompact": [{"matcher": "auto", "hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/precompact.json\""}]}]
  }
}`)
	f := sb.Write(t, "notes.txt", "notes\n")
	srv.Add(
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": f})},
			Usage: &llmtest.UsageSpec{InputTokens: 45000, OutputTokens: 100}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>The user asked about notes.txt.</summary>")}, Side: true},
		llmtest.Reply("Continuing after the summary."))
	r := sb.Run(t, "", "-p", "what is in notes.txt?", "--model", "sonnet")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Continuing after the summary." {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (tool turn, summary, continuation)", len(reqs))
	}
	var texts []string
	for _, m := range reqs[2].Messages {
		texts = append(texts, m.Text())
	}
	joined := strings.Join(texts, "\n")
	if !strings.Contains(joined, "REMEMBER-THE-STYLE-GUIDE") {
		t.Errorf("the continuation lacks the SessionStart(compact) context:\n%s", joined)
	}
	if strings.Index(joined, "REMEMBER-THE-STYLE-GUIDE") < strings.Index(joined, "The user asked about notes.txt.") {
		t.Error("the SessionStart(compact) context comes before the summary")
	}
	if strings.Count(joined, "STARTUP-CONTEXT") > 1 {
		t.Errorf("the startup context is repeated:\n%s", joined)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "precompact.json"))
	if err != nil || !strings.Contains(string(data), `"trigger":"auto"`) {
		t.Errorf("PreCompact hook input = %q (%v), want trigger auto", data, err)
	}
}

// A PermissionRequest hook sees permission_suggestions in Claude Code's
// shape (rules as {toolName, ruleContent}) and may answer with
// updatedPermissions in that shape: the call runs and the rule is saved
// to .claude/settings.local.json.
func TestQAPermsPermissionRequestHookSavesClaudeCodeShapedRules(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch made.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "cat > \"$CLAUDE_PROJECT_DIR/request.json\"; echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PermissionRequest\", \"decision\": {\"behavior\": \"allow\", \"updatedPermissions\": [{\"type\": \"addRules\", \"rules\": [{\"toolName\": \"Bash\", \"ruleContent\": \"touch:*\"}], \"behavior\": \"allow\", \"destination\": \"localSettings\"}]}}}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "make a file")
	if r.Code != 0 || strings.Contains(r.Stderr, "warning") {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "request.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		Suggestions []struct {
			Type  string `json:"type"`
			Rules []struct {
				ToolName    string `json:"toolName"`
				RuleContent string `json:"ruleContent"`
			} `json:"rules"`
		} `json:"permission_suggestions"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("hook input %s: %v", data, err)
	}
	if len(in.Suggestions) == 0 || len(in.Suggestions[0].Rules) == 0 || in.Suggestions[0].Rules[0].ToolName != "Bash" || in.Suggestions[0].Rules[0].RuleContent == "" {
		t.Errorf("permission_suggestions = %s", data)
	}
	local, err := os.ReadFile(filepath.Join(sb.Dir, ".claude", "settings.local.json"))
	if err != nil || !strings.Contains(string(local), `"Bash(touch:*)"`) {
		t.Errorf("settings.local.json = %q (%v), want the rule Bash(touch:*)", local, err)
	}
}

// Read-deny rules keep their files out of Grep and Glob searches of the
// folders around them, as they keep them from Read: a search of the
// whole project does not show the secret, even when its glob names the
// denied file; files no rule denies are still found.
func TestQAPermsReadDenyRulesHideFilesFromGrepAndGlob(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Grep", map[string]string{"pattern": "API_KEY", "output_mode": "content"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Grep", map[string]string{"pattern": "API_KEY", "glob": ".env", "output_mode": "content"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Glob", map[string]string{"pattern": "**/*"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"deny": ["Read(./secrets/**)", "Read(./.env)"]}}`)
	sb.Write(t, "secrets/key", "API_KEY=TOPSECRET\n")
	sb.Write(t, ".env", "API_KEY=ENVSECRET\n")
	sb.Write(t, "src/app.txt", "API_KEY=placeholder\n")
	r := sb.Run(t, "", "-p", "find the api keys")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for i, want := range []string{"src/app.txt:1:API_KEY=placeholder", "No matches", "src/app.txt"} {
		got := reqs[i+1].LastUserText()
		if !strings.Contains(got, want) {
			t.Errorf("result %d = %q, want it to contain %q", i+1, got, want)
		}
		for _, leak := range []string{"TOPSECRET", "ENVSECRET", "secrets/key", ".env"} {
			if strings.Contains(got, leak) {
				t.Errorf("result %d = %q shows %q, which a deny rule covers", i+1, got, leak)
			}
		}
	}
}

// apiKeyHelper runs with the settings' env applied (as Claude Code
// applies env at start): a helper that reads a variable set in
// settings.json produces the key the requests carry.
func TestQAPermsAPIKeyHelperSeesSettingsEnv(t *testing.T) {
	srv := server(t, llmtest.Reply("hello"))
	sb := e2etest.NewSandbox(t, srv.URL)
	var env []string
	for _, e := range sb.Env {
		if !strings.HasPrefix(e, "ANTHROPIC_API_KEY=") {
			env = append(env, e)
		}
	}
	sb.Env = env
	settings := filepath.Join(sb.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"env": {"TEAM_KEY": "sk-team-123"}, "apiKeyHelper": "printf %s \"$TEAM_KEY\""}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[0].Header.Get("X-Api-Key"); got != "sk-team-123" {
		t.Errorf("x-api-key = %q, want the key the helper printed from the settings env", got)
	}
}

// A PreToolUse hook's updatedInput changes the fields it names and keeps
// the others, as the hooks reference's {"field_to_modify": ...} example
// reads: a hook that only raises the timeout does not drop the command.
func TestQAPermsPreToolUseUpdatedInputKeepsOtherFields(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "echo original", "description": "say it"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash(echo:*)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"updatedInput\": {\"timeout\": 60000}}}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "say it")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[1].LastUserText(); strings.TrimSpace(got) != "original" {
		t.Errorf("tool result = %q, want the command to run with the hook's timeout", got)
	}
}

// A SessionStart hook may export variables for the session's Bash
// commands by appending to $CLAUDE_ENV_FILE; the hook runs without errors
// and a later command sees them.
func TestQAPermsSessionStartHookExportsEnvThroughClaudeEnvFile(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo \"$GREETING/$NODE_ENV\""})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash(echo:*)"]}, "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command",
  "command": "echo 'export GREETING=hello-from-hook' >> \"$CLAUDE_ENV_FILE\" && echo 'export NODE_ENV=test' >> \"$CLAUDE_ENV_FILE\""}]}]}}`)
	r := sb.Run(t, "", "-p", "greet", "--verbose")
	if r.Code != 0 || strings.Contains(r.Stderr, "warning") {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	if got := strings.TrimSpace(srv.Requests()[1].LastUserText()); got != "hello-from-hook/test" {
		t.Errorf("command output = %q, want the variables the hook exported", got)
	}
}
