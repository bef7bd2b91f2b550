package command

import (
	"context"
	"strings"
	"testing"
)

func FuzzExpandTemplate(f *testing.F) {
	for _, s := range []string{"Do $ARGUMENTS", "$1 $2 $10", "!`ls` (@a) @\"b c\"", "@", "!`", "${CLAUDE_SKILL_DIR}", "x@y !``"} {
		f.Add(s, "a 'b c'")
	}
	f.Fuzz(func(t *testing.T, body, args string) {
		dir := t.TempDir()
		e := &Expander{Dir: dir, Runner: &fakeRunner{answers: map[string]RunResult{}}, AllowBash: func([]string, string) bool { return true }}
		x, err := e.Expand(context.Background(), &Command{Name: "f", Body: body, Skill: true, Dir: dir}, args)
		if err != nil {
			t.Fatalf("Expand: %v", err)
		}
		if !strings.ContainsAny(body, "$!@") && strings.TrimSpace(args) == "" && !strings.HasSuffix(x.Prompt, body) {
			t.Fatalf("a template without placeholders changed: %q -> %q", body, x.Prompt)
		}
	})
}
