package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A project settings file whose allow list is written as a string (and
// whose defaultMode has a typo) still applies its deny rules: the secret
// stays unread, and the warning names the file, position and field.
func TestQAPermsMistypedAllowListDoesNotDropDenyRules(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "cat secrets/key"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "secrets/key", "TOPSECRET")
	file := sb.Write(t, ".claude/settings.json", `{
  "permissions": {
    "deny": ["Read(./secrets/**)"],
    "allow": "Bash(npm test)",
    "defaultMode": "acceptEdit"
  }
}`)
	r := sb.Run(t, "", "-p", "show me the key")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for _, want := range []string{file + ":4:14: setting permissions.allow", file + `:5:20: setting permissions.defaultMode: unknown mode "acceptEdit"`} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q does not contain %q", r.Stderr, want)
		}
	}
	got := srv.Requests()[1].LastUserText()
	if strings.Contains(got, "TOPSECRET") || !strings.Contains(got, "deny rule Read(./secrets/**)") {
		t.Errorf("tool result = %q, want the deny rule to refuse the read", got)
	}
}
