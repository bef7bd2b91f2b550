package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Commands written for Claude Code name arguments in frontmatter
// (arguments:) and use them as $name; the session id is
// ${CLAUDE_SESSION_ID}.
func TestExpandNamedArgumentsAndSessionID(t *testing.T) {
	tests := []struct {
		name, body, args, want string
		names                  []string
	}{
		{"names map to positions", "Fix $issue on $branch", "42 hotfix", "Fix 42 on hotfix", []string{"issue", "branch"}},
		{"a name with a dash", "Rename $old-name to $new-name", "A B", "Rename A to B", []string{"old-name", "new-name"}},
		{"the longest name wins", "$id $idx", "1 2", "1 2", []string{"id", "idx"}},
		{"a missing argument stays as written", "Fix $issue on $branch", "42", "Fix 42 on $branch", []string{"issue", "branch"}},
		{"undeclared names stay", "$HOME $issue", "7", "$HOME 7", []string{"issue"}},
		{"a name inside a longer word is not a placeholder", "$issues", "7", "$issues\n\nARGUMENTS: 7", []string{"issue"}},
		{"session id", "log ${CLAUDE_SESSION_ID}", "", "log sess-1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Command{Name: "x", Body: tt.body, ArgumentNames: tt.names}
			e := &Expander{Dir: t.TempDir(), SessionID: func() string { return "sess-1" }}
			if got := expandBody(t, e, c, tt.args); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLoadReadsArgumentNames(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("commands/list.md", "---\narguments: [issue, branch]\n---\n$issue $branch\n")
	write("commands/words.md", "---\narguments: old-name new-name\n---\n$old-name\n")
	write("skills/bad/SKILL.md", "---\narguments: [ok, 9lives, \"a b\"]\n---\n$ok\n")
	cmds, errs := Load(Roots{Project: []string{root}})
	got := map[string]string{}
	for _, c := range cmds {
		got[c.Name] = strings.Join(c.ArgumentNames, ",")
	}
	want := map[string]string{"list": "issue,branch", "words": "old-name,new-name", "bad": "ok,a,b"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: argument names %q, want %q", k, got[k], v)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "9lives") || !strings.Contains(errs[0].Error(), "SKILL.md") {
		t.Errorf("errors = %v, want one naming 9lives and the file", errs)
	}
}

func TestExpandLeavesOutFilesDenyReadRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"secret.txt": "S3CRET", "open.txt": "OPEN"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := &Expander{Dir: dir, DenyRead: func(p string) bool { return filepath.Base(p) == "secret.txt" }}
	got := expandBody(t, e, &Command{Name: "x", Body: "@secret.txt @open.txt"}, "")
	want := "@secret.txt @open.txt\n\n[@secret.txt not included: a permission rule denies reading it]\n\n<file path=\"open.txt\">\nOPEN\n</file>"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
