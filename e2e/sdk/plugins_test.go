package sdk_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// pluginFolder writes a plugin named name with the command cmd under dir.
func pluginFolder(t *testing.T, dir, name, cmd string) string {
	t.Helper()
	root := filepath.Join(dir, name)
	for rel, content := range map[string]string{
		".claude-plugin/plugin.json": `{"name": "` + name + `", "version": "0.1.0"}`,
		"commands/" + cmd + ".md":    "---\ndescription: " + cmd + " of " + name + "\n---\nRun " + cmd + ".\n",
	} {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// response reads lines until the control response to id and returns it
// decoded: its subtype, and the response object or error.
func (c *client) response(id string) (subtype string, body map[string]any, errText string) {
	c.t.Helper()
	for {
		var m struct {
			Type     string `json:"type"`
			Response struct {
				Subtype   string         `json:"subtype"`
				RequestID string         `json:"request_id"`
				Response  map[string]any `json:"response"`
				Error     string         `json:"error"`
			} `json:"response"`
		}
		if json.Unmarshal([]byte(c.next()), &m) == nil && m.Type == "control_response" && m.Response.RequestID == id {
			return m.Response.Subtype, m.Response.Response, m.Response.Error
		}
	}
}

// names lists the "name" of each object of a JSON list.
func names(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m["name"].(string))
		}
	}
	return out
}

// reload_plugins answers with the plugins really loaded, and add_plugins
// loads more folders as --plugin-dir would: their commands are there in
// the answer; a relative path is refused.
func TestSDKReloadPluginsListsPluginsAndAddsFolders(t *testing.T) {
	srv := server(t, reply("Done.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	dir := t.TempDir()
	first := pluginFolder(t, dir, "first", "one")
	second := pluginFolder(t, dir, "second", "two")
	c := start(t, sb, nil, "--plugin-dir", first)
	c.request("init-1", `{"subtype":"initialize"}`)
	if st, body, _ := c.response("init-1"); st != "success" || !slices.Contains(names(body["commands"]), "first:one") {
		t.Fatalf("initialize: %s %v", st, body)
	}
	c.request("r1", `{"subtype":"reload_plugins"}`)
	st, body, _ := c.response("r1")
	plugins, _ := json.Marshal(body["plugins"])
	if want := `[{"name":"first","path":"` + first + `","source":"first@inline","version":"0.1.0"}]`; st != "success" || string(plugins) != want {
		t.Errorf("reload_plugins: %s, plugins %s, want %s", st, plugins, want)
	}
	c.request("r2", `{"subtype":"reload_plugins","add_plugins":[{"type":"local","path":`+q(second)+`}]}`)
	st, body, _ = c.response("r2")
	if got := names(body["plugins"]); st != "success" || !slices.Equal(got, []string{"first", "second"}) {
		t.Errorf("after add_plugins: %s, plugins %q", st, got)
	}
	if cmds := names(body["commands"]); !slices.Contains(cmds, "second:two") || !slices.Contains(cmds, "first:one") {
		t.Errorf("after add_plugins, commands = %q", cmds)
	}
	if n, _ := body["error_count"].(float64); n != 0 {
		t.Errorf("error_count = %v", body["error_count"])
	}
	c.request("r3", `{"subtype":"reload_plugins","add_plugins":[{"type":"local","path":"relative/dir"}]}`)
	if st, _, msg := c.response("r3"); st != "error" || !strings.Contains(msg, `add_plugins[0]: path "relative/dir" must be absolute`) {
		t.Errorf("relative add_plugins: %s %q", st, msg)
	}
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// With --await-initialize, the plugins the initialize request carries
// (the SDK's pluginDelivery 'initialize') load at start-up, and the answer
// says so with plugins_applied.
func TestSDKInitializeLoadsThePluginsItCarries(t *testing.T) {
	srv := server(t, reply("Done.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := pluginFolder(t, t.TempDir(), "carried", "go")
	c := start(t, sb, nil, "--await-initialize")
	c.request("init-1", `{"subtype":"initialize","plugins":[{"type":"local","path":`+q(root)+`}]}`)
	st, body, msg := c.response("init-1")
	if st != "success" || body["plugins_applied"] != true || !slices.Contains(names(body["commands"]), "carried:go") {
		t.Errorf("initialize: %s %q plugins_applied=%v commands %q", st, msg, body["plugins_applied"], names(body["commands"]))
	}
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// The TypeScript SDK's plugins option ({type: "local", path}) loads the
// folder, delivered as --plugin-dir or in the initialize request: the
// init message lists the plugin, its command runs, and reloadPlugins
// lists it.
func TestTypeScriptSDKPluginsOptionLoadsAPluginFolder(t *testing.T) {
	for _, scenario := range []string{"plugins", "plugins-initialize"} {
		t.Run(scenario, func(t *testing.T) {
			srv := server(t, reply("Hi Ada.", 100, 10))
			sb := e2etest.NewSandbox(t, srv.URL)
			root := pluginFolder(t, t.TempDir(), "tp", "hi")
			msgs, summary := runScript(t, sb, "sdkctl.mjs", scenario, "PLUGIN_DIR="+root)
			var initPlugins string
			for _, m := range msgs {
				if m["type"] == "system" && m["subtype"] == "init" {
					initPlugins = js(m["plugins"])
				}
			}
			if want := `[{"name":"tp","path":"` + root + `","source":"tp@inline","version":"0.1.0"}]`; initPlugins != want {
				t.Errorf("init plugins = %s, want %s", initPlugins, want)
			}
			if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "Run hi.") {
				t.Errorf("the plugin's command was not expanded: %q", got)
			}
			if got := js(summary["reload"]); got != `{"errors":0,"hasCommand":true,"plugins":["tp@`+root+`"]}` {
				t.Errorf("reloadPlugins = %s", got)
			}
		})
	}
}

// A plugin that reload_plugins adds brings its MCP server: it starts, the
// answer lists it under its plugin:<plugin>:<server> name, and the next
// turn offers its tools.
func TestSDKReloadPluginsStartsTheServersOfAddedPlugins(t *testing.T) {
	srv := server(t, reply("Done.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "ENABLE_TOOL_SEARCH=false")
	root := filepath.Join(t.TempDir(), "gapper")
	bin := filepath.Join(root, "bin", "mcpgapserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../testdata/mcpgapserver").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": {"gap": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/mcpgapserver"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t, sb, nil)
	c.request("init-1", `{"subtype":"initialize"}`)
	if st, _, msg := c.response("init-1"); st != "success" {
		t.Fatalf("initialize: %s", msg)
	}
	c.request("r1", `{"subtype":"reload_plugins","add_plugins":[{"type":"local","path":`+q(root)+`}]}`)
	st, body, msg := c.response("r1")
	if st != "success" || !slices.Contains(names(body["mcpServers"]), "plugin:gapper:gap") {
		t.Fatalf("reload_plugins: %s %q, mcpServers %q", st, msg, names(body["mcpServers"]))
	}
	c.user("go")
	for !kindIn(c.next(), []string{"result/success"}) {
	}
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if tools := srv.Requests()[0].ToolNames(); !slices.Contains(tools, "mcp__plugin_gapper_gap__dump") {
		t.Errorf("the turn after the reload does not offer the plugin server's tools: %q", tools)
	}
}
