package permission

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestGrantAllowsUntilRevokedAndKeepsOtherRules(t *testing.T) {
	p, _, err := NewPolicy(Config{Cwd: t.TempDir(), AllowedTools: []string{"Bash(git status:*)"}})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(p, CheckerConfig{})
	check := func(cmd string) Behavior {
		return c.Check("Bash", json.RawMessage(`{"command":"`+cmd+`"}`), false).Behavior
	}
	if got := check("touch x"); got == Allow {
		t.Fatalf("touch allowed before the grant")
	}
	revoke, err := c.Grant([]string{"Bash(touch:*)", "Bash(git status:*)", "Bash(unclosed"})
	if err == nil || !strings.Contains(err.Error(), "Bash(unclosed") {
		t.Errorf("Grant error = %v, want one naming the bad rule", err)
	}
	if got := check("touch x"); got != Allow {
		t.Errorf("touch during the grant: %s", got)
	}
	revoke()
	revoke() // a second call changes nothing
	if got := check("touch x"); got == Allow {
		t.Errorf("touch still allowed after revoke")
	}
	if got := check("git status"); got != Allow {
		t.Errorf("revoke removed the flag's own identical rule: git status is %s", got)
	}
}
