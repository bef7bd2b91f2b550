package tui

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// Typing @ offers the resources of connected MCP servers beside the
// files; choosing one inserts @server:uri, and the prompt sent carries
// the resource.
func TestMCPGapAtCompletionOffersServerResources(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcpgapserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../testdata/mcpgapserver").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"gap": map[string]any{"command": bin}}})
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
