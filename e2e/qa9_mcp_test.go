package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A server whose configuration uses a variable that is unset and has no
// default is not started, as Claude Code refuses such a configuration:
// print mode names the server, where it is configured and the variable
// on stderr, the init message reports it failed, and the other server
// starts. Before, the variable expanded to empty text and the server was
// started with an empty token.
func TestQA9MCPServerWithAnUnsetVariableIsNotStarted(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "QA9_SET_TOKEN=abc")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"bad": map[string]any{"command": e2etest.Binary(t), "args": []string{"mcp", "serve"},
			"env": map[string]string{"API_TOKEN": "${QA9_UNSET_TOKEN}", "MODE": "${QA9_UNSET_MODE:-fast}"}},
		"good": map[string]any{"command": "sh", "args": []string{"-c", `exec "$1" mcp serve`, "good", e2etest.Binary(t)},
			"env": map[string]string{"API_TOKEN": "${QA9_SET_TOKEN}"}},
	}})
	r := sb.Run(t, "", "-p", "--output-format", "stream-json", "--verbose", "--mcp-config", string(cfg), "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	want := `reins: warning: MCP server "bad" (--mcp-config) is not started: its configuration uses unset environment variables: QA9_UNSET_TOKEN (set them, or give a default: ${QA9_UNSET_TOKEN:-value})`
	if !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
	}
	status := map[string]string{}
	for _, s := range decodeLines(t, r.Stdout)[0]["mcp_servers"].([]any) {
		m := s.(map[string]any)
		status[m["name"].(string)] = m["status"].(string)
	}
	if status["bad"] != "failed" || status["good"] != "connected" {
		t.Errorf("init mcp_servers = %v; want bad failed, good connected", status)
	}
}
