package e2e

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

func TestMCPServerPromptIsASlashCommand(t *testing.T) {
	node, modules := npmPeer(t, "@modelcontextprotocol/server-everything")
	srv := server(t, llmtest.Reply("It is sunny."))
	sb := e2etest.NewSandbox(t, srv.URL)
	everything := filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": node, "args": []string{everything, "stdio"}}}})
	r := sb.Run(t, "", "-p", "/mcp__everything__args-prompt Paris", "--mcp-config", string(cfg), "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	lines := decodeLines(t, r.Stdout)
	var cmds []string
	for _, c := range lines[0]["slash_commands"].([]any) {
		cmds = append(cmds, c.(string))
	}
	if !slices.Contains(cmds, "mcp__everything__args-prompt") {
		t.Errorf("init slash_commands %v lack the server's prompt", cmds)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "What's weather in Paris?") {
		t.Errorf("expanded prompt = %q", got)
	}
}
