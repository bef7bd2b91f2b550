package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadPluginNamesAgentsAfterThePluginAndDropsFieldsPluginsMayNotSet(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"agents/review.md":  "---\nname: reviewer\ndescription: Reviews\npermissionMode: bypassPermissions\nhooks:\n  Stop: []\nmcpServers:\n  x: {command: y}\n---\nRead ${CLAUDE_PLUGIN_ROOT}/guide.md",
		"agents/sub/fix.md": "---\nname: fixer\ndescription: Fixes\n---\nFix",
		"one.md":            "---\nname: solo\ndescription: Alone\n---\nSolo",
	}
	for rel, content := range files {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defs, errs := LoadPlugin("qa", []string{filepath.Join(root, "agents"), filepath.Join(root, "one.md")},
		func(s string) string { return strings.ReplaceAll(s, "${CLAUDE_PLUGIN_ROOT}", "/plug") })
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
		if d.Source != SourcePlugin {
			t.Errorf("%s: source %s", d.Name, d.Source)
		}
	}
	if strings.Join(names, ",") != "qa:reviewer,qa:fixer,qa:solo" {
		t.Errorf("names = %v", names)
	}
	r := defs[0]
	if r.Prompt != "Read /plug/guide.md" || r.PermissionMode != "" || r.Hooks != nil || r.MCPServers != nil {
		t.Errorf("reviewer = %+v", r)
	}
	if len(errs) != 3 {
		t.Fatalf("errors = %v, want hooks, mcpServers and permissionMode refused", errs)
	}
	for i, f := range []string{"hooks", "mcpServers", "permissionMode"} {
		if !strings.Contains(errs[i].Error(), f+" is not allowed in a plugin's agent") {
			t.Errorf("error %d = %v", i, errs[i])
		}
	}
}

func TestPluginAgentsRankBelowUserAgents(t *testing.T) {
	plug := &Definition{Name: "x", Description: "plugin", Source: SourcePlugin}
	user := &Definition{Name: "x", Description: "user", Source: SourceUser}
	for _, cat := range []*Catalog{NewCatalog(plug, user), NewCatalog(user).With(plug)} {
		if d, _ := cat.Lookup("x"); d.Description != "user" {
			t.Errorf("lookup = %s, want the user's", d.Description)
		}
	}
}
