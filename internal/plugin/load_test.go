package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"reins/internal/mcp"
	"reins/internal/settings"
)

// write creates files under dir: path to content.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func errorTexts(errs []Error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Plugin+" "+e.Type+": "+e.Message)
	}
	return out
}

func TestLoadFindsTheStandardLayoutOfAPluginFolder(t *testing.T) {
	root := t.TempDir()
	claude := t.TempDir()
	plug := filepath.Join(root, "fmt")
	write(t, plug, map[string]string{
		".claude-plugin/plugin.json": `{"name": "formatter", "version": "2.0.0", "description": "Formats"}`,
		"commands/go.md":             "Format Go",
		"agents/tidy.md":             "---\nname: tidy\ndescription: d\n---\nx",
		"skills/style/SKILL.md":      "Style",
		"hooks/hooks.json":           `{"description": "fmt", "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/fmt.sh ${CLAUDE_PLUGIN_DATA}"}]}]}}`,
		".mcp.json":                  `{"mcpServers": {"db": {"command": "${CLAUDE_PLUGIN_ROOT}/db", "args": ["--data", "${CLAUDE_PLUGIN_DATA}"]}}}`,
	})
	ps, errs := Load(Options{Dirs: []Dir{{Path: "fmt"}}, Cwd: root, ClaudeDir: claude})
	if len(errs) > 0 || len(ps) != 1 {
		t.Fatalf("plugins %v, errors %v", ps, errorTexts(errs))
	}
	p := ps[0]
	data := filepath.Join(claude, "plugins", "data", "formatter-inline")
	if p.Name != "formatter" || p.ID != "formatter@inline" || p.Version != "2.0.0" || p.Root != plug || p.DataDir != data || !p.Inline {
		t.Errorf("plugin = %+v", p)
	}
	if !cmp.Equal(p.Commands, []string{filepath.Join(plug, "commands")}) || !cmp.Equal(p.Agents, []string{filepath.Join(plug, "agents")}) ||
		!cmp.Equal(p.Skills, []string{filepath.Join(plug, "skills")}) {
		t.Errorf("components: commands %v agents %v skills %v", p.Commands, p.Agents, p.Skills)
	}
	hook := p.Hooks["PostToolUse"]
	if len(hook) != 1 || hook[0].Matcher != "Edit" || hook[0].Hooks[0].Command != plug+"/fmt.sh "+data || hook[0].Source != settings.SourcePlugin {
		t.Errorf("hooks = %+v", p.Hooks)
	}
	if len(p.MCPServers) != 1 {
		t.Fatalf("servers = %+v", p.MCPServers)
	}
	s := p.MCPServers[0]
	if s.Name != "plugin:formatter:db" || s.Scope != mcp.ScopePlugin || s.Config.Command != plug+"/db" ||
		!cmp.Equal(s.Config.Args, []string{"--data", data}) || s.Config.Env["CLAUDE_PLUGIN_ROOT"] != plug {
		t.Errorf("server = %+v", s)
	}
	if fi, err := os.Stat(data); err != nil || !fi.IsDir() {
		t.Errorf("the data folder was not made: %v", err)
	}
}

func TestLoadNamesAPluginWithoutManifestAfterItsFolder(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"tools/commands/a.md": "A"})
	ps, errs := Load(Options{Dirs: []Dir{{Path: filepath.Join(root, "tools")}}})
	if len(errs) > 0 || len(ps) != 1 || ps[0].Name != "tools" || ps[0].ID != "tools@inline" {
		t.Fatalf("plugins %+v, errors %v", ps, errorTexts(errs))
	}
}

