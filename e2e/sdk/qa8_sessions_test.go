package sdk_test

import (
	"path/filepath"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// Without a sessionStore the TypeScript SDK's listSessions,
// getSessionInfo and getSessionMessages read $CLAUDE_CONFIG_DIR/projects
// (~/.claude/projects). The two ways the README gives to have them find
// reins's sessions work, resume included: reins recording into Claude
// Code's folder (REINS_CONFIG_DIR=~/.claude), or the program pointing
// CLAUDE_CONFIG_DIR at reins's folder.
func TestQA8TypeScriptSDKListsReinsSessionsWithoutASessionStore(t *testing.T) {
	for _, tc := range []struct{ name, scenario, env string }{
		{"REINS_CONFIG_DIR is Claude Code's folder", "", "claude"},
		{"CLAUDE_CONFIG_DIR is reins's folder", "reins-folder", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t, llmtest.Reply("Noted: KIWI."), llmtest.Reply("It was KIWI."))
			sb := e2etest.NewSandbox(t, srv.URL)
			var env []string
			if tc.env == "claude" {
				env = append(env, "REINS_CONFIG_DIR="+filepath.Join(sb.Home, ".claude"))
			}
			_, summary := runScript(t, sb, "qa8list.mjs", tc.scenario, env...)
			first, _ := summary["first"].(string)
			if first == "" {
				t.Fatalf("no session id: %s", js(summary))
			}
			if got := js(summary["listed"]); got != `["`+first+`"]` {
				t.Errorf("listSessions({dir}) = %s, want the session", got)
			}
			if got := js(summary["listedAll"]); got != `["`+first+`"]` {
				t.Errorf("listSessions() = %s, want the session", got)
			}
			if got := summary["info"]; got != "remember KIWI" {
				t.Errorf("getSessionInfo summary = %v, want the first prompt", got)
			}
			if got := summary["firstMessages"]; got != float64(2) {
				t.Errorf("getSessionMessages: %v messages, want 2", got)
			}
			if got := summary["resumed"]; got != first {
				t.Errorf("resumed as %v, want %s", got, first)
			}
			if got := summary["resumedMessages"]; got != float64(4) {
				t.Errorf("after the resume getSessionMessages gives %v messages, want 4", got)
			}
		})
	}
}
