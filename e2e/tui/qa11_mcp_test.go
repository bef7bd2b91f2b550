package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// When an MCP server asks for input during a tool call, the terminal UI
// shows its form, naming the server and its message; what the user
// types goes back to the server, whose tool result reaches the model.
func TestQA11MCPElicitationFormInTheTerminal(t *testing.T) {
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"gap": map[string]any{"command": gapServer(t)}}})
	tt := newTerm(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "mcp__gap__ask", map[string]any{})}},
		llmtest.Reply("Report named."))
	tt.sb.Env = append(tt.sb.Env, "ENABLE_TOOL_SEARCH=false")
	tt.start("--mcp-config", string(cfg), "--allowedTools", "mcp__gap__ask")
	tt.ready()
	tt.prompt("write the report")
	tt.waitFor("MCP server gap asks:", "Which name should the report use?", "Name *")
	tt.typeText("Quarterly")
	tt.keys("Enter")
	tt.waitFor("Report named.")
	res := tt.requests(2)[1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].ResultText(), "action=accept name=Quarterly") {
		t.Errorf("tool result %+v; want the typed name to reach the server", res)
	}
}
