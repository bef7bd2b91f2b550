package tui

import (
	"testing"
)

// A message for the user that arrives before the UI is drawn (here a
// SessionStart hook's systemMessage) is shown, and the UI starts: it used
// to freeze on the trust screen.
func TestQANoticeBeforeTheUIStartsIsShown(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".claude/settings.json", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo '{\"systemMessage\": \"qa hello from the hook\"}'"}]}]}}`)
	tt.start()
	tt.ready()
	tt.waitFor("qa hello from the hook")
}

// An MCP server that fails to start is noticed on screen without the user
// having to open /mcp.
func TestQAMCPServerThatFailsToStartIsNoticed(t *testing.T) {
	tt := newTerm(t)
	tt.start("--mcp-config", `{"mcpServers":{"broken":{"command":"/nonexistent/qa-mcp-server"}}}`)
	tt.ready()
	tt.waitFor(`MCP server "broken"`, "/nonexistent/qa-mcp-server")
}
