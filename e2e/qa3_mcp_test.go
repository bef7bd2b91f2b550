package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// everythingEntry is a server entry running server-everything; extra
// arguments make entries that are not duplicates of each other.
func everythingEntry(t *testing.T, extra ...string) map[string]any {
	node, modules := npmPeer(t, "@modelcontextprotocol/server-everything")
	args := append([]string{filepath.Join(modules, "@modelcontextprotocol/server-everything/dist/index.js")}, extra...)
	return map[string]any{"command": node, "args": args}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// listLine returns the line of `reins mcp list` output about name.
func listLine(out, name string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, name+": ") {
			return l
		}
	}
	return ""
}

// A Claude Code user with CLAUDE_CONFIG_DIR set keeps user servers, and
// the approvals of a project's .mcp.json servers, in
// $CLAUDE_CONFIG_DIR/.claude.json; reins mcp list and a print run see
// both.
func TestQA3MCPClaudeConfigDirServersAndApprovalsAreUsed(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	writeJSON(t, filepath.Join(sb.Home, ".claude", ".claude.json"), map[string]any{
		"numStartups": 4,
		"mcpServers":  map[string]any{"ccuser": everythingEntry(t, "stdio")},
		"projects": map[string]any{sb.Dir: map[string]any{
			"allowedTools": []string{}, "enabledMcpjsonServers": []string{"team"}, "disabledMcpjsonServers": []string{"old"},
		}},
	})
	writeJSON(t, filepath.Join(sb.Dir, ".mcp.json"), map[string]any{"mcpServers": map[string]any{
		"team":  everythingEntry(t),
		"old":   map[string]any{"command": "/nonexistent/old-server"},
		"fresh": map[string]any{"command": "/nonexistent/fresh-server"},
	}})
	r := sb.Run(t, "", "mcp", "list")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for name, want := range map[string]string{"ccuser": "✔ Connected", "team": "✔ Connected", "old": "disabledMcpjsonServers", "fresh": "not approved"} {
		if l := listLine(r.Stdout, name); !strings.Contains(l, want) {
			t.Errorf("%s: want %q in its line, got %q\n%s", name, want, l, r.Stdout)
		}
	}
}

// reins mcp list and get follow the approvals in settings, as a session
// does: the user's settings always, the project's own settings files only
// once the folder is trusted (a cloned repository cannot approve its own
// servers).
func TestQA3MCPListFollowsSettingsApprovals(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	writeJSON(t, filepath.Join(sb.Home, ".claude", "settings.json"), map[string]any{"enabledMcpjsonServers": []string{"team"}})
	writeJSON(t, filepath.Join(sb.Dir, ".claude", "settings.json"), map[string]any{"enabledMcpjsonServers": []string{"sneaky"}})
	writeJSON(t, filepath.Join(sb.Dir, ".mcp.json"), map[string]any{"mcpServers": map[string]any{
		"team":   everythingEntry(t),
		"sneaky": map[string]any{"command": "/nonexistent/sneaky-server"},
	}})
	r := sb.Run(t, "", "mcp", "list")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if l := listLine(r.Stdout, "team"); !strings.Contains(l, "✔ Connected") {
		t.Errorf("team, approved in the user's settings: %q\n%s", l, r.Stdout)
	}
	if l := listLine(r.Stdout, "sneaky"); !strings.Contains(l, "not approved") {
		t.Errorf("sneaky, approved only by the untrusted project's settings: %q\n%s", l, r.Stdout)
	}
	g := sb.Run(t, "", "mcp", "get", "team")
	if g.Code != 0 || !strings.Contains(g.Stdout, "Status: ✔ Connected") {
		t.Errorf("mcp get team: code %d\n%s%s", g.Code, g.Stdout, g.Stderr)
	}
}

// reins mcp serve offers the built-in tools only; it must not start the
// MCP servers the user configured for sessions (they were spawned, their
// failures printed on the client's stderr, and never used).
func TestQA3MCPServeDoesNotStartTheUsersServers(t *testing.T) {
	node, modules := npmPeer(t, "@modelcontextprotocol/sdk")
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	file := sb.Write(t, "notes.txt", "served by reins\n")
	marker := filepath.Join(t.TempDir(), "started")
	writeJSON(t, filepath.Join(sb.ConfigDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{
		"mine": map[string]any{"command": "sh", "args": []string{"-c", "touch " + marker + "; exit 3"}},
	}})
	dir := t.TempDir()
	script, _ := os.ReadFile("testdata/mcp_serve_client.mjs")
	os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644)
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), e2etest.Binary(t), file, "mcp", "serve")
	cmd.Dir = sb.Dir
	cmd.Env = sb.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(string(out), "served by reins") {
		t.Errorf("report: %s", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("mcp serve started the user's MCP server")
	}
	if strings.Contains(stderr.String(), `MCP server "mine"`) {
		t.Errorf("mcp serve reported on the user's server:\n%s", stderr.String())
	}
}

// --mcp-config a.json b.json (several values after one flag, as Claude
// Code takes them) loads both files, and the prompt stays the prompt.
func TestQA3MCPConfigFlagTakesSeveralFiles(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.json", `{"mcpServers":{"first":{"command":"/nonexistent/first"}}}`)
	sb.Write(t, "b.json", `{"mcpServers":{"second":{"command":"/nonexistent/second"}}}`)
	r := sb.Run(t, "", "--mcp-config", "a.json", "b.json", "-p", "hello there", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	init := decodeLines(t, r.Stdout)[0]
	var names []string
	for _, s := range init["mcp_servers"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "first,second" {
		t.Errorf("init mcp_servers = %v", init["mcp_servers"])
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "hello there") || strings.Contains(got, "b.json") {
		t.Errorf("prompt sent = %q", got)
	}
}

// reins mcp serve announces Bash as a tool that may write: its read-only
// answer depends on the command, and the empty probe said read-only, so
// MCP clients were told readOnlyHint true for Bash.
func TestQA3MCPServeDoesNotAnnounceBashAsReadOnly(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "mcp", "serve")
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "qa3", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	hints := map[string]bool{}
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		hints[tl.Name] = tl.Annotations != nil && tl.Annotations.ReadOnlyHint
	}
	for name, want := range map[string]bool{"Bash": false, "Write": false, "Edit": false, "Read": true, "Grep": true, "Glob": true} {
		if got, ok := hints[name]; !ok || got != want {
			t.Errorf("%s: readOnlyHint %v (listed %v), want %v", name, got, ok, want)
		}
	}
}

// A deferred call to a tool of a configured MCP server that is down is
// answered with the server's state and reason, not "no deferred tool is
// named", which sent the model searching for a tool that exists.
func TestQA3MCPCallToADownServerSaysWhy(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_x", "ExecuteExtraTool", map[string]any{"tool_name": "mcp__down__lookup", "input": map[string]any{}})),
		llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "MCP_STARTUP_WAIT_MS=2000")
	cfg := `{"mcpServers":{"down":{"command":"/nonexistent/down-server"}}}`
	r := sb.Run(t, "", "-p", "look it up", "--mcp-config", cfg, "--allowedTools", "mcp__down")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	got := srv.Requests()[1].ToolResults()[0].ResultText()
	if !strings.Contains(got, `MCP server "down" is failed`) || !strings.Contains(got, "/nonexistent/down-server") {
		t.Errorf("result = %q", got)
	}
}
