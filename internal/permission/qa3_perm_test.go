package permission

import (
	"encoding/json"
	"slices"
	"strings"
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

// A glob in a command is checked against the files it matches, not only
// the folder it expands in: "cat secr*/key" is denied by a deny rule for
// secrets/, as "cat secrets/key" is, and "rm -rf .gi?" asks as "rm -rf
// .git" does; a glob that (as in bash) does not match dot files leaves a
// denied .env alone.
func TestQAPermsGlobInCommandIsCheckedAgainstItsMatches(t *testing.T) {
	w := newWorld(t)
	for _, c := range []permCase{
		{name: "glob in the folder name", deny: []string{"Read(./secrets/**)"}, cmd: "cat secr*/key", want: Deny, why: "secrets/key"},
		{name: "glob matching a denied file", deny: []string{"Read(./.env)"}, cmd: "cat .e*", want: Deny, why: ".env"},
		{name: "glob in a redirection source", deny: []string{"Read(./secrets/**)"}, cmd: "wc -l < secret?/key", want: Deny},
		{name: "star leaves dot files out", deny: []string{"Read(./.env)"}, cmd: "cat *env", want: Allow},
		{name: "star follows symlinks out of the project", cmd: "cat *", want: Ask, why: "outside"},
		{name: "glob removing .git asks in acceptEdits", mode: ModeAcceptEdits, cmd: "rm -rf .gi?", want: Ask, why: ".git"},
		{name: "glob redirect into a start-up file asks", allow: []string{"Bash(echo:*)"}, cmd: "echo x >> .bash?c", want: Ask, why: ".bashrc"},
		{name: "glob reaching out of the project asks", cmd: "cat ../out*/file", want: Ask, why: "outside"},
		{name: "glob matching nothing denied", deny: []string{"Read(./secrets/**)"}, cmd: "cat src/*.go", want: Allow},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := w.policy(c)
			d := Decide(p, w.request(p, c))
			if d.Behavior != c.want || !strings.Contains(d.Reason, c.why) {
				t.Errorf("Decide = %s (%s), want %s mentioning %q", d.Behavior, d.Reason, c.want, c.why)
			}
		})
	}
}
