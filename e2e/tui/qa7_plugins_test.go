package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// /reload-plugins starts the MCP server of a plugin that gained one since
// the start (the session had no MCP servers at all), says so, and /mcp
// shows it connected; once the plugin drops the server, the next reload
// stops it and says so, and /mcp no longer lists it.
func TestReloadPluginsStartsAndStopsPluginMCPServers(t *testing.T) {
	tt := newTerm(t)
	root := filepath.Join(t.TempDir(), "demo")
	if err := os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude-plugin", "plugin.json"), []byte(`{"name": "demo"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tt.start("--plugin-dir", root)
	tt.ready()
	mcpJSON := filepath.Join(root, ".mcp.json")
	if err := os.WriteFile(mcpJSON, []byte(`{"mcpServers": {"gap": {"command": `+jsonString(gapServer(t))+`}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tt.prompt("/reload-plugins")
	tt.waitFor("Reloaded: 1 plugin(s).", "MCP servers started: plugin:demo:gap.")
	// The server connects in the background: ask /mcp until it shows.
	for i := 1; ; i++ {
		tt.prompt("/mcp")
		s := tt.waitUntil("an /mcp listing", func(s string) bool { return strings.Count(s, "Reconnect a server with") >= i })
		last := s[strings.LastIndex(s, "> /mcp"):]
		if strings.Contains(last, "plugin:demo:gap (stdio, plugin scope): connected") && strings.Contains(last, "mcp__plugin_demo_gap__dump") {
			break
		}
		if i == 30 {
			t.Fatalf("the plugin's server did not connect:\n%s", last)
		}
	}
	if err := os.Remove(mcpJSON); err != nil {
		t.Fatal(err)
	}
	tt.prompt("/reload-plugins")
	tt.waitFor("MCP servers stopped: plugin:demo:gap.")
	tt.prompt("/mcp")
	s := tt.waitUntil("the second /mcp listing", func(s string) bool {
		_, after, ok := strings.Cut(s, "MCP servers stopped")
		return ok && strings.Contains(after, "Reconnect a server with")
	})
	if _, after, _ := strings.Cut(s, "MCP servers stopped"); strings.Contains(after, "plugin:demo:gap (stdio") {
		t.Errorf("the stopped server is still listed:\n%s", after)
	}
}

// /plugin also lists a plugin Claude Code installed that settings leave
// disabled, marked so, beside the loaded ones.
func TestPluginViewListsInstalledButDisabledPlugins(t *testing.T) {
	tt := newTerm(t)
	claude := filepath.Join(tt.sb.Home, ".claude")
	install := filepath.Join(claude, "plugins", "cache", "mkt", "off", "2.0.0")
	if err := os.MkdirAll(filepath.Join(install, "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	records := `{"version": 2, "plugins": {"off@mkt": [{"scope": "user", "installPath": ` + jsonString(install) + `, "version": "2.0.0"}]}}`
	if err := os.WriteFile(filepath.Join(claude, "plugins", "installed_plugins.json"), []byte(records), 0o644); err != nil {
		t.Fatal(err)
	}
	tt.start()
	tt.ready()
	tt.prompt("/plugin")
	tt.waitFor("Installed but disabled", "off@mkt 2.0.0", "(disabled)")
}
