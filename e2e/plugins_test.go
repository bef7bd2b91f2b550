package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// writeTree creates files under dir: path to content.
func writeTree(t *testing.T, dir string, files map[string]string) {
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

// demoPlugin writes a plugin named "demo" under dir/demo with one of each
// component: the command hello (its body names ${CLAUDE_PLUGIN_ROOT}),
// the agent helper, the skill greet, a UserPromptSubmit hook that writes
// what it sees to <project>/hook.out, and the MCP server gap (the test
// server, built into the plugin's bin/ and named through
// ${CLAUDE_PLUGIN_ROOT}). It returns the plugin's folder.
func demoPlugin(t *testing.T, dir string) string {
	t.Helper()
	root := filepath.Join(dir, "demo")
	writeTree(t, root, map[string]string{
		".claude-plugin/plugin.json": `{"name": "demo", "version": "1.2.3", "description": "A demo plugin"}`,
		"commands/hello.md":          "---\ndescription: Say hello\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS, with the style guide at ${CLAUDE_PLUGIN_ROOT}/style.md.\n",
		"agents/helper.md":           "---\nname: helper\ndescription: Helps with demo tasks\ntools: Read\n---\nYou are the demo helper.\n",
		"skills/greet/SKILL.md":      "---\ndescription: Greets people warmly\n---\nGreet warmly.\n",
		"hooks/hooks.json": `{"description": "demo hooks", "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
			"command": "echo \"expanded=${CLAUDE_PLUGIN_ROOT} env=$CLAUDE_PLUGIN_ROOT data=$CLAUDE_PLUGIN_DATA\" > \"$CLAUDE_PROJECT_DIR/hook.out\""}]}]}}`,
		".mcp.json": `{"mcpServers": {"gap": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/mcpgapserver"}}}`,
	})
	bin := filepath.Join(root, "bin", "mcpgapserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/mcpgapserver").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	return root
}

// initLine decodes the system/init line of a stream-json run.
func initLine(t *testing.T, stdout string) map[string]any {
	t.Helper()
	for _, l := range strings.Split(stdout, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["type"] == "system" && m["subtype"] == "init" {
			return m
		}
	}
	t.Fatalf("no init line in:\n%s", stdout)
	return nil
}

// strs reads a JSON list of strings.
func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// --plugin-dir loads a plugin's command, skill, agent, hook and MCP
// server, named as Claude Code names them, and the init line lists the
// plugin: the command expands with ${CLAUDE_PLUGIN_ROOT} replaced, the
// hook runs with CLAUDE_PLUGIN_ROOT set, and the model can call the
// server's tool as mcp__plugin_demo_gap__dump.
func TestPluginDirLoadsCommandsSkillsAgentsHooksAndMCPServers(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "mcp__plugin_demo_gap__dump", map[string]any{"chars": 12})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "ENABLE_TOOL_SEARCH=false") // the server's tools go to the model directly
	root := demoPlugin(t, t.TempDir())
	r := sb.Run(t, "", "-p", "/demo:hello Ada", "--output-format", "stream-json", "--verbose",
		"--plugin-dir", root, "--allowedTools", "mcp__plugin_demo_gap__dump")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := initLine(t, r.Stdout)
	plugins, _ := json.Marshal(in["plugins"])
	if want := `[{"name":"demo","path":"` + root + `","source":"demo@inline","version":"1.2.3"}]`; string(plugins) != want {
		t.Errorf("plugins = %s, want %s", plugins, want)
	}
	if _, ok := in["plugin_errors"]; ok {
		t.Errorf("plugin_errors is present with nothing wrong: %v", in["plugin_errors"])
	}
	for field, want := range map[string][]string{
		"slash_commands": {"demo:hello", "demo:greet"},
		"skills":         {"demo:greet"},
		"agents":         {"demo:helper"},
		"tools":          {"mcp__plugin_demo_gap__dump"},
	} {
		got := strs(in[field])
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("init %s = %q, lacks %q", field, got, w)
			}
		}
	}
	servers, _ := json.Marshal(in["mcp_servers"])
	if want := `[{"name":"plugin:demo:gap","status":"connected"}]`; string(servers) != want {
		t.Errorf("mcp_servers = %s, want %s", servers, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if want := "Say hello to Ada, with the style guide at " + root + "/style.md."; !strings.Contains(reqs[0].LastUserText(), want) {
		t.Errorf("the command expanded to %q, want %q in it", reqs[0].LastUserText(), want)
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || res[0].IsError || len(res[0].Content) != 1 || res[0].Content[0].Text != "0123456789ab" {
		t.Errorf("tool result of the plugin's server = %+v", res)
	}
	hook, err := os.ReadFile(filepath.Join(sb.Dir, "hook.out"))
	data := filepath.Join(sb.Home, ".claude", "plugins", "data", "demo-inline")
	if want := "expanded=" + root + " env=" + root + " data=" + data + "\n"; err != nil || string(hook) != want {
		t.Errorf("hook wrote %q (%v), want %q", hook, err, want)
	}
}

// The Agent tool starts a plugin's agent by its namespaced name, with the
// agent's own prompt.
func TestPluginAgentRunsAsASubAgent(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Agent", map[string]any{"subagent_type": "demo:helper", "description": "help", "prompt": "help out"})),
		llmtest.Reply("helped"),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := demoPlugin(t, t.TempDir())
	r := sb.Run(t, "", "-p", "go", "--plugin-dir", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if sys := reqs[1].SystemText(); !strings.Contains(sys, "You are the demo helper.") {
		t.Errorf("the sub-agent's system prompt lacks the plugin agent's prompt:\n%.500s", sys)
	}
	if res := reqs[2].ToolResults(); len(res) != 1 || res[0].IsError {
		t.Errorf("Agent result = %+v", res)
	}
}

// A plugin enabled in settings ("enabledPlugins") loads from where Claude
// Code installed it (installed_plugins.json under $CLAUDE_CONFIG_DIR);
// nothing is fetched.
func TestEnabledPluginsLoadFromClaudeCodesInstallRecords(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	claude := filepath.Join(sb.Home, ".claude")
	install := filepath.Join(claude, "plugins", "cache", "team-tools", "review", "0.4.0")
	writeTree(t, install, map[string]string{
		".claude-plugin/plugin.json": `{"name": "review", "version": "0.4.0"}`,
		"commands/pr.md":             "Review the pull request $ARGUMENTS using ${CLAUDE_PLUGIN_ROOT}/checklist.md.\n",
	})
	records, _ := json.Marshal(map[string]any{"version": 2, "plugins": map[string]any{
		"review@team-tools": []any{map[string]any{"scope": "user", "installPath": install, "version": "0.4.0"}},
		"other@team-tools":  []any{map[string]any{"scope": "user", "installPath": install}},
	}})
	writeTree(t, claude, map[string]string{
		"plugins/installed_plugins.json": string(records),
		"settings.json":                  `{"enabledPlugins": {"review@team-tools": true, "other@team-tools": false}}`,
	})
	r := sb.Run(t, "", "-p", "/review:pr 42", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	plugins, _ := json.Marshal(initLine(t, r.Stdout)["plugins"])
	if want := `[{"name":"review","path":"` + install + `","source":"review@team-tools","version":"0.4.0"}]`; string(plugins) != want {
		t.Errorf("plugins = %s, want %s", plugins, want)
	}
	if want := "Review the pull request 42 using " + install + "/checklist.md."; !strings.Contains(srv.Requests()[0].LastUserText(), want) {
		t.Errorf("prompt = %q, want %q in it", srv.Requests()[0].LastUserText(), want)
	}
}

// A plugin enabled in settings but not installed, a --plugin-dir that
// does not exist and a manifest that does not parse are reported in
// plugin_errors (which plugin, which file, what is wrong) and on stderr;
// the session still runs with the plugins that did load.
func TestBrokenPluginsAreReportedAndTheSessionStillRuns(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	dir := t.TempDir()
	good := demoPlugin(t, dir)
	writeTree(t, dir, map[string]string{"broken/.claude-plugin/plugin.json": `{"name": "broken", "commands": ["./a.md",]}`})
	writeTree(t, filepath.Join(sb.Home, ".claude"), map[string]string{"settings.json": `{"enabledPlugins": {"ghost@somewhere": true}}`})
	r := sb.Run(t, "", "-p", "hi", "--output-format", "stream-json", "--verbose",
		"--plugin-dir", filepath.Join(dir, "broken"), "--plugin-dir", filepath.Join(dir, "missing"), "--plugin-dir", good)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := initLine(t, r.Stdout)
	var errs []map[string]string
	raw, _ := json.Marshal(in["plugin_errors"])
	json.Unmarshal(raw, &errs)
	manifest := filepath.Join(dir, "broken", ".claude-plugin", "plugin.json")
	want := []map[string]string{
		{"plugin": "ghost@somewhere", "type": "plugin-not-installed"},
		{"plugin": "inline[0]", "type": "manifest-validation-error", "path": filepath.Join(dir, "broken")},
		{"plugin": "inline[1]", "type": "path-not-found", "path": filepath.Join(dir, "missing")},
	}
	if len(errs) != len(want) {
		t.Fatalf("plugin_errors = %s", raw)
	}
	for i, w := range want {
		for k, v := range w {
			if errs[i][k] != v {
				t.Errorf("plugin_errors[%d].%s = %q, want %q", i, k, errs[i][k], v)
			}
		}
	}
	if !strings.Contains(errs[1]["message"], manifest) || !strings.Contains(errs[1]["message"], "invalid character") {
		t.Errorf("the manifest error does not name the file and the fault: %q", errs[1]["message"])
	}
	if !strings.Contains(errs[0]["message"], "claude plugin install ghost@somewhere") {
		t.Errorf("the missing install does not say how to install: %q", errs[0]["message"])
	}
	if !strings.Contains(r.Stderr, "plugin inline[0]: "+manifest) {
		t.Errorf("stderr does not report the broken manifest:\n%s", r.Stderr)
	}
	plugins, _ := json.Marshal(in["plugins"])
	if !strings.Contains(string(plugins), `"name":"demo"`) || strings.Contains(string(plugins), "broken") {
		t.Errorf("plugins = %s, want demo alone", plugins)
	}
}

// A user's own command of the same name as a plugin's wins, as user and
// project configuration rank above plugins.
func TestUserCommandWinsOverAPluginCommandOfTheSameName(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := demoPlugin(t, t.TempDir())
	sb.Write(t, ".claude/commands/demo/hello.md", "The project's own hello for $ARGUMENTS.\n")
	r := sb.Run(t, "", "-p", "/demo:hello Bo", "--plugin-dir", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "The project's own hello for Bo.") {
		t.Errorf("prompt = %q, want the project's command", got)
	}
}

// reins plugin list shows what a session here would load; install says
// that reins does not install plugins.
func TestPluginListSubcommand(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	root := demoPlugin(t, t.TempDir())
	r := sb.Run(t, "", "plugin", "list", "--plugin-dir", root)
	if r.Code != 0 || !strings.Contains(r.Stdout, "demo@inline 1.2.3  "+root) || !strings.Contains(r.Stdout, "1 MCP server(s): plugin:demo:gap; hooks for 1 event(s)") {
		t.Errorf("code %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	r = sb.Run(t, "", "plugin", "install", "x@y")
	if r.Code == 0 || !strings.Contains(r.Stderr, "does not install") || !strings.Contains(r.Stderr, "claude plugin install") {
		t.Errorf("install: code %d, stderr %s", r.Code, r.Stderr)
	}
}

// The model loads a plugin's skill by its namespaced name with the Skill
// tool, and the skill's body reaches it; the system prompt's skill
// listing names it.
func TestModelLoadsAPluginSkillWithTheSkillTool(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_s", "Skill", map[string]any{"skill": "demo:greet"})),
		llmtest.Reply("greeted"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := demoPlugin(t, t.TempDir())
	r := sb.Run(t, "", "-p", "greet the team", "--plugin-dir", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	listed := false
	for _, m := range reqs[0].Messages {
		for _, b := range m.Content {
			listed = listed || strings.Contains(b.Text, "demo:greet")
		}
	}
	if !listed && !strings.Contains(reqs[0].SystemText(), "demo:greet") {
		t.Errorf("the first request does not list the skill demo:greet")
	}
	body := false
	for _, m := range reqs[1].Messages {
		for _, b := range m.Content {
			body = body || strings.Contains(b.Text, "Greet warmly.")
			for _, c := range b.Content {
				body = body || strings.Contains(c.Text, "Greet warmly.")
			}
		}
	}
	if !body {
		t.Errorf("the skill's body did not reach the model")
	}
	if res := reqs[1].ToolResults(); len(res) != 1 || res[0].IsError {
		t.Errorf("Skill result = %+v", res)
	}
}

// disableAllHooks turns a plugin's hooks off too.
func TestDisableAllHooksTurnsPluginHooksOff(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := demoPlugin(t, t.TempDir())
	writeTree(t, filepath.Join(sb.Home, ".claude"), map[string]string{"settings.json": `{"disableAllHooks": true}`})
	r := sb.Run(t, "", "-p", "hi", "--plugin-dir", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "hook.out")); err == nil {
		t.Errorf("the plugin's hook ran although settings disable all hooks")
	}
}

// reins mcp list shows the servers of the plugins settings enable, under
// their plugin:<plugin>:<server> names, with the plugin's root expanded.
func TestMCPListShowsServersOfEnabledPlugins(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	claude := filepath.Join(sb.Home, ".claude")
	install := filepath.Join(claude, "plugins", "cache", "m", "p")
	writeTree(t, install, map[string]string{".mcp.json": `{"s": {"command": "${CLAUDE_PLUGIN_ROOT}/missing-server"}}`})
	records, _ := json.Marshal(map[string]any{"version": 2, "plugins": map[string]any{
		"p@m": []any{map[string]any{"scope": "user", "installPath": install}}}})
	writeTree(t, claude, map[string]string{"plugins/installed_plugins.json": string(records), "settings.json": `{"enabledPlugins": {"p@m": true}}`})
	r := sb.Run(t, "", "mcp", "list")
	if !strings.Contains(r.Stdout, "plugin:p:s: "+install+"/missing-server") {
		t.Errorf("code %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

// /hooks lists a plugin's hooks with the plugin they come from, and
// /plugin (print mode too) what each plugin brought.
func TestHooksAndPluginCommandsShowWhatPluginsBring(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	root := demoPlugin(t, t.TempDir())
	r := sb.Run(t, "", "-p", "/hooks", "--plugin-dir", root)
	if r.Code != 0 || !strings.Contains(r.Stdout, "UserPromptSubmit") || !strings.Contains(r.Stdout, "(plugin demo@inline)") {
		t.Errorf("/hooks: code %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	r = sb.Run(t, "", "-p", "/plugin", "--plugin-dir", root)
	for _, want := range []string{"demo@inline 1.2.3  " + root, "commands: /demo:hello", "skills: demo:greet", "agents: demo:helper", "plugin:demo:gap"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("/plugin lacks %q: code %d, stdout:\n%s", want, r.Code, r.Stdout)
		}
	}
}

// A plugin's agent file that cannot be used is reported in plugin_errors
// against the plugin, which still loads with the rest.
func TestBrokenPluginComponentIsReportedAndThePluginStillLoads(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Join(t.TempDir(), "half")
	writeTree(t, root, map[string]string{
		"commands/fine.md": "Fine.\n",
		"agents/bad.md":    "no frontmatter here\n",
	})
	r := sb.Run(t, "", "-p", "/half:fine", "--output-format", "stream-json", "--verbose", "--plugin-dir", root)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := initLine(t, r.Stdout)
	raw, _ := json.Marshal(in["plugin_errors"])
	var errs []map[string]string
	json.Unmarshal(raw, &errs)
	if len(errs) != 1 || errs[0]["plugin"] != "half@inline" || errs[0]["type"] != "component-load-failed" ||
		!strings.Contains(errs[0]["message"], filepath.Join(root, "agents", "bad.md")) {
		t.Errorf("plugin_errors = %s", raw)
	}
	if !slices.Contains(strs(in["slash_commands"]), "half:fine") {
		t.Errorf("the plugin's good command is missing: %q", strs(in["slash_commands"]))
	}
}

// A plugin's bin/ folder is on the Bash tool's PATH: the model runs its
// programs by name.
func TestPluginBinFolderIsOnTheBashToolsPath(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "demo-tool hi"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Join(t.TempDir(), "tooling")
	writeTree(t, root, map[string]string{"commands/x.md": "x"})
	bin := filepath.Join(root, "bin", "demo-tool")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho \"demo-tool says $1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "run it", "--plugin-dir", root, "--allowedTools", "Bash(demo-tool:*)")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 1 || res[0].IsError || len(res[0].Content) == 0 || !strings.Contains(res[0].Content[0].Text, "demo-tool says hi") {
		t.Errorf("Bash result = %+v", res)
	}
}

// reins plugin validate checks a plugin folder as a session would load
// it, and fails on what would not load.
func TestPluginValidateSubcommand(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	dir := t.TempDir()
	root := demoPlugin(t, dir)
	r := sb.Run(t, "", "plugin", "validate", root)
	if want := root + " is a valid plugin: demo@inline, 2 command(s) and skill(s), 1 agent(s), hooks for 1 event(s), 1 MCP server(s)"; r.Code != 0 || !strings.Contains(r.Stdout, want) {
		t.Errorf("valid plugin: code %d, stdout %q, want %q", r.Code, r.Stdout, want)
	}
	writeTree(t, dir, map[string]string{
		"bad/.claude-plugin/plugin.json": `{"name": "bad", "agents": "./agents/x.md"}`,
		"bad/agents/x.md":                "---\nname: x\n---\nno description",
	})
	r = sb.Run(t, "", "plugin", "validate", filepath.Join(dir, "bad"))
	if r.Code != 1 || !strings.Contains(r.Stdout, "error: load agent "+filepath.Join(dir, "bad", "agents", "x.md")) || !strings.Contains(r.Stdout, "description is required") {
		t.Errorf("broken plugin: code %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
}
