package permission

import (
	"encoding/json"
	"testing"
)

// A hook's "if" condition matches calls as the same rule would in a deny
// list: any Bash subcommand, leading assignments stripped, commands in
// $(); path patterns; whole tools and MCP servers.
func TestRuleMatchesAsAHookIfCondition(t *testing.T) {
	for _, tt := range []struct {
		rule, tool, input string
		want              bool
	}{
		{"Bash(git *)", "Bash", `{"command":"npm test && git push"}`, true},
		{"Bash(git *)", "Bash", `{"command":"FOO=bar git push"}`, true},
		{"Bash(git *)", "Bash", `{"command":"npm test"}`, false},
		{"Bash(rm *)", "Bash", `{"command":"echo $(rm -rf x)"}`, true},
		{"Edit(*.ts)", "Edit", `{"file_path":"/w/a.ts"}`, true},
		{"Edit(*.ts)", "Edit", `{"file_path":"/w/a.go"}`, false},
		{"Edit(*.ts)", "Write", `{"file_path":"/w/a.ts"}`, true}, // Edit rules cover every edit tool
		{"Bash", "Bash", `{"command":"ls"}`, true},
		{"mcp__gap", "mcp__gap__dump", `{}`, true},
		{"Read(./secret/**)", "Read", `{"file_path":"/w/other.txt"}`, false},
	} {
		got, err := RuleMatches(tt.rule, tt.tool, json.RawMessage(tt.input), "/w", "/h")
		if err != nil || got != tt.want {
			t.Errorf("%s vs %s %s = %v %v, want %v", tt.rule, tt.tool, tt.input, got, err, tt.want)
		}
	}
}

func TestRuleMatchesRefusesABadRule(t *testing.T) {
	if _, err := RuleMatches("Bash(git *", "Bash", json.RawMessage(`{"command":"git"}`), "/w", "/h"); err == nil {
		t.Error("an unclosed rule was accepted")
	}
}