func TestLoadManifestPathsReplaceOrAddToTheDefaultFolders(t *testing.T) {
	plug := t.TempDir()
	write(t, plug, map[string]string{
		".claude-plugin/plugin.json": `{"name": "p", "commands": ["./extra/one.md"], "agents": "./roles/", "skills": "./more-skills",
			"hooks": "./cfg/hooks.json", "mcpServers": [{"inline": {"url": "https://x.example/mcp"}}, "./cfg/mcp.json"]}`,
		"commands/default.md":            "not read: commands is set",
		"extra/one.md":                   "one",
		"agents/default.md":              "---\nname: d\ndescription: d\n---\n",
		"roles/r.md":                     "---\nname: r\ndescription: d\n---\n",
		"skills/s1/SKILL.md":             "s1",
		"more-skills/s2/SKILL.md":        "s2",
		"hooks/hooks.json":               `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]}}`,
		"cfg/hooks.json":                 `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "b"}]}]}}`,
		".mcp.json":                      `{"one": {"command": "x"}}`,
		"cfg/mcp.json":                   `{"mcpServers": {"two": {"command": "y"}}}`,
		"output-styles/terse.md":         "t",
		".claude-plugin/unrelated.json":  "{}",
		"more-skills/not-a-skill/README": "",
	})
	ps, errs := Load(Options{Dirs: []Dir{{Path: plug}}})
	if len(errs) > 0 || len(ps) != 1 {
		t.Fatalf("plugins %v, errors %v", ps, errorTexts(errs))
	}
	p := ps[0]
	want := map[string][]string{
		"commands":      {filepath.Join(plug, "extra/one.md")},
		"agents":        {filepath.Join(plug, "roles")},
		"skills":        {filepath.Join(plug, "skills"), filepath.Join(plug, "more-skills")},
		"output styles": {filepath.Join(plug, "output-styles")},
	}
	got := map[string][]string{"commands": p.Commands, "agents": p.Agents, "skills": p.Skills, "output styles": p.OutputStyles}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("components (-want +got):\n%s", diff)
	}
	var cmds []string
	for _, m := range p.Hooks["Stop"] {
		cmds = append(cmds, m.Hooks[0].Command)
	}
	if !cmp.Equal(cmds, []string{"a", "b"}) {
		t.Errorf("Stop hooks = %v, want hooks.json's then the manifest's", cmds)
	}
	var names []string
	for _, s := range p.MCPServers {
		names = append(names, s.Name)
	}
	if !cmp.Equal(names, []string{"plugin:p:one", "plugin:p:two", "plugin:p:inline"}) {
		t.Errorf("servers = %v", names)
	}
}

func TestLoadReportsWhatCannotLoadAndKeepsTheRest(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"broken/.claude-plugin/plugin.json":  `{"name": "broken", "version": `,
		"partial/.claude-plugin/plugin.json": `{"name": "partial", "agents": "./missing.md"}`,
		"partial/hooks/hooks.json":           `{"hooks": {"NoSuchEvent": [], "Stop": [{"hooks": [{"type": "webhook", "prompt": "x"}, {"command": "y"}]}]}}`,
		"partial/.mcp.json":                  `{"mcpServers": {"bad": {"type": "carrier-pigeon"}}}`,
		"a-file":                             "x",
	})
	ps, errs := Load(Options{Dirs: []Dir{{Path: "broken"}, {Path: "partial"}, {Path: "nowhere"}, {Path: "a-file"}}, Cwd: root})
	if len(ps) != 1 || ps[0].Name != "partial" {
		t.Fatalf("plugins = %+v, want partial alone", ps)
	}
	got := errorTexts(errs)
	for i, want := range []string{
		"inline[0] manifest-validation-error: " + filepath.Join(root, "broken/.claude-plugin/plugin.json") + ": not a JSON object: unexpected end of JSON input",
		"partial@inline path-not-found: " + filepath.Join(root, "partial/.claude-plugin/plugin.json") + " names " + filepath.Join(root, "partial/missing.md") + ", which does not exist",
		"partial@inline hook-load-failed: " + filepath.Join(root, "partial/hooks/hooks.json") + `: a Stop hook has no "type" (write "type": "command" beside its command); skipped`,
		`partial@inline mcp-config-invalid: server "bad" in ` + filepath.Join(root, "partial/.mcp.json") + `: unknown transport type "carrier-pigeon"`,
		"inline[2] path-not-found: plugin folder " + filepath.Join(root, "nowhere") + " does not exist",
		"inline[3] path-not-found: " + filepath.Join(root, "a-file") + " is not a folder",
	} {
		if i >= len(got) || !strings.HasPrefix(got[i], want) {
			t.Errorf("error %d = %q, want it to start with %q (all: %q)", i, at(got, i), want, got)
		}
	}
	wantUnsupported := []string{
		filepath.Join(root, "partial/hooks/hooks.json") + `: hook event "NoSuchEvent" is not one reins fires; its hooks never run`,
		filepath.Join(root, "partial/hooks/hooks.json") + `: a Stop hook has type "webhook", which reins does not know (it runs "command", "http", "mcp_tool", "prompt" and "agent" hooks); skipped`,
	}
	if diff := cmp.Diff(wantUnsupported, ps[0].Unsupported); diff != "" {
		t.Errorf("unsupported (-want +got):\n%s", diff)
	}
	if len(ps[0].Agents) != 0 {
		t.Errorf("agents = %q: a missing path the manifest names is reported here and not passed on", ps[0].Agents)
	}
	if errs[0].Path != filepath.Join(root, "broken") || errs[1].Path != "" {
		t.Errorf("paths: %q, %q; want the folder only for a plugin that did not load", errs[0].Path, errs[1].Path)
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}

