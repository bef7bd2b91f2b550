package toolsearch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/tool"
)

// everythingServer returns the stdio entry of the npm server-everything
// peer, skipping (failing under CI=true) when it is not installed.
func everythingServer(t *testing.T) mcp.Server {
	t.Helper()
	missing := func(what string) {
		msg := fmt.Sprintf("%s is missing; install the MCP peers with: npm install --prefix .ci", what)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	script, err := filepath.Abs("../../.ci/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		missing("@modelcontextprotocol/server-everything")
	}
	return mcp.Server{Name: "everything", Scope: mcp.ScopeLocal, Config: mcp.ServerConfig{Command: node, Args: []string{script, "stdio"}}}
}

// TestModelCallsMCPToolThroughSearchAndExecute runs a model turn (a
// scripted fake model) against a real MCP server: the model searches the
// deferred tools, runs the server's echo tool through ExecuteExtraTool,
// and the server's answer comes back as the tool result.
func TestModelCallsMCPToolThroughSearchAndExecute(t *testing.T) {
	m := mcp.NewManager(mcp.Options{Servers: []mcp.Server{everythingServer(t)}})
	defer m.Close()
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !m.Wait(ctx) || m.Status()[0].State != mcp.StateConnected {
		t.Fatalf("server status: %+v", m.Status())
	}
	ts := NewSession(Options{})
	defer ts.Close()
	prov := &scripted{replies: [][]llm.ContentBlock{
		{toolUse("s1", SearchToolName, `{"query":"echo message back"}`)},
		{toolUse("x1", ExecuteToolName, `{"tool_name":"mcp__everything__echo","input":{"message":"ping from the model"}}`)},
		{llm.TextBlock("done")},
	}}
	gate := &nameGate{}
	sess := engine.New(engine.Config{Provider: prov, Models: llm.NewModels(nil), Model: "claude-sonnet-4-5", Gate: gate,
		Tools: func(context.Context) engine.ToolSet {
			pool := []tool.Tool{coreTool("Read")}
			return ts.ToolSet(append(pool, m.Snapshot().Tools...))
		}})
	results := map[string]string{}
	for ev := range sess.Run(ctx, engine.Input{Content: []llm.ContentBlock{llm.TextBlock("use the echo tool")}}) {
		if r, ok := ev.(*engine.ToolResult); ok {
			results[r.ID] = r.Block.ResultText()
		}
	}
	if !strings.Contains(results["s1"], `<tool name="mcp__everything__echo">`) {
		t.Errorf("search did not find echo: %q", results["s1"])
	}
	if !strings.Contains(results["x1"], "ping from the model") {
		t.Errorf("execute result = %q", results["x1"])
	}
	if !strings.Contains(strings.Join(gate.names, ","), "mcp__everything__echo=mcp__everything__echo") {
		t.Errorf("gate saw %v", gate.names)
	}
	for i, r := range prov.reqs {
		for _, sp := range r.Tools {
			if strings.HasPrefix(sp.Name, "mcp__") {
				t.Errorf("request %d sent the deferred tool %s", i+1, sp.Name)
			}
		}
	}
}
