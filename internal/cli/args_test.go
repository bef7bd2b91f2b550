package cli

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestNormaliseArgsGivesRuleFlagsEveryRuleArgument(t *testing.T) {
	cases := []struct{ in, want string }{
		{`--allowedTools|Bash(git log *)|Read|-p|hi`, `--allowedTools|Bash(git log *)|--allowedTools=Read|-p|hi`},
		{`-p|fix it|--disallowedTools|Bash(rm *)|Read(./.env)`, `-p|fix it|--disallowedTools|Bash(rm *)|--disallowedTools=Read(./.env)`},
		{`--allowedTools|Bash|check the env`, `--allowedTools|Bash|check the env`},
		{`--allowedTools|Bash|Check the env`, `--allowedTools|Bash|Check the env`},
		{`--allowedTools|Bash|mcp__srv__tool,WebFetch(domain:x.dev)`, `--allowedTools|Bash|--allowedTools=mcp__srv__tool,WebFetch(domain:x.dev)`},
		{`--allowedTools|Bash|Bash(unclosed`, `--allowedTools|Bash|Bash(unclosed`},
		{`--tools||hello world`, `--tools||hello world`},
		{`--allowedTools=Bash|Read`, `--allowedTools=Bash|Read`},
		{`--resume|abc-123|-p|x`, `--resume=abc-123|-p|x`},
	}
	for _, tc := range cases {
		got := strings.Join(normaliseArgs(strings.Split(tc.in, "|")), "|")
		if got != tc.want {
			t.Errorf("normaliseArgs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestNormaliseArgsTakesSeveralAddDirFolders(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	cases := []struct{ in, want string }{
		{`--add-dir|` + a + `|` + b + `|-p|hi`, `--add-dir|` + a + `|--add-dir=` + b + `|-p|hi`},
		{`--add-dir|` + a + `|fix the bug`, `--add-dir|` + a + `|fix the bug`},
		{`--add-dir|` + a + `|` + b + `|no-such-folder`, `--add-dir|` + a + `|--add-dir=` + b + `|no-such-folder`},
	}
	for _, tc := range cases {
		got := strings.Join(normaliseArgs(strings.Split(tc.in, "|")), "|")
		if got != tc.want {
			t.Errorf("normaliseArgs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestSubcommandNamesListsEverySubcommand: the names a run checks before
// building the subcommands are those of the subcommands, and a run that
// names one, or asks for help, gets them.
func TestSubcommandNamesListsEverySubcommand(t *testing.T) {
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	var names []string
	for _, c := range subcommands(env) {
		names = append(names, c.Name())
	}
	if !slices.Equal(names, subcommandNames) {
		t.Errorf("subcommands are %q, subcommandNames %q", names, subcommandNames)
	}
	for _, args := range [][]string{{"mcp", "list"}, {"sessions"}, {"--help"}, {"-p", "x", "-h"}, {"help"}} {
		if !needsSubcommands(args) {
			t.Errorf("needsSubcommands(%q) = false", args)
		}
	}
	for _, args := range [][]string{{"-p", "explain mcp"}, {}, {"fix the sessions list"}} {
		if needsSubcommands(args) {
			t.Errorf("needsSubcommands(%q) = true", args)
		}
	}
	var out strings.Builder
	if code := Main(context.Background(), []string{"--help"}, strings.NewReader(""), &out, io.Discard); code != 0 || !strings.Contains(out.String(), "sessions") {
		t.Errorf("--help (code %d) does not list the subcommands:\n%s", code, out.String())
	}
}

// TestNormaliseArgsTakesDebugFilters: Claude Code's --debug takes an
// optional category filter; it is dropped (the log has every category)
// so it neither becomes the prompt nor fails as a bool, while a bool
// value and a prompt after --debug are kept.
func TestNormaliseArgsTakesDebugFilters(t *testing.T) {
	cases := []struct{ in, want string }{
		{`--debug|api,hooks|-p|hi`, `--debug|-p|hi`},
		{`-p|hi|--debug=api`, `-p|hi|--debug`},
		{`-d|!statsig,!file|-p|hi`, `-d|-p|hi`},
		{`--debug|mcp|-p|hi`, `--debug|-p|hi`},
		{`--debug=false|-p|hi`, `--debug=false|-p|hi`},
		{`--debug=0|-p|hi`, `--debug=0|-p|hi`},
		{`-p|--debug|fix the bug`, `-p|--debug|fix the bug`},
		{`-p|--debug|Explain`, `-p|--debug|Explain`},
	}
	for _, tc := range cases {
		got := strings.Join(normaliseArgs(strings.Split(tc.in, "|")), "|")
		if got != tc.want {
			t.Errorf("normaliseArgs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// In print mode a name of several words after --resume (a /rename title)
// is the session to resume when a prompt follows it, as Claude Code's
// optional --resume value takes the next word; a lone prompt stays the
// prompt.
func TestNormaliseArgsTakesAResumeNameBeforeThePrompt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-p|-r|auth work|go on", "-p|--resume=auth work|go on"},
		{"--print|--resume|auth work|go on", "--print|--resume=auth work|go on"},
		{"-p|-r|go on from there", "-p|-r|go on from there"},
		{"-r|auth work|go on", "-r|auth work|go on"},
		{"-p|-r|auth work|--model|x", "-p|-r|auth work|--model|x"},
	} {
		got := strings.Join(normaliseArgs(strings.Split(tc.in, "|")), "|")
		if got != tc.want {
			t.Errorf("normaliseArgs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