// installRecords writes Claude Code's installed_plugins.json.
func installRecords(t *testing.T, claude, content string) {
	t.Helper()
	write(t, claude, map[string]string{"plugins/installed_plugins.json": content})
}

func TestLoadFindsPluginsEnabledInSettingsThroughClaudeCodesInstallRecords(t *testing.T) {
	claude, project, other := t.TempDir(), t.TempDir(), t.TempDir()
	cache := filepath.Join(claude, "plugins", "cache", "mkt")
	write(t, cache, map[string]string{
		"lint/1.0.0/.claude-plugin/plugin.json":   `{"name": "lint"}`,
		"docs/0.3.0/commands/x.md":                "x",
		"local/9.9.9/commands/y.md":               "y",
		"elsewhere/1.0.0/commands/z.md":           "z",
		"off/1.0.0/.claude-plugin/plugin.json":    `{"name": "off"}`,
		"legacy/0.1.0/.claude-plugin/plugin.json": `{"name": "legacy", "version": "0.1.0"}`,
	})
	installRecords(t, claude, `{"version": 2, "plugins": {
		"lint@mkt": [{"scope": "user", "installPath": "`+cache+`/lint/1.0.0", "version": "1.0.0"}],
		"docs@mkt": [{"scope": "user", "installPath": "`+cache+`/docs/0.3.0", "version": "0.3.0"}],
		"local@mkt": [{"scope": "local", "projectPath": "`+project+`", "installPath": "`+cache+`/local/9.9.9"}],
		"elsewhere@mkt": [{"scope": "project", "projectPath": "`+other+`", "installPath": "`+cache+`/elsewhere/1.0.0"}],
		"off@mkt": [{"scope": "user", "installPath": "`+cache+`/off/1.0.0"}],
		"gone@mkt": [{"scope": "user", "installPath": "`+cache+`/gone/1.0.0"}]}}`)
	enabled := map[string]bool{"lint@mkt": true, "docs@mkt": true, "local@mkt": true, "elsewhere@mkt": true,
		"off@mkt": false, "gone@mkt": true, "missing@mkt": true}
	ps, errs := Load(Options{Enabled: enabled, ClaudeDir: claude, Cwd: project})
	var got []string
	for _, p := range ps {
		got = append(got, p.ID+" "+p.Version)
	}
	if want := []string{"docs@mkt 0.3.0", "lint@mkt 1.0.0", "local@mkt "}; !cmp.Equal(got, want) {
		t.Errorf("plugins = %q, want %q", got, want)
	}
	texts := errorTexts(errs)
	want := []string{"elsewhere@mkt plugin-not-installed", "gone@mkt path-not-found", "missing@mkt plugin-not-installed"}
	for _, e := range errs {
		if e.Path != "" {
			t.Errorf("%s: path %q; only a session folder's error carries one", e.Plugin, e.Path)
		}
	}
	if len(texts) != len(want) {
		t.Fatalf("errors = %q", texts)
	}
	for i := range want {
		if !strings.HasPrefix(texts[i], want[i]) {
			t.Errorf("error %d = %q, want %q", i, texts[i], want[i])
		}
	}
	if !strings.Contains(texts[2], "claude plugin install missing@mkt") {
		t.Errorf("a plugin not installed does not say how to install it: %q", texts[2])
	}
}

