package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// A custom command typed in the terminal UI attaches what its arguments
// mention (an MCP resource, a file), as the same line does in print and
// SDK modes; before, the mentions reached the model as plain text.
func TestCustomCommandArgumentsAttachTheirMentionsInTheTerminalUI(t *testing.T) {
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"gap": map[string]any{"command": gapServer(t)}}})
	tt := newTerm(t, llmtest.Reply("Reviewed."))
	tt.sb.Write(t, ".claude/commands/review.md", "Review this: $ARGUMENTS\n")
	tt.sb.Write(t, "notes.md", "the notes body\n")
	tt.start("--mcp-config", string(cfg))
	tt.ready()
	tt.prompt("/review @gap:docs://api/auth and @notes.md please")
	tt.waitFor("Reviewed.")
	got := messageTexts(tt.requests(1)[0])
	if !strings.Contains(got, "<mcp-resource server=\"gap\" uri=\"docs://api/auth\">\nAuthenticate with a bearer token") {
		t.Errorf("the request lacks the resource:\n%s", got)
	}
	if !strings.Contains(got, "the notes body") {
		t.Errorf("the request lacks notes.md:\n%s", got)
	}
}
