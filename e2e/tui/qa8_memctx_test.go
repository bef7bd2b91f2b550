package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// /clear reads the memory files again: a CLAUDE.md changed during the
// session reaches the new conversation, as in Claude Code. The new
// conversation kept the memory read at start.
func TestQA8ClearReadsTheMemoryFilesAgain(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("first answer"), llmtest.Reply("after clear"))
	tt.sb.Write(t, "CLAUDE.md", "ORIGINAL-MEMORY\n")
	tt.start()
	tt.ready()
	tt.prompt("hello")
	tt.waitFor("first answer")
	tt.sb.Write(t, "CLAUDE.md", "CHANGED-MEMORY\n")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("next")
	tt.waitFor("after clear")
	rs := tt.requests(2)
	first, _ := json.Marshal(rs[1].Messages[0])
	if !strings.Contains(string(first), "CHANGED-MEMORY") || strings.Contains(string(first), "ORIGINAL-MEMORY") {
		t.Fatalf("the request after /clear does not carry CLAUDE.md as it is now:\n%s", first)
	}
}
