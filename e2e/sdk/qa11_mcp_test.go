package sdk_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An MCP server's request for input in an SDK session goes to the
// client's onElicitation (as an elicitation control request, with the
// server's name, message, mode and schema), and its answer reaches the
// server.
func TestQA11MCPElicitationGoesToOnElicitation(t *testing.T) {
	gap := filepath.Join(t.TempDir(), "mcpgapserver")
	if out, err := exec.Command("go", "build", "-o", gap, "../testdata/mcpgapserver").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "mcp__gap__ask", map[string]any{})}},
		llmtest.Reply("Named."))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "qa11mcp.mjs", "", "GAP_SERVER="+gap, "ENABLE_TOOL_SEARCH=false")
	if e, ok := summary["error"]; ok {
		t.Fatalf("script: %v\nstderr: %v", e, summary["stderr"])
	}
	els, _ := summary["elicitations"].([]any)
	if len(els) != 1 {
		t.Fatalf("onElicitation saw %v; want one request", summary["elicitations"])
	}
	req := els[0].(map[string]any)
	schema, _ := req["requestedSchema"].(map[string]any)
	if req["serverName"] != "gap" || req["message"] != "Which name should the report use?" || req["mode"] != "form" || schema["type"] != "object" {
		t.Errorf("onElicitation request %v", req)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d model requests; want the tool result sent back", len(reqs))
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].ResultText(), "action=accept name=From the SDK") {
		t.Errorf("tool result %+v; want the SDK's answer to reach the server", res)
	}
}
