package sdk

import (
	"strings"
	"testing"

	"reins/internal/mcp"
)

// reload_plugins starts the servers of plugins it finds that do not run
// yet; mcp_set_servers, which replaces the client's own set, leaves them
// alone; a reload whose plugins no longer have a server stops it.
func TestReloadPluginsStartsAndStopsPluginServersApartFromTheClientsSet(t *testing.T) {
	var servers []mcp.Server
	cfg := Config{ReloadPlugins: func([]PluginDir) (Reloaded, error) { return Reloaded{PluginServers: servers}, nil }}
	h := newHarness(t, cfg)
	okBody(t, h.ask("i", `{"subtype":"initialize"}`))
	servers = []mcp.Server{{Name: "plugin:p:s", Scope: mcp.ScopePlugin, Source: "/p/.mcp.json",
		Config: mcp.ServerConfig{Command: "sh", Args: []string{"-c", "sleep 30"}}}}
	if got := okBody(t, h.ask("r1", `{"subtype":"reload_plugins"}`)); !strings.Contains(got, `"name":"plugin:p:s"`) {
		t.Fatalf("reload_plugins answered %s, want the plugin's server", got)
	}
	if got := okBody(t, h.ask("set", `{"subtype":"mcp_set_servers","servers":{}}`)); got != `{"added":[],"errors":{},"removed":[]}` {
		t.Errorf("mcp_set_servers answered %s, want the plugin's server left alone", got)
	}
	if got := okBody(t, h.ask("st", `{"subtype":"mcp_status"}`)); !strings.Contains(got, `"name":"plugin:p:s"`) {
		t.Errorf("mcp_status = %s, want the plugin's server still there", got)
	}
	servers = nil
	okBody(t, h.ask("r2", `{"subtype":"reload_plugins"}`))
	if got := okBody(t, h.ask("st2", `{"subtype":"mcp_status"}`)); got != `{"mcpServers":[]}` {
		t.Errorf("mcp_status after the plugin went = %s", got)
	}
	h.finish()
}
