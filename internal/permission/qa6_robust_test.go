package permission

import (
	"strings"
	"testing"

	"reins/internal/settings"
)

// A rule whose tool is a built-in's name in another case (bash(rm:*))
// never matches, since tool names are matched exactly: a deny rule
// written so protects nothing. It is warned about with the file and the
// name it should have; rules with the right case, and MCP rules, are not.
func TestRuleNamingABuiltinToolInAnotherCaseIsWarnedAbout(t *testing.T) {
	s := &settings.Settings{Rules: []settings.Rule{
		{Behavior: settings.Deny, Text: "bash(rm:*)", File: "/p/.claude/settings.json", Line: 3, Column: 14},
		{Behavior: settings.Allow, Text: "READ", File: "/p/.claude/settings.json", Line: 4, Column: 5},
		{Behavior: settings.Allow, Text: "Bash(ls:*)", File: "/p/.claude/settings.json"},
		{Behavior: settings.Allow, Text: "mcp__GitHub", File: "/p/.claude/settings.json"},
	}}
	_, warns, err := NewPolicy(Config{Settings: s, Cwd: "/p", Home: "/h", DisallowedTools: []string{"webfetch"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		`/p/.claude/settings.json:3:14: rule bash(rm:*): no tool is named "bash" (tool names are matched exactly: Bash); it never matches`,
		`/p/.claude/settings.json:4:5: rule READ: no tool is named "READ" (tool names are matched exactly: Read); it never matches`,
		`rule webfetch: no tool is named "webfetch" (tool names are matched exactly: WebFetch); it never matches`,
	}
	if len(got) != len(want) {
		t.Fatalf("warnings = %q, want %q", got, want)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("warning %d = %q, want %q", i, got[i], want[i])
		}
	}
}
