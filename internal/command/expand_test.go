package command

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func expandBody(t *testing.T, e *Expander, c *Command, args string) string {
	t.Helper()
	if c.Kind != Prompt {
		t.Fatalf("test command must be a prompt command")
	}
	x, err := e.Expand(context.Background(), c, args)
	if err != nil {
		t.Fatalf("Expand: %v", err)
	}
	return x.Prompt
}

func TestExpandPlaceholders(t *testing.T) {
	tests := []struct {
		name, body, args, want string
	}{
		{"arguments", "Do $ARGUMENTS now", "  the thing  ", "Do the thing now"},
		{"positions count from zero", "$1-$0", "a 'b c'", "b c-a"},
		{"a missing position stays as written", "$0 [$2] [$ARGUMENTS[5]]", "a b", "a [$2] [$ARGUMENTS[5]]"},
		{"indexed arguments", "$ARGUMENTS[1]/$ARGUMENTS[0]", "a 'b c'", "b c/a"},
		{"two digits", "$10 $0", "x", "$10 x"},
		{"a digit followed by a letter is not a placeholder", "cost $0x and $", "x", "cost $0x and $\n\nARGUMENTS: x"},
		{"dollar alone", "cost $ and $", "x", "cost $ and $\n\nARGUMENTS: x"},
		{"bad index is the whole arguments", "$ARGUMENTS[x]", "a b", "a b[x]"},
		{"no placeholder appends", "Body", "a b", "Body\n\nARGUMENTS: a b"},
		{"no placeholder, no args", "Body", "", "Body"},
		{"placeholder with empty args", "[$ARGUMENTS]", "", "[]"},
		{"argument text is not rescanned", "$ARGUMENTS", "$1 !`rm x` @secret", "$1 !`rm x` @secret"},
		{"word text is not rescanned", "$0", "'$1 $ARGUMENTS'", "$1 $ARGUMENTS"},
		{"skill dir only in skills", "${CLAUDE_SKILL_DIR}", "", "${CLAUDE_SKILL_DIR}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Command{Name: "x", Body: tt.body}
			if got := expandBody(t, &Expander{Dir: t.TempDir()}, c, tt.args); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExpandShellLines(t *testing.T) {
	run := &fakeRunner{answers: map[string]RunResult{
		"echo hi":     {Stdout: "hi\n"},
		"git log -1":  {Stdout: "commit abc\n\n", Stderr: "warn\n", ExitCode: 0},
		"false":       {ExitCode: 1},
		"make lint":   {Stdout: "bad\n", ExitCode: 2},
		"git show v1": {Stdout: "v1 notes"},
		"big":         {Stdout: strings.Repeat("é", 20)},
	}}
	tests := []struct {
		name, body, args string
		tools            []string
		runner           Runner
		want             string
	}{
		{"output replaces the line", "A !`echo hi` B", "", []string{"Bash(echo:*)"}, run, "A hi B"},
		{"stderr follows stdout", "!`git log -1`", "", []string{"Bash(git log:*)"}, run, "commit abc\nwarn"},
		{"failure shows exit status", "!`false`", "", []string{"Bash"}, run, "[exit status 1]"},
		{"failure after output", "!`make lint`", "", []string{"Bash(make lint)"}, run, "bad\n[exit status 2]"},
		{"placeholders inside the command", "!`git show $0`", "v1", []string{"Bash(git show:*)"}, run, "v1 notes"},
		{"not permitted", "!`echo hi`", "", []string{"Read"}, run, "[!`echo hi` not run: neither this command's allowed-tools nor the permission rules allow it]"},
		{"no allowed-tools", "!`echo hi`", "", nil, run, "[!`echo hi` not run: neither this command's allowed-tools nor the permission rules allow it]"},
		{"no runner", "!`echo hi`", "", []string{"Bash"}, nil, "[!`echo hi` not run: shell commands are not available here]"},
		{"runner error", "!`unknown`", "", []string{"Bash"}, run, "[!`unknown` failed: fake runner: unexpected command \"unknown\"]"},
		{"bang inside a word is text", "Hello!`echo hi`", "", []string{"Bash"}, run, "Hello!`echo hi`"},
		{"empty backticks are text", "!`` x", "", []string{"Bash"}, run, "!`` x"},
		{"unclosed is text", "!`echo hi\n`", "", []string{"Bash"}, run, "!`echo hi\n`"},
		{"in parentheses", "(!`echo hi`)", "", []string{"Bash"}, run, "(hi)"},
		{"output is cut at the limit", "!`big`", "", []string{"Bash"}, run, strings.Repeat("é", 10) + "\n[output truncated: 20 more bytes]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Expander{Dir: t.TempDir(), Runner: tt.runner, MaxOutputChars: 21}
			if tt.runner == nil {
				e.Runner = nil
			}
			c := &Command{Name: "x", Body: tt.body, AllowedTools: tt.tools}
			if got := expandBody(t, e, c, tt.args); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExpandUsesThePluggedChecker(t *testing.T) {
	var asked []string
	e := &Expander{
		Dir:    t.TempDir(),
		Runner: &fakeRunner{answers: map[string]RunResult{"ls": {Stdout: "a"}}},
		AllowBash: func(tools []string, cmd string) bool {
			asked = append(asked, strings.Join(tools, ",")+"|"+cmd)
			return cmd == "ls"
		},
	}
	got := expandBody(t, e, &Command{Name: "x", Body: "!`ls` !`rm -rf x`", AllowedTools: []string{"Bash(ls)"}}, "")
	if want := "a [!`rm -rf x` not run: neither this command's allowed-tools nor the permission rules allow it]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if want := "Bash(ls)|ls Bash(ls)|rm -rf x"; strings.Join(asked, " ") != want {
		t.Errorf("checker saw %q, want %q", strings.Join(asked, " "), want)
	}
}

func TestExpandStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := &Expander{Dir: t.TempDir(), Runner: &fakeRunner{answers: map[string]RunResult{"ls": {}}}}
	_, err := e.Expand(ctx, &Command{Name: "x", Body: "!`ls`", AllowedTools: []string{"Bash"}}, "")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Expand error = %v, want context.Canceled", err)
	}
}

func TestExpandFileMentions(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "a.txt"), "alpha\n")
	write(filepath.Join(dir, "my notes.md"), "spaced")
	write(filepath.Join(dir, "bin.dat"), "ab\x00cd")
	write(filepath.Join(dir, "big.txt"), "0123456789abcdef")
	write(filepath.Join(dir, "sub", "b.txt"), "")
	write(filepath.Join(outside, "secret.txt"), "secret")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	write(filepath.Join(home, "h.txt"), "home file")

	tests := []struct {
		name, body, args, want string
	}{
		{"file with trailing punctuation", "Read @a.txt.", "", "Read @a.txt.\n\n<file path=\"a.txt\">\nalpha\n</file>"},
		{"quoted path", `See @"my notes.md"`, "", "See @\"my notes.md\"\n\n<file path=\"my notes.md\">\nspaced\n</file>"},
		{"placeholder in path", "Open @$0", "a.txt", "Open @a.txt\n\n<file path=\"a.txt\">\nalpha\n</file>"},
		{"empty arguments placeholder leaves @", "Open @$ARGUMENTS now", "", "Open @ now"},
		{"missing", "@nope.md", "", "@nope.md\n\n[@nope.md not included: no such file or folder]"},
		{"folder", "@sub", "", "@sub\n\n<folder path=\"sub\">\nb.txt\n</folder>"},
		{"empty file", "@sub/b.txt", "", "@sub/b.txt\n\n<file path=\"sub/b.txt\">\n</file>"},
		{"binary", "@bin.dat", "", "@bin.dat\n\n[@bin.dat not included: it is a binary file]"},
		{"truncated", "@big.txt", "", "@big.txt\n\n<file path=\"big.txt\">\n0123456789\n[truncated: the first 10 of 16 bytes are shown]\n</file>"},
		{"outside by dots", "@../x.txt", "", "@../x.txt\n\n[@../x.txt not included: it is outside the working folder]"},
		{"outside by symlink", "@link.txt", "", "@link.txt\n\n[@link.txt not included: it is outside the working folder]"},
		{"outside absolute", "@" + filepath.Join(outside, "secret.txt"), "", "@" + filepath.Join(outside, "secret.txt") + "\n\n[@" + filepath.Join(outside, "secret.txt") + " not included: it is outside the working folder]"},
		{"email is text", "mail me@a.txt", "", "mail me@a.txt"},
		{"code span is text", "use `@a.txt`", "", "use `@a.txt`"},
		{"each file once", "@a.txt @a.txt", "", "@a.txt @a.txt\n\n<file path=\"a.txt\">\nalpha\n</file>"},
		{"files after ARGUMENTS", "@a.txt", "extra", "@a.txt\n\nARGUMENTS: extra\n\n<file path=\"a.txt\">\nalpha\n</file>"},
		{"home outside by default", "@~/h.txt", "", "@~/h.txt\n\n[@~/h.txt not included: it is outside the working folder]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Expander{Dir: dir, Home: home, MaxFileChars: 10}
			if got := expandBody(t, e, &Command{Name: "x", Body: tt.body}, tt.args); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	t.Run("AllowRead widens", func(t *testing.T) {
		e := &Expander{Dir: dir, Home: home, AllowRead: func(string) bool { return true }}
		want := "@~/h.txt\n\n<file path=\"~/h.txt\">\nhome file\n</file>"
		if got := expandBody(t, e, &Command{Name: "x", Body: "@~/h.txt"}, ""); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("a skill may include its own files", func(t *testing.T) {
		e := &Expander{Dir: dir}
		c := &Command{Name: "s", Skill: true, Dir: outside, Body: "@" + filepath.Join(outside, "secret.txt")}
		got := expandBody(t, e, c, "")
		if !strings.Contains(got, "<file path=\""+filepath.Join(outside, "secret.txt")+"\">\nsecret\n</file>") {
			t.Errorf("skill file not included:\n%s", got)
		}
	})
}

func TestExpandRefusesOtherKindsAndReportsPromptErrors(t *testing.T) {
	e := &Expander{}
	if _, err := e.Expand(context.Background(), &Command{Name: "clear", Kind: Local}, ""); err == nil || err.Error() != "expand /clear: it is a local command, not a prompt command" {
		t.Errorf("Expand(local) error = %v", err)
	}
	c := &Command{Name: "init", Prompt: func(context.Context, string) (string, error) { return "", errors.New("no project") }}
	if _, err := e.Expand(context.Background(), c, ""); err == nil || err.Error() != "expand /init: no project" {
		t.Errorf("Expand(failing prompt) error = %v", err)
	}
}

func TestExpansionCarriesTurnSettings(t *testing.T) {
	c := &Command{Name: "review", Body: "r", AllowedTools: []string{"Read"}, Model: "haiku"}
	x, err := (&Expander{}).Expand(context.Background(), c, " a ")
	if err != nil {
		t.Fatal(err)
	}
	if x.Model != "haiku" || len(x.AllowedTools) != 1 || x.Args != "a" {
		t.Errorf("expansion = %+v", x)
	}
	blocks := x.Content()
	if len(blocks) != 2 || blocks[0].Text != "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>a</command-args>" || blocks[1].Text != "r\n\nARGUMENTS: a" {
		t.Errorf("Content = %+v", blocks)
	}
}

func TestAllowedBashIsStrict(t *testing.T) {
	tests := []struct {
		rules []string
		cmd   string
		want  bool
	}{
		{[]string{"Bash"}, "anything && at all", true},
		{[]string{"Bash(*)"}, "x | y", true},
		{[]string{"Bash(git status)"}, "git status", true},
		{[]string{"Bash(git status)"}, "git status -s", false},
		{[]string{"Bash(git diff:*)"}, "git diff", true},
		{[]string{"Bash(git diff:*)"}, "git diff --stat HEAD", true},
		{[]string{"Bash(git diff:*)"}, "git difftool", false},
		{[]string{"Bash(git diff *)"}, "git diff x", true},
		{[]string{"Bash(npm run*)"}, "npm run-script x", true},
		{[]string{"Bash(git status:*)"}, "git status && rm -rf /", false},
		{[]string{"Bash(git status:*)"}, "git status; rm x", false},
		{[]string{"Bash(echo:*)"}, "echo $(whoami)", false},
		{[]string{"Bash(echo:*)"}, "echo `whoami`", false},
		{[]string{"Bash(echo:*)"}, "echo hi > f", false},
		{[]string{"Bash(echo:*)"}, "echo a\nrm x", false},
		{[]string{"Read", "Grep"}, "ls", false},
		{nil, "ls", false},
		{[]string{"Bash"}, "  ", false},
	}
	for _, tt := range tests {
		if got := AllowedBash(tt.rules, tt.cmd); got != tt.want {
			t.Errorf("AllowedBash(%q, %q) = %v, want %v", tt.rules, tt.cmd, got, tt.want)
		}
	}
}
