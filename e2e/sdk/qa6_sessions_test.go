package sdk_test

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// The SDK's sessionStore option: reins sends each transcript line as a
// transcript_mirror line (--session-mirror), so listSessions and
// getSessionMessages over the store see the session; resuming it from the
// store (the SDK hands the stored copy back under CLAUDE_CONFIG_DIR) goes
// on under the same id, and the store gets the new turn. reins ignored
// --session-mirror, so the store stayed empty.
func TestTypeScriptAgentSDKSessionStoreMirrorsAndResumes(t *testing.T) {
	srv := server(t, llmtest.Reply("Noted: KIWI."), llmtest.Reply("It was KIWI."))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "qa6mirror.mjs", "")
	first, _ := summary["first"].(string)
	if first == "" {
		t.Fatalf("no session id: %s", js(summary))
	}
	if got := js(summary["listed"]); got != `["`+first+`"]` {
		t.Errorf("listSessions over the store = %s, want the session", got)
	}
	if got := summary["firstMessages"]; got != float64(2) {
		t.Errorf("getSessionMessages over the store: %v messages, want 2", got)
	}
	if got := summary["resumed"]; got != first {
		t.Errorf("resumed as %v, want the same session %s", got, first)
	}
	if got := summary["resumedMessages"]; got != float64(4) {
		t.Errorf("after the resume the store holds %v messages, want 4", got)
	}
	if req := srv.Requests()[1]; !strings.Contains(js(req.Messages), "remember KIWI") {
		t.Errorf("the resumed request lacks the history")
	}
}
