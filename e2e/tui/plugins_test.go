package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// /plugin lists the plugins loaded with --plugin-dir (and /plugins
// too); asking it to install one says that reins does not install
// plugins and how to get one loaded. The plugin's command is offered,
// and /reload-plugins picks up a command added since the start.
func TestPluginCommandListsLoadedPlugins(t *testing.T) {
	tt := newTerm(t)
	root := filepath.Join(t.TempDir(), "demo")
	for rel, content := range map[string]string{
		".claude-plugin/plugin.json": `{"name": "demo", "version": "1.2.3", "description": "A demo plugin"}`,
		"commands/hello.md":          "---\ndescription: Say hello from the plugin\n---\nSay hello.\n",
	} {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tt.start("--plugin-dir", root)
	tt.ready()
	tt.prompt("/plugin")
	tt.waitFor("demo@inline 1.2.3", "A demo plugin", "commands: /demo:hello")
	tt.prompt("/plugins install other@market")
	tt.waitFor("does not install them", "--plugin-dir PATH")
	tt.typeText("/demo:he")
	tt.waitFor("Say hello from the plugin")
	tt.keys("C-u")
	// A command added to the plugin while the session runs arrives with
	// /reload-plugins.
	if err := os.WriteFile(filepath.Join(root, "commands", "wave.md"), []byte("---\ndescription: Wave from the plugin\n---\nWave.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tt.prompt("/reload-plugins")
	tt.waitFor("Reloaded: 1 plugin(s)")
	tt.typeText("/demo:wa")
	tt.waitFor("Wave from the plugin")
}
