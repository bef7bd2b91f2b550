package permission

import (
	"strings"
	"testing"
)

// A Bash command that reads a whole folder (grep -r, rg, cp -r) counts as
// reading the files under it that Read deny and ask rules cover, as a
// Grep of that folder leaves them out: "grep -r KEY ." printed the
// denied .env.
func TestQA8WholeFolderReadsMeetReadDenyRules(t *testing.T) {
	w := newWorld(t)
	for _, c := range []permCase{
		{name: "grep -r over the project", deny: []string{"Read(./.env)"}, cmd: "grep -r KEY .", want: Deny, why: ".env"},
		{name: "grep -rn without a folder", deny: []string{"Read(./secrets/**)"}, cmd: "grep -rn KEY", want: Deny, why: "secrets"},
		{name: "grep --recursive", deny: []string{"Read(./secrets/**)"}, cmd: "grep --recursive KEY src ..", want: Deny},
		{name: "grep -d recurse", deny: []string{"Read(./.env)"}, cmd: "grep -d recurse KEY .", want: Deny},
		{name: "grep -r of a folder without denied files", deny: []string{"Read(./.env)", "Read(./secrets/**)"}, cmd: "grep -r KEY src", want: Allow},
		{name: "plain grep of a file", deny: []string{"Read(./.env)"}, cmd: "grep KEY README.md", want: Allow},
		{name: "rg skips hidden files", deny: []string{"Read(./.env)"}, cmd: "rg KEY", want: Allow},
		{name: "rg --hidden", deny: []string{"Read(./.env)"}, cmd: "rg --hidden KEY", want: Deny},
		{name: "rg -uu", deny: []string{"Read(./.env)"}, cmd: "rg -uu KEY .", want: Deny},
		{name: "rg of the project", deny: []string{"Read(./secrets/**)"}, cmd: "rg KEY .", want: Deny},
		{name: "ask rule asks", ask: []string{"Read(./secrets/**)"}, cmd: "grep -R KEY .", want: Ask, why: "secrets"},
		{name: "cp -r copies the denied file", deny: []string{"Read(.env)"}, cmd: "cp -r . src/backup", want: Deny, why: ".env"},
		{name: "no read rules", cmd: "grep -r KEY .", want: Allow},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := w.policy(c)
			r := w.request(p, c)
			r.ResolveTrees(p, p.Cwd, p.Home)
			d := Decide(p, r)
			if d.Behavior != c.want {
				t.Fatalf("Decide = %s (%s), want %s", d.Behavior, d.Reason, c.want)
			}
			if c.why != "" && !strings.Contains(d.Reason, c.why) {
				t.Errorf("reason %q does not mention %q", d.Reason, c.why)
			}
		})
	}
}
