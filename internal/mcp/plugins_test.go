package mcp

import (
	"path/filepath"
	"testing"
)

// A plugin's server that runs what a server configured by hand runs is
// left out (the hand-made one wins, seed002 §7.3); a disabled hand-made
// server does not suppress it; --strict-mcp-config leaves plugins out.
func TestLoadRanksPluginServersBelowConfiguredOnes(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"github":{"command":"npx","args":["-y","server-github"]}}}`)
	writeFile(t, filepath.Join(proj, ".mcp.json"), `{"mcpServers":{"db":{"command":"db-server"}}}`)
	plugins := []Server{
		{Name: "plugin:gh:github", Scope: ScopePlugin, Config: ServerConfig{Command: "npx", Args: []string{"-y", "server-github"}}},
		{Name: "plugin:data:db", Scope: ScopePlugin, Config: ServerConfig{Command: "db-server"}},
		{Name: "plugin:own:tool", Scope: ScopePlugin, Config: ServerConfig{Command: "own-tool"}},
	}
	cfg, err := Load(LoadOptions{Cwd: proj, Home: home, Plugins: plugins, Approval: Approval{Disabled: []string{"db"}}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range cfg.Servers {
		names = append(names, s.Name)
	}
	want := []string{"db", "github", "plugin:data:db", "plugin:own:tool"}
	if len(names) != len(want) {
		t.Fatalf("servers = %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("servers = %q, want %q", names, want)
		}
	}
	if len(cfg.Warnings) != 1 || cfg.Warnings[0] != `MCP server "plugin:gh:github" (plugin) is the same as "github" (user) and was left out` {
		t.Errorf("warnings = %q", cfg.Warnings)
	}
	strict, err := Load(LoadOptions{Cwd: proj, Home: home, Plugins: plugins, Strict: true})
	if err != nil || len(strict.Servers) != 0 {
		t.Errorf("strict: servers %+v, err %v", strict.Servers, err)
	}
}

func TestPluginToolNamesFollowClaudeCode(t *testing.T) {
	if got := ToolName("plugin:my-plugin:db", "query"); got != "mcp__plugin_my-plugin_db__query" {
		t.Errorf("ToolName = %q", got)
	}
}
