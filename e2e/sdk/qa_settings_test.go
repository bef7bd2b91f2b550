package sdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An SDK client that accepts a permission with destination localSettings
// gets the rule in .claude/settings.local.json, and nothing else appears
// in the project's .claude folder (no lock file for git to show).
func TestQAAcceptedLocalSettingsRuleLeavesOnlyTheSettingsFile(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch made"})),
		llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio")
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.user("Make the file.")
	for asked := false; ; {
		line := c.next()
		var v struct {
			Type      string `json:"type"`
			RequestID string `json:"request_id"`
			Request   struct {
				Subtype string `json:"subtype"`
			} `json:"request"`
		}
		json.Unmarshal([]byte(line), &v)
		if v.Type == "control_request" && v.Request.Subtype == "can_use_tool" {
			asked = true
			c.answer(v.RequestID, `{"behavior":"allow","updatedInput":{"command":"touch made"},"toolUseID":"toolu_1",`+
				`"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch *"}],"behavior":"allow","destination":"localSettings"}]}`)
		}
		if v.Type == "result" {
			if !asked {
				t.Fatal("no can_use_tool request before the result")
			}
			break
		}
	}
	c.closeInput()
	for range c.lines {
	}
	dir := filepath.Join(sb.Dir, ".claude")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "settings.local.json" {
		t.Errorf(".claude holds %v, want only settings.local.json", names)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "settings.local.json"))
	if !strings.Contains(string(data), `"Bash(touch *)"`) {
		t.Errorf("settings.local.json = %s", data)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
}
