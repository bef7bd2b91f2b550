package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
	"reins/internal/session"
)

// The session list (reins --resume) shows a Claude Code session of the
// folder; choosing it continues it in reins's own transcript, which gets
// Claude Code's history first, so the next resume still has all of it.
// Claude Code's file is not touched. A damaged line in it, and where the
// session goes on, are told (the list's resume said nothing of either).
func TestResumePickerContinuesAClaudeCodeSession(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("reins goes on"))
	id := "5d0c3f6e-8a41-4b7e-9c2d-1e6f0a9b8c7d"
	ccDir := filepath.Join(tt.sb.Home, ".claude", "projects", session.Slug(tt.sb.Dir))
	if err := os.MkdirAll(ccDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, l := range []map[string]any{
		{"parentUuid": nil, "isSidechain": false, "type": "user", "uuid": "cc-u1", "sessionId": id, "cwd": tt.sb.Dir,
			"timestamp": "2026-11-29T21:20:26.857Z", "version": "2.1.328",
			"message": map[string]any{"role": "user", "content": "remember MANGO please"}},
		{"parentUuid": "cc-u1", "isSidechain": false, "type": "assistant", "uuid": "cc-a1", "sessionId": id, "cwd": tt.sb.Dir,
			"timestamp": "2026-11-29T21:20:27.059Z", "version": "2.1.328",
			"message": map[string]any{"id": "msg_cc1", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
				"content": []any{map[string]any{"type": "text", "text": "Noted: MANGO."}}, "stop_reason": "end_turn",
				"usage": map[string]any{"input_tokens": 10, "output_tokens": 3}}},
	} {
		b, _ := json.Marshal(l)
		data = append(append(data, b...), '\n')
		if len(data) == len(b)+1 {
			data = append(data, "this line is damaged {\n"...)
		}
	}
	ccPath := filepath.Join(ccDir, id+".jsonl")
	if err := os.WriteFile(ccPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	tt.start("--resume")
	tt.waitFor("Do you trust the files in this folder?")
	tt.keys("Enter")
	tt.waitFor("Resume a conversation", "remember MANGO please", "Claude Code")
	tt.keys("Enter")
	tt.waitFor("Resumed: remember MANGO please")
	// The damaged line and where the session goes on are told.
	tt.waitFor("line 2: unreadable line skipped", "recorded by Claude Code")
	tt.prompt("and now?")
	tt.waitFor("reins goes on")
	if h := messageTexts(tt.requests(1)[0]); !strings.Contains(h, "remember MANGO please") || !strings.Contains(h, "Noted: MANGO.") {
		t.Fatalf("the resumed history did not reach the model:\n%s", h)
	}
	tt.keys("C-c", "C-c")
	tt.waitFor("[reins exited 0]")
	own, err := os.ReadFile(filepath.Join(tt.sb.ConfigDir, "projects", session.Slug(tt.sb.Dir), id+".jsonl"))
	if err != nil {
		t.Fatalf("no transcript of the session in reins's folder: %v", err)
	}
	for _, want := range []string{"remember MANGO please", "Noted: MANGO.", "and now?", "reins goes on"} {
		if !strings.Contains(string(own), want) {
			t.Errorf("reins's transcript lacks %q", want)
		}
	}
	if got, _ := os.ReadFile(ccPath); string(got) != string(data) {
		t.Errorf("Claude Code's transcript was changed")
	}
}
