package mcp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Claude Code keeps its global config in $CLAUDE_CONFIG_DIR/.claude.json
// when that is set, and records the user's answers about a project's
// .mcp.json servers in that file's projects entry. Both are honoured.
func TestLoadReadsClaudeJSONPathAndItsProjectApprovals(t *testing.T) {
	home, ccDir, proj := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"stale":{"command":"not-read"}}}`)
	writeFile(t, filepath.Join(ccDir, ".claude.json"), `{"numStartups":9,"mcpServers":{"cc":{"command":"cc-user"}},
		"projects":{
			"/elsewhere":{"enableAllProjectMcpServers":true},
			"`+proj+`":{"allowedTools":[],"history":[{"display":"x"}],"mcpServers":{},
				"enabledMcpjsonServers":["yes"],"disabledMcpjsonServers":["no"],"enableAllProjectMcpServers":false}}}`)
	writeFile(t, filepath.Join(proj, ProjectFile), `{"mcpServers":{"yes":{"command":"y"},"no":{"command":"n"},"maybe":{"command":"m"},"set":{"command":"s"}}}`)
	cfg, err := Load(LoadOptions{Cwd: proj, Home: home, ClaudeJSON: filepath.Join(ccDir, ".claude.json"),
		Approval: Approval{Enabled: []string{"set", "no"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range cfg.Servers {
		got[s.Name] = string(s.Scope) + ":" + s.Disabled
	}
	want := map[string]string{
		"cc":    "user:",
		"yes":   "project:",
		"set":   "project:",
		"no":    "project:disabled in settings (disabledMcpjsonServers)",
		"maybe": "project:" + approvalState("maybe", Approval{}),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s\nwarnings: %v", diff, cfg.Warnings)
	}
}

// A projects entry whose approval fields have unexpected types does not
// make the servers of the file unreadable.
func TestLoadToleratesOddApprovalFieldsInClaudeJSON(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"u":{"command":"x"}},
		"projects":{"`+proj+`":{"enabledMcpjsonServers":"all","enableAllProjectMcpServers":"yes"}}}`)
	cfg, err := Load(LoadOptions{Cwd: proj, Home: home})
	if err != nil || len(cfg.Servers) != 1 || len(cfg.Warnings) != 0 {
		t.Fatalf("servers %+v warnings %v err %v", cfg.Servers, cfg.Warnings, err)
	}
}

// The timeout error states the tool timeout as set: a sub-second or
// fractional MCP_TOOL_TIMEOUT was rounded to whole seconds ("within 0s").
func TestToolTimeoutErrorStatesTheTimeout(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, ToolTimeout: 300 * time.Millisecond})
	_, err := callTool(t, findTool(m.Snapshot(), "mcp__self__sleep"), `{}`)
	if err == nil || !strings.Contains(err.Error(), "within 300ms (MCP_TOOL_TIMEOUT)") {
		t.Fatalf("err = %v", err)
	}
}
