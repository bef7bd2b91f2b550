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

// /context shows the memory files as their own category; they were
// counted in the system prompt.
func TestQA8ContextShowsMemoryFilesApart(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, "CLAUDE.md", strings.Repeat("memory line of forty characters, here.\n", 400))
	tt.start()
	tt.ready()
	tt.prompt("/context")
	tt.waitUntil("a Memory files row of about 4k tokens", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "Memory files") && strings.Contains(l, "4.") && strings.Contains(l, "k") {
				return true
			}
		}
		return false
	})
}
