package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandVars(t *testing.T) {
	env := map[string]string{"HOME": "/home/ada", "TOKEN": "t0k", "EMPTY": ""}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		in, want string
		missing  []string
	}{
		{"plain", "plain", nil},
		{"${HOME}/bin", "/home/ada/bin", nil},
		{"Bearer ${TOKEN}", "Bearer t0k", nil},
		{"${NOPE:-fallback}", "fallback", nil},
		{"${EMPTY:-used}", "used", nil},
		{"${TOKEN:-unused}", "t0k", nil},
		{"a${NOPE}b", "ab", []string{"NOPE"}},
		{"${NOPE:-}", "", nil},
		{"$HOME stays", "$HOME stays", nil},
		{"${unclosed", "${unclosed", nil},
		{"${1BAD}", "${1BAD}", nil},
		{"${A}${B:-x}${TOKEN}", "xt0k", []string{"A"}},
	}
	for _, tt := range tests {
		got, missing := expandVars(tt.in, getenv)
		if got != tt.want || !cmp.Equal(missing, tt.missing) {
			t.Errorf("expandVars(%q) = %q, %v; want %q, %v", tt.in, got, missing, tt.want, tt.missing)
		}
	}
	cfg := ServerConfig{Command: "${HOME}/srv", Args: []string{"--key=${TOKEN}"}, Env: map[string]string{"K": "${MISSING}"},
		URL: "https://${HOST:-example.com}/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}}
	got, missing := cfg.Expand(getenv)
	want := ServerConfig{Command: "/home/ada/srv", Args: []string{"--key=t0k"}, Env: map[string]string{"K": ""},
		URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer t0k"}}
	if !cmp.Equal(got, want) || !cmp.Equal(missing, []string{"MISSING"}) {
		t.Errorf("Expand = %+v, %v", got, missing)
	}
	if cfg.Command != "${HOME}/srv" {
		t.Error("Expand changed its receiver")
	}
}

func TestParseServersReportsBadEntries(t *testing.T) {
	data := `{"mcpServers":{
		"ok":{"command":"srv","args":["-v"]},
		"web":{"type":"http","url":"https://x/mcp"},
		"nourl":{"type":"sse"},
		"weird":{"type":"carrier-pigeon","url":"x"},
		"empty":{},
		"bad__name":{"command":"x"},
		"notobj":[1,2]}}`
	servers, err := ParseServers([]byte(data), ScopeProject, ".mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	invalid := map[string]string{}
	for _, s := range servers {
		invalid[s.Name] = s.Invalid
	}
	for name, want := range map[string]string{"ok": "", "web": "", "nourl": "needs a url", "weird": "unknown transport",
		"empty": "neither a command nor a url", "bad__name": `may not contain "__"`, "notobj": "the entry must be an object, not a JSON array"} {
		if got := invalid[name]; (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: Invalid = %q, want containing %q", name, got, want)
		}
	}
	if _, err := ParseServers([]byte(`{"mcpServers":`), ScopeUser, "f"); err == nil || !strings.Contains(err.Error(), "f") {
		t.Errorf("truncated file error = %v", err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadMergesScopesWithPrecedence(t *testing.T) {
	home, cfgDir, proj := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"numStartups":3,"mcpServers":{
		"shared":{"command":"claude-user"},"only-claude":{"command":"c"}},
		"projects":{"`+proj+`":{"mcpServers":{"loc":{"command":"claude-local"}}},"/elsewhere":{"mcpServers":{"other":{"command":"o"}}}}}`)
	writeFile(t, UserFile(cfgDir), `{"mcpServers":{"shared":{"command":"reins-user"}},
		"projects":{"`+proj+`":{"mcpServers":{"loc":{"command":"reins-local"}}}}}`)
	writeFile(t, filepath.Join(proj, ProjectFile), `{"mcpServers":{"team":{"command":"team-srv"},"shared":{"command":"project"},"off":{"command":"z"}}}`)
	cfg, err := Load(LoadOptions{Cwd: proj, Home: home, ConfigDir: cfgDir,
		Approval:  Approval{Enabled: []string{"shared"}, Disabled: []string{"off"}},
		MCPConfig: []string{`{"mcpServers":{"flag":{"type":"sdk","name":"flag"}}}`}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range cfg.Servers {
		got[s.Name] = string(s.Scope) + ":" + s.Config.Target() + ":" + s.Disabled
	}
	want := map[string]string{
		"flag":        "dynamic:sdk:flag:",
		"loc":         "local:reins-local:",
		"off":         "project:z:disabled in settings (disabledMcpjsonServers)",
		"only-claude": "user:c:",
		"shared":      "project:project:",
		"team":        "project:team-srv:" + approvalState("team", Approval{}),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if n := cfg.NeedsApproval(); !cmp.Equal(n, []string{"team"}) {
		t.Errorf("NeedsApproval = %v", n)
	}
	cfg.Approve("team")
	if s, _ := cfg.Get("team"); s.Disabled != "" {
		t.Error("Approve left team disabled")
	}
	strict, err := Load(LoadOptions{Cwd: proj, Home: home, ConfigDir: cfgDir, Strict: true, MCPConfig: []string{`{"mcpServers":{"flag":{"command":"f"}}}`}})
	if err != nil || len(strict.Servers) != 1 || strict.Servers[0].Name != "flag" {
		t.Errorf("strict = %+v, %v", strict, err)
	}
	all, err := Load(LoadOptions{Cwd: proj, ConfigDir: cfgDir, Approval: Approval{EnableAll: true}})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := all.Get("team"); s.Disabled != "" {
		t.Error("enableAllProjectMcpServers did not approve team")
	}
}

func TestLoadMCPConfigFlagErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "servers.json"), `{"mcpServers":{"a":{"command":"x"}}}`)
	if cfg, err := Load(LoadOptions{Cwd: dir, MCPConfig: []string{"servers.json"}}); err != nil || len(cfg.Servers) != 1 {
		t.Errorf("relative file: %+v, %v", cfg, err)
	}
	for _, v := range []string{"missing.json", `{"mcpServers":{"b":{}}}`, `{"mcpServers":`} {
		if _, err := Load(LoadOptions{Cwd: dir, MCPConfig: []string{v}}); err == nil || !strings.Contains(err.Error(), "--mcp-config") {
			t.Errorf("--mcp-config %s: err = %v", v, err)
		}
	}
}

func TestLoadDropsDuplicateServers(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"gh":{"command":"npx","args":["-y","server-github"]}},
		"projects":{"`+proj+`":{"mcpServers":{"github":{"command":"npx","args":["-y","server-github"]}}}}}`)
	cfg, err := Load(LoadOptions{Cwd: proj, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].Name != "github" || len(cfg.Warnings) != 1 {
		t.Errorf("servers = %+v, warnings %v", cfg.Servers, cfg.Warnings)
	}
}

func TestAddAndRemoveServersKeepOtherFields(t *testing.T) {
	cfgDir, proj := t.TempDir(), t.TempDir()
	writeFile(t, UserFile(cfgDir), `{"theme":"dark","mcpServers":{}}`)
	f := Files{Cwd: proj, ConfigDir: cfgDir}
	steps := []struct {
		scope Scope
		name  string
		cfg   ServerConfig
	}{
		{ScopeLocal, "loc", ServerConfig{Command: "l", Args: []string{"-x"}}},
		{ScopeUser, "usr", ServerConfig{Type: "http", URL: "https://u/mcp", Headers: map[string]string{"A": "b"}}},
		{ScopeProject, "prj", ServerConfig{Command: "p", Env: map[string]string{"K": "${V}"}}},
	}
	for _, s := range steps {
		if err := f.AddServer(s.scope, s.name, s.cfg); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.AddServer(ScopeLocal, "loc", ServerConfig{Command: "again"}); err == nil {
		t.Error("duplicate name accepted")
	}
	if err := f.AddServer(ScopeUser, "bad", ServerConfig{}); err == nil {
		t.Error("empty entry accepted")
	}
	cfg, err := Load(LoadOptions{Cwd: proj, ConfigDir: cfgDir, Approval: Approval{EnableAll: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		got, ok := cfg.Get(s.name)
		if !ok || got.Scope != s.scope || !cmp.Equal(got.Config, s.cfg) {
			t.Errorf("%s: got %+v", s.name, got)
		}
	}
	data, _ := os.ReadFile(UserFile(cfgDir))
	if !bytes.Contains(data, []byte(`"theme": "dark"`)) {
		t.Errorf("user file lost its other fields:\n%s", data)
	}
	if st, _ := os.Stat(UserFile(cfgDir)); st.Mode().Perm() != 0o644 {
		t.Errorf("mode changed to %v", st.Mode().Perm())
	}
	for _, s := range steps {
		got, err := f.RemoveServer("", s.name)
		if err != nil || got != s.scope {
			t.Errorf("remove %s = %s, %v", s.name, got, err)
		}
	}
	if _, err := f.RemoveServer("", "loc"); err == nil {
		t.Error("removing a missing server succeeded")
	}
}

func TestCommandsAddListGetRemove(t *testing.T) {
	cfgDir, proj := t.TempDir(), t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts := CommandOptions{Cwd: proj, ConfigDir: cfgDir, Getenv: func(k string) string {
		if k == "REINS_MCP_TEST_PEER" {
			return "stdio"
		}
		return os.Getenv(k)
	}}
	run := func(args ...string) (string, error) {
		cmd := NewCommand(opts)
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		err := cmd.ExecuteContext(context.Background())
		return out.String(), err
	}
	steps := []struct {
		args    []string
		want    string
		wantErr string
	}{
		{args: []string{"list"}, want: "No MCP servers configured"},
		{args: []string{"add", "-e", "REINS_MCP_TEST_PEER=stdio", "self", "--", exe}, want: "Added stdio MCP server self (local scope)"},
		{args: []string{"add", "--transport", "http", "-s", "user", "web", "http://127.0.0.1:1/mcp", "-H", "Authorization: Bearer ${T}"}, want: "Added http MCP server web (user scope)"},
		{args: []string{"add-json", "-s", "project", "js", `{"command":"x","args":["1"]}`}, want: "Added stdio MCP server js (project scope)"},
		{args: []string{"add-json", "bad", `{"comand":"x"}`}, wantErr: "unknown field"},
		{args: []string{"add-json", "bad", `{"command":5}`}, wantErr: "server entry for bad: command must be a string, not a JSON number"},
		{args: []string{"add", "--transport", "ftp", "x", "y"}, wantErr: "unknown transport"},
		{args: []string{"list"}, want: "self: " + exe + " - ✔ Connected"},
		{args: []string{"get", "self"}, want: "Tools: mcp__self__ask, mcp__self__echo, mcp__self__pid, mcp__self__sleep"},
		{args: []string{"get", "nope"}, wantErr: `no MCP server named "nope"`},
		{args: []string{"remove", "web"}, want: "Removed MCP server web (user scope)"},
		{args: []string{"remove", "-s", "project", "js"}, want: "Removed MCP server js (project scope)"},
		{args: []string{"serve"}, wantErr: "not available"},
	}
	for _, s := range steps {
		out, err := run(s.args...)
		if s.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Errorf("%v: err = %v, want %q", s.args, err, s.wantErr)
			}
			continue
		}
		if err != nil || !strings.Contains(out, s.want) {
			t.Errorf("%v: %v\n%s\nwant %q", s.args, err, out, s.want)
		}
	}
	out, _ := run("list")
	if !strings.Contains(out, "js: x 1 - ○ Disabled: not approved") && strings.Contains(out, "js:") {
		t.Errorf("list after removals:\n%s", out)
	}
	data, _ := os.ReadFile(filepath.Join(proj, ProjectFile))
	var f ServersFile
	if err := json.Unmarshal(data, &f); err != nil || len(f.MCPServers) != 0 {
		t.Errorf(".mcp.json after remove: %s", data)
	}
}

// FuzzParseServers feeds arbitrary files to the configuration parser and
// the variable expansion: errors are fine, panics are not.
func FuzzParseServers(f *testing.F) {
	for _, s := range []string{`{"mcpServers":{"a":{"command":"x","args":["${A:-b}"]}}}`, `{"a":{"url":"${U}"}}`, `{"mcpServers":null}`, `[]`, `{"mcpServers":{"x":{"type":"sdk"}}}`, "\xef\xbb\xbf{}", `{"mcpServers":{"h":{"type":"http","url":"u","headers":{"A":"${B}${"}}}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		servers, err := ParseServers(data, ScopeProject, "fuzz")
		if err != nil {
			return
		}
		for _, s := range servers {
			if s.Invalid == "" {
				if err := s.Config.Validate(); err != nil {
					t.Fatalf("valid server %q fails Validate: %v", s.Name, err)
				}
			}
			s.Config.Expand(func(k string) string { return k })
			_ = s.Config.Signature()
		}
	})
}
