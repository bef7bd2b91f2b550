package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// installPlugins writes plugins into a Claude Code install cache under
// claude and records them in installed_plugins.json (user scope): id to
// the plugin's files. It returns each id's install folder.
func installPlugins(t *testing.T, claude string, plugins map[string]map[string]string) map[string]string {
	t.Helper()
	recs := map[string]any{}
	paths := map[string]string{}
	for id, files := range plugins {
		name, market, _ := strings.Cut(id, "@")
		dir := filepath.Join(claude, "plugins", "cache", market, name, "1.0.0")
		writeTree(t, dir, files)
		recs[id] = []any{map[string]any{"scope": "user", "installPath": dir, "version": "1.0.0"}}
		paths[id] = dir
	}
	data, _ := json.Marshal(map[string]any{"version": 2, "plugins": recs})
	writeTree(t, claude, map[string]string{"plugins/installed_plugins.json": string(data)})
	return paths
}

// `reins plugin list` also lists the plugins Claude Code installed that
// settings leave disabled (set to false, or not named), marked disabled,
// in text and in --json (enabled: false).
func TestPluginListShowsInstalledButDisabledPlugins(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	claude := filepath.Join(sb.Home, ".claude")
	paths := installPlugins(t, claude, map[string]map[string]string{
		"on@mkt":      {"commands/a.md": "A\n"},
		"off@mkt":     {"commands/b.md": "B\n"},
		"unnamed@mkt": {"commands/c.md": "C\n"},
	})
	writeTree(t, claude, map[string]string{"settings.json": `{"enabledPlugins": {"on@mkt": true, "off@mkt": false}}`})
	r := sb.Run(t, "", "plugin", "list")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for _, want := range []string{"on@mkt", "off@mkt 1.0.0  " + paths["off@mkt"] + "  (disabled)", "unnamed@mkt 1.0.0  " + paths["unnamed@mkt"] + "  (disabled)"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("plugin list lacks %q:\n%s", want, r.Stdout)
		}
	}
	if strings.Contains(r.Stdout, "on@mkt 1.0.0  "+paths["on@mkt"]+"  (disabled)") {
		t.Errorf("the enabled plugin is marked disabled:\n%s", r.Stdout)
	}
	r = sb.Run(t, "", "plugin", "list", "--json")
	var out struct {
		Plugins []struct {
			ID      string `json:"id"`
			Enabled bool   `json:"enabled"`
			Path    string `json:"path"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.Stdout)
	}
	got := map[string]bool{}
	for _, p := range out.Plugins {
		got[p.ID] = p.Enabled
	}
	want := map[string]bool{"on@mkt": true, "off@mkt": false, "unnamed@mkt": false}
	if len(got) != len(want) {
		t.Errorf("--json plugins = %v, want %v", got, want)
	}
	for id, en := range want {
		if e, ok := got[id]; !ok || e != en {
			t.Errorf("--json %s: enabled=%v listed=%v, want enabled=%v", id, e, ok, en)
		}
	}
}
