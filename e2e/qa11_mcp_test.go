package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// elicitRun runs reins in print mode with server-everything, the model
// calling its trigger-elicitation-request tool (which the server offers
// only to a client that declares elicitation), and returns the text of
// the tool's result.
func elicitRun(t *testing.T, sb *e2etest.Sandbox, srv *llmtest.Server) string {
	t.Helper()
	sb.Env = append(sb.Env, "ENABLE_TOOL_SEARCH=false")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": everythingEntry(t, "stdio")}})
	r := sb.Run(t, "", "-p", "--mcp-config", string(cfg), "--allowedTools", "mcp__everything", "ask me")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests; want the tool's result sent back", len(reqs))
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 {
		t.Fatalf("tool results %+v; want one", res)
	}
	return resultText(res[0])
}

func elicitTurns() []llmtest.Turn {
	return []llmtest.Turn{
		{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "mcp__everything__trigger-elicitation-request", map[string]any{})}},
		llmtest.Reply("done"),
	}
}

// In print mode nobody can answer an MCP server's request for input: it
// is declined, and the server's tool reports that rather than failing
// (before, reins did not declare elicitation, and the tool did not exist).
func TestQA11MCPElicitationIsDeclinedInPrintMode(t *testing.T) {
	srv := server(t, elicitTurns()...)
	sb := e2etest.NewSandbox(t, srv.URL)
	if text := elicitRun(t, sb, srv); !strings.Contains(text, "User declined to provide the requested information") {
		t.Errorf("tool result %q; want the server's note of a decline", text)
	}
}

// An Elicitation hook (matched by the server's name) answers in the
// user's place: it is told the server, message, mode and schema, its
// accept and content reach the server; an ElicitationResult hook is told
// that answer before it goes.
func TestQA11MCPElicitationHooksAnswer(t *testing.T) {
	srv := server(t, elicitTurns()...)
	sb := e2etest.NewSandbox(t, srv.URL)
	in, out := filepath.Join(sb.Home, "elicit.json"), filepath.Join(sb.Home, "result.json")
	answer := `{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"name":"Ada Lovelace","check":true}}}`
	writeJSON(t, filepath.Join(sb.Dir, ".claude", "settings.json"), map[string]any{"hooks": map[string]any{
		"Elicitation": []any{
			map[string]any{"matcher": "other", "hooks": []any{map[string]any{"type": "command", "command": "exit 2"}}},
			map[string]any{"matcher": "everything", "hooks": []any{map[string]any{"type": "command", "command": "cat > " + in + "; echo '" + answer + "'"}}},
		},
		"ElicitationResult": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "cat > " + out}}}},
	}})
	text := elicitRun(t, sb, srv)
	if !strings.Contains(text, "User provided the requested information") || !strings.Contains(text, "- Name: Ada Lovelace") {
		t.Errorf("tool result %q; want the hook's answer to reach the server", text)
	}
	var got map[string]any
	b, _ := os.ReadFile(in)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("Elicitation hook input %q: %v", b, err)
	}
	schema, _ := got["requested_schema"].(map[string]any)
	if got["hook_event_name"] != "Elicitation" || got["mcp_server_name"] != "everything" || got["mode"] != "form" ||
		got["message"] != "Please provide inputs for the following fields:" || schema["properties"] == nil {
		t.Errorf("Elicitation hook input %v", got)
	}
	got = nil
	b, _ = os.ReadFile(out)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("ElicitationResult hook input %q: %v", b, err)
	}
	content, _ := got["content"].(map[string]any)
	if got["hook_event_name"] != "ElicitationResult" || got["action"] != "accept" || content["name"] != "Ada Lovelace" {
		t.Errorf("ElicitationResult hook input %v", got)
	}
}

// The resource tools have Claude Code's names, ListMcpResourcesTool and
// ReadMcpResourceTool (in the init message, and for the model to call):
// permission rules, hook matchers and SDK tool lists written for Claude
// Code name them so.
func TestQA11MCPResourceToolsHaveClaudeCodesNames(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "ReadMcpResourceTool",
			map[string]any{"server": "everything", "uri": "demo://resource/static/document/architecture.md"})}},
		llmtest.Reply("read"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "ENABLE_TOOL_SEARCH=false")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": everythingEntry(t, "stdio")}})
	r := sb.Run(t, "", "-p", "--output-format", "stream-json", "--verbose", "--mcp-config", string(cfg), "read the docs")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	tools, _ := decodeLines(t, r.Stdout)[0]["tools"].([]any)
	have := map[string]bool{}
	for _, n := range tools {
		have[n.(string)] = true
	}
	if !have["ListMcpResourcesTool"] || !have["ReadMcpResourceTool"] {
		t.Errorf("init tools %v; want ListMcpResourcesTool and ReadMcpResourceTool", tools)
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 1 || res[0].IsError || !strings.Contains(resultText(res[0]), "Everything Server") {
		t.Errorf("ReadMcpResourceTool result %+v; want the resource", res)
	}
}

// MCP_CONNECTION_NONBLOCKING=true skips print mode's wait for MCP
// servers, as in Claude Code: the run goes on with a server still
// starting (reported pending in the init message), without the warning
// that the start-up wait ran out.
func TestQA11MCPConnectionNonblockingSkipsTheWait(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "MCP_CONNECTION_NONBLOCKING=true")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"slow": map[string]any{"command": "sh", "args": []string{"-c", "sleep 60"}},
	}})
	r := sb.Run(t, "", "-p", "--output-format", "stream-json", "--verbose", "--mcp-config", string(cfg), "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stderr, "start-up wait") {
		t.Errorf("stderr warns of the start-up wait, which was to be skipped:\n%s", r.Stderr)
	}
	servers, _ := decodeLines(t, r.Stdout)[0]["mcp_servers"].([]any)
	if len(servers) != 1 || servers[0].(map[string]any)["status"] != "pending" {
		t.Errorf("init mcp_servers %v; want slow pending", servers)
	}
}

// `reins mcp serve` leaves confirming each call to its MCP client, as
// Claude Code does, but a deny rule of the user's still refuses the call,
// with the reason, and the command does not run.
func TestQA11MCPServeStillRefusesWhatADenyRuleForbids(t *testing.T) {
	node, modules := npmPeer(t, "@modelcontextprotocol/sdk")
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	writeJSON(t, filepath.Join(sb.Home, ".claude", "settings.json"), map[string]any{"permissions": map[string]any{"deny": []string{"Bash(touch:*)"}}})
	file := sb.Write(t, "notes.txt", "served by reins\n")
	dir := t.TempDir()
	script, _ := os.ReadFile("testdata/mcp_serve_client.mjs")
	os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644)
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "client.mjs"), e2etest.Binary(t), file, "mcp", "serve")
	cmd.Dir, cmd.Env = sb.Dir, sb.Env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	var rep struct {
		Bash struct {
			IsError bool
			Text    string
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report %q: %v", out, err)
	}
	if !rep.Bash.IsError || !strings.Contains(rep.Bash.Text, "Bash(touch:*)") {
		t.Errorf("Bash over MCP under a deny rule: %+v; want a refusal naming the rule", rep.Bash)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made-by-mcp")); err == nil {
		t.Error("the denied command ran")
	}
}