func TestLoadReadsVersionOneInstallRecords(t *testing.T) {
	claude := t.TempDir()
	plug := filepath.Join(claude, "plugins", "cache", "old")
	write(t, plug, map[string]string{"commands/a.md": "a"})
	installRecords(t, claude, `{"version": 1, "plugins": {"old@mkt": {"version": "0.1", "installPath": "`+plug+`"}}}`)
	ps, errs := Load(Options{Enabled: map[string]bool{"old@mkt": true}, ClaudeDir: claude})
	if len(errs) > 0 || len(ps) != 1 || ps[0].ID != "old@mkt" || ps[0].Version != "0.1" {
		t.Fatalf("plugins %+v, errors %v", ps, errorTexts(errs))
	}
}

func TestLoadPrefersASessionFolderToAnInstalledPluginOfTheSameName(t *testing.T) {
	claude, dev := t.TempDir(), t.TempDir()
	inst := filepath.Join(claude, "plugins", "cache", "fmt")
	write(t, inst, map[string]string{".claude-plugin/plugin.json": `{"name": "fmt"}`})
	write(t, dev, map[string]string{".claude-plugin/plugin.json": `{"name": "fmt", "version": "dev"}`})
	installRecords(t, claude, `{"version": 2, "plugins": {"fmt@mkt": [{"scope": "user", "installPath": "`+inst+`"}]}}`)
	ps, errs := Load(Options{Enabled: map[string]bool{"fmt@mkt": true}, ClaudeDir: claude, Dirs: []Dir{{Path: dev}}})
	if len(errs) > 0 || len(ps) != 1 || ps[0].ID != "fmt@inline" || ps[0].Root != dev {
		t.Fatalf("plugins %+v, errors %v", ps, errorTexts(errs))
	}
}

func TestLoadLeavesOutTheServersOfAFolderWhoseHostRunsThem(t *testing.T) {
	plug := t.TempDir()
	write(t, plug, map[string]string{".mcp.json": `{"s": {"command": "x"}}`, "commands/a.md": "a"})
	ps, errs := Load(Options{Dirs: []Dir{{Path: plug, NoMCP: true}}})
	if len(errs) > 0 || len(ps) != 1 || len(ps[0].MCPServers) != 0 {
		t.Fatalf("plugins %+v, errors %v", ps, errorTexts(errs))
	}
}

func TestLoadReportsUnreadableInstallRecords(t *testing.T) {
	claude := t.TempDir()
	installRecords(t, claude, `{"version": 2, "plugins": `)
	ps, errs := Load(Options{Enabled: map[string]bool{"a@m": true}, ClaudeDir: claude})
	if len(ps) != 0 || len(errs) != 1 || errs[0].Type != ErrInstallRecords || !strings.Contains(errs[0].Message, "installed_plugins.json") {
		t.Fatalf("plugins %+v, errors %v", ps, errorTexts(errs))
	}
}

func TestLoadReadsAFolderGivenTwiceOnceAndRefusesASecondPluginOfOneName(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"a/.claude-plugin/plugin.json": `{"name": "same"}`,
		"b/.claude-plugin/plugin.json": `{"name": "same"}`,
	})
	ps, errs := Load(Options{Dirs: []Dir{{Path: "a"}, {Path: filepath.Join(root, "a")}, {Path: "b"}}, Cwd: root})
	if len(ps) != 1 || ps[0].Root != filepath.Join(root, "a") {
		t.Fatalf("plugins = %+v", ps)
	}
	if len(errs) != 1 || errs[0].Plugin != "inline[2]" || !strings.Contains(errs[0].Message, `also named "same"`) {
		t.Errorf("errors = %q", errorTexts(errs))
	}
}
