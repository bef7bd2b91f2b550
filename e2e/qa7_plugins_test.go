package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
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

// resultText joins a tool result's text.
func resultText(b llm.ContentBlock) string {
	var out []string
	if b.Text != "" {
		out = append(out, b.Text)
	}
	for _, c := range b.Content {
		out = append(out, c.Text)
	}
	return strings.Join(out, "\n")
}

// In print mode the model may read (Read, Grep) the files of a loaded
// plugin, outside the working folders, without asking: a plugin command
// that tells it to read a guide under ${CLAUDE_PLUGIN_ROOT} works. Writing
// there still needs approval, so -p refuses it.
func TestModelReadsALoadedPluginsFilesButDoesNotWriteThem(t *testing.T) {
	root := filepath.Join(t.TempDir(), "styler")
	writeTree(t, root, map[string]string{
		".claude-plugin/plugin.json": `{"name": "styler"}`,
		"commands/style.md":          "---\ndescription: Apply the style guide\nargument-hint: FILE\n---\nRead ${CLAUDE_PLUGIN_ROOT}/docs/style-guide.md and apply it to $ARGUMENTS.\n",
		"docs/style-guide.md":        "Use tabs, never spaces.\n",
	})
	guide := filepath.Join(root, "docs", "style-guide.md")
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": guide})),
		llmtest.Calls(llmtest.ToolUse("toolu_g", "Grep", map[string]any{"pattern": "tabs", "path": root})),
		llmtest.Calls(llmtest.ToolUse("toolu_w", "Write", map[string]any{"file_path": filepath.Join(root, "docs", "hacked.md"), "content": "x"})),
		llmtest.Reply("styled"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "/styler:style main.go", "--plugin-dir", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if res := reqs[1].ToolResults(); len(res) != 1 || res[0].IsError || !strings.Contains(resultText(res[0]), "Use tabs") {
		t.Errorf("Read of the plugin's guide = %+v, want its text", res)
	}
	if res := reqs[2].ToolResults(); len(res) != 1 || res[0].IsError || !strings.Contains(resultText(res[0]), "style-guide.md") {
		t.Errorf("Grep in the plugin's folder = %+v, want a match", res)
	}
	if res := reqs[3].ToolResults(); len(res) != 1 || !res[0].IsError {
		t.Errorf("Write into the plugin's folder = %+v, want it refused", res)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "hacked.md")); err == nil {
		t.Errorf("the Write into the plugin's folder happened")
	}
}

// A plugin's settings.json at its root may name one of its agents
// ("agent"): the main conversation runs as it (its prompt is the system
// prompt). A key other than "agent" is warned about, not silently
// dropped; an agent the plugin does not define is in plugin_errors.
func TestPluginSettingsAgentRunsTheMainConversation(t *testing.T) {
	srv := server(t, llmtest.Reply("reviewed"), llmtest.Reply("plain"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Join(t.TempDir(), "rev")
	writeTree(t, root, map[string]string{
		".claude-plugin/plugin.json": `{"name": "rev"}`,
		"agents/reviewer.md":         "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nYou are the strict reviewer of the rev plugin.\n",
		"settings.json":              `{"agent": "reviewer", "model": "haiku"}`,
	})
	r := sb.Run(t, "", "-p", "review", "--plugin-dir", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if sys := srv.Requests()[0].SystemText(); !strings.Contains(sys, "You are the strict reviewer of the rev plugin.") {
		t.Errorf("the system prompt is not the plugin agent's:\n%s", sys)
	}
	if !strings.Contains(r.Stderr, `key "model" is not applied`) {
		t.Errorf("stderr does not warn about the unsupported key:\n%s", r.Stderr)
	}

	writeTree(t, root, map[string]string{"settings.json": `{"agent": "nobody"}`})
	r = sb.Run(t, "", "-p", "hi", "--plugin-dir", root, "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	errs, _ := json.Marshal(initLine(t, r.Stdout)["plugin_errors"])
	if !strings.Contains(string(errs), `rev:nobody`) || !strings.Contains(string(errs), `rev@inline`) {
		t.Errorf("plugin_errors = %s, want the unknown agent rev:nobody of rev@inline", errs)
	}
}

// `reins plugin list` with install records that do not parse says so,
// naming the file, even when settings enable no plugin (before, the
// installed plugins were then left out without a word).
func TestPluginListReportsUnreadableInstallRecords(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	claude := filepath.Join(sb.Home, ".claude")
	writeTree(t, claude, map[string]string{"plugins/installed_plugins.json": `{"version": 2, "plugins": [`})
	r := sb.Run(t, "", "plugin", "list")
	if !strings.Contains(r.Stdout, "installed_plugins.json") || !strings.Contains(r.Stdout, "installed-plugins-unreadable") && !strings.Contains(r.Stdout, "cannot be listed") {
		t.Errorf("code %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
}
