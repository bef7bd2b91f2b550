package plugin

import (
	"path/filepath"
	"strings"
	"testing"
)

// A plugin's settings.json names its default agent: a bare name is made
// the plugin's (plugin:agent), a qualified one stays; keys other than
// "agent" become warnings; a file that is not a JSON object, or an agent
// that is not a name, is a load error of the plugin, which still loads.
func TestLoadReadsThePluginsSettingsAgent(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"bare/.claude-plugin/plugin.json": `{"name": "bare"}`,
		"bare/settings.json":              `{"$schema": "https://json.schemastore.org/claude-code-settings.json", "agent": "reviewer", "permissions": {"allow": ["Bash"]}}`,
		"full/.claude-plugin/plugin.json": `{"name": "full"}`,
		"full/settings.json":              `{"agent": "other:helper"}`,
		"bad/.claude-plugin/plugin.json":  `{"name": "bad"}`,
		"bad/settings.json":               `["agent"]`,
		"num/.claude-plugin/plugin.json":  `{"name": "num"}`,
		"num/settings.json":               `{"agent": 3}`,
	})
	var dirs []Dir
	for _, n := range []string{"bare", "full", "bad", "num"} {
		dirs = append(dirs, Dir{Path: filepath.Join(dir, n)})
	}
	ps, errs := Load(Options{Dirs: dirs})
	if len(ps) != 4 {
		t.Fatalf("%d plugins loaded, want 4; errors %v", len(ps), errorTexts(errs))
	}
	agents := map[string]string{}
	for _, p := range ps {
		agents[p.Name] = p.Agent
	}
	if agents["bare"] != "bare:reviewer" || agents["full"] != "other:helper" || agents["bad"] != "" || agents["num"] != "" {
		t.Errorf("agents = %v", agents)
	}
	if u := ps[0].Unsupported; len(u) != 1 || !strings.Contains(u[0], `key "permissions" is not applied`) {
		t.Errorf("bare's warnings = %q", u)
	}
	texts := strings.Join(errorTexts(errs), "\n")
	if len(errs) != 2 || !strings.Contains(texts, "bad@inline generic-error") || !strings.Contains(texts, "num@inline generic-error") ||
		!strings.Contains(texts, filepath.Join(dir, "num", "settings.json")) {
		t.Errorf("errors:\n%s", texts)
	}
}
