package permission

import (
	"encoding/json"
	"slices"
	"testing"
)

// Permission updates are written with Claude Code's rule objects and read
// in either that shape or as rule strings.
func TestQAPermsUpdateJSONUsesClaudeCodeRuleObjects(t *testing.T) {
	u := Update{Type: UpdateAddRules, Rules: []string{"Bash(npm run test:*)", "WebSearch", `Bash(python3 -c "print\(1\)")`}, Behavior: Allow, Destination: DestLocal}
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm run test:*"},{"toolName":"WebSearch"},{"toolName":"Bash","ruleContent":"python3 -c \"print(1)\""}],"behavior":"allow","destination":"localSettings"}`
	if string(b) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", b, want)
	}
	var back Update
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Rules, u.Rules) || back.Type != u.Type || back.Behavior != u.Behavior || back.Destination != u.Destination {
		t.Errorf("round trip = %+v, want %+v", back, u)
	}
	var mixed []Update
	if err := json.Unmarshal([]byte(`[{"type":"addRules","rules":["Read(./docs/**)",{"toolName":"mcp__github"}],"behavior":"deny","destination":"session"},{"type":"setMode","mode":"acceptEdits","destination":"session"}]`), &mixed); err != nil {
		t.Fatal(err)
	}
	if len(mixed) != 2 || !slices.Equal(mixed[0].Rules, []string{"Read(./docs/**)", "mcp__github"}) || mixed[1].Mode != ModeAcceptEdits {
		t.Errorf("mixed = %+v", mixed)
	}
	if err := json.Unmarshal([]byte(`{"type":"addRules","rules":[42]}`), &back); err == nil {
		t.Error("a rule that is a number was accepted")
	}
}
