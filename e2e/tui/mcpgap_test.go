package tui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// gapServer builds the test MCP server (../testdata/mcpgapserver: the
// text resource docs://api/auth "Auth API") and returns its path.
func gapServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpgapserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../testdata/mcpgapserver").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	return bin
}

// Typing @ offers the resources of connected MCP servers beside the
// files; choosing one inserts @server:uri, and the prompt sent carries
// the resource.
func TestMCPGapAtCompletionOffersServerResources(t *testing.T) {
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"gap": map[string]any{"command": gapServer(t)}}})
	tt := newTerm(t, llmtest.Reply("Tokens, then."))
	tt.sb.Write(t, "notes.md", "a file beside the resources\n")
	tt.start("--mcp-config", string(cfg))
	tt.ready()
	tt.typeText("explain @gapauth")
	tt.waitFor("gap:docs://api/auth", "MCP resource: Auth API")
	tt.keys("Tab")
	tt.waitFor("explain @gap:docs://api/auth")
	tt.keys("Enter")
	tt.waitFor("Tokens, then.")
	got := messageTexts(tt.requests(1)[0])
	if !strings.Contains(got, "user: <mcp-resource server=\"gap\" uri=\"docs://api/auth\">\nAuthenticate with a bearer token") {
		t.Errorf("the request lacks the resource:\n%s", got)
	}
}

// A server of the project's .mcp.json that waits for approval is asked
// about before the terminal UI starts; "use this server" records the
// approval in .claude/settings.local.json and the server connects in this
// session.
func TestMCPGapProjectServerIsAskedAboutAtStart(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".mcp.json", `{"mcpServers":{"gap":{"command":`+jsonString(gapServer(t))+`}}}`)
	tt.start()
	s := tt.waitUntil("the trust prompt or the MCP question", func(s string) bool {
		return strings.Contains(s, "Do you trust the files in this folder?") || strings.Contains(s, "adds an MCP server: gap")
	})
	if !strings.Contains(s, "adds an MCP server: gap") {
		tt.keys("Enter")
	}
	tt.waitFor("adds an MCP server: gap", "Use this server")
	tt.keys("2")
	tt.waitFor(`Try "explain this project"`)
	data, err := os.ReadFile(filepath.Join(tt.sb.Dir, ".claude", "settings.local.json"))
	var local struct {
		Enabled []string `json:"enabledMcpjsonServers"`
	}
	if err != nil || json.Unmarshal(data, &local) != nil || len(local.Enabled) != 1 || local.Enabled[0] != "gap" {
		t.Fatalf("settings.local.json: %v\n%s", err, data)
	}
	tt.typeText("@gapauth")
	tt.waitFor("gap:docs://api/auth")
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
