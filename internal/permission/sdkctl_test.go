package permission

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/settings"
)

func TestSetSourceRulesReplacesOneSourcesRulesOrNothing(t *testing.T) {
	s := &settings.Settings{Rules: []settings.Rule{
		{Text: "Bash(touch:*)", Behavior: Allow, Source: settings.SourceFlag},
		{Text: "Bash(rm:*)", Behavior: Deny, Source: settings.SourceUser},
	}}
	p, _, err := NewPolicy(Config{Settings: s, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(p, CheckerConfig{})
	touch, _ := json.Marshal(map[string]string{"command": "touch a"})
	mkdir, _ := json.Marshal(map[string]string{"command": "mkdir b"})
	if c.Check("Bash", touch, false).Behavior != Allow {
		t.Fatal("the flag layer's rule does not apply at start")
	}
	err = c.SetSourceRules(settings.SourceFlag, []settings.Rule{
		{Text: "Bash(mkdir:*)", Behavior: Allow, Source: settings.SourceFlag},
		{Text: "Bash(rm:*)", Behavior: Deny, Source: settings.SourceUser}, // another source's: left alone
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Check("Bash", touch, false).Behavior == Allow || c.Check("Bash", mkdir, false).Behavior != Allow {
		t.Error("the flag layer's rules were not replaced")
	}
	if n := len(c.Policy().Rules); n != 2 {
		t.Errorf("%d rules, want the new flag rule and the user's", n)
	}
	err = c.SetSourceRules(settings.SourceFlag, []settings.Rule{
		{Text: "Read", Behavior: Allow, Source: settings.SourceFlag},
		{Text: "Bash(unclosed", Behavior: Deny, Source: settings.SourceFlag},
	})
	if err == nil || !strings.Contains(err.Error(), `permissions.deny: permission rule "Bash(unclosed": missing closing parenthesis`) {
		t.Errorf("SetSourceRules with a bad rule = %v", err)
	}
	if c.Check("Bash", mkdir, false).Behavior != Allow {
		t.Error("a refused replacement changed the rules")
	}
}

func TestSetMCPAskAsksAboutOneServersToolsUnderBypass(t *testing.T) {
	p, _, err := NewPolicy(Config{Mode: string(ModeBypass), Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(p, CheckerConfig{})
	c.SetMCPAsk("github", true)
	if d := c.Check("mcp__github__create_issue", json.RawMessage(`{}`), false); d.Behavior != Ask {
		t.Errorf("the overridden server's tool: %s, want ask", d.Behavior)
	}
	if d := c.Check("mcp__other__x", json.RawMessage(`{}`), false); d.Behavior != Allow {
		t.Errorf("another server's tool: %s, want allow under bypassPermissions", d.Behavior)
	}
	c.SetMCPAsk("github", false)
	if d := c.Check("mcp__github__create_issue", json.RawMessage(`{}`), false); d.Behavior != Allow {
		t.Errorf("after clearing the override: %s, want allow", d.Behavior)
	}
}
