package hooks

import (
	"strings"
	"testing"
)

func TestWorktreeCreatePathIsTheLastNonEmptyLineWithoutColourCodes(t *testing.T) {
	r := Aggregate(WorktreeCreate, []Output{{Name: "mk", Stdout: "Preparing…\n\x1b[1;32m/tmp/copies/feat\x1b[0m\n\n"}})
	if r.WorktreePath != "/tmp/copies/feat" || len(r.Errors) != 0 {
		t.Errorf("WorktreePath %q, errors %v", r.WorktreePath, r.Errors)
	}
}

func TestWorktreeCreatePathFromHookSpecificOutputAndFirstHookWins(t *testing.T) {
	r := Aggregate(WorktreeCreate, []Output{
		{Name: "http", Stdout: `{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/srv/a"}}`},
		{Name: "cmd", Stdout: "/srv/b\n"},
	})
	if r.WorktreePath != "/srv/a" {
		t.Errorf("WorktreePath %q; want the first hook's /srv/a", r.WorktreePath)
	}
}

func TestWorktreeEventsSendTheirFieldsAndTakeNoMatcher(t *testing.T) {
	in := Input{Event: WorktreeCreate, Name: "feat"}
	if s := string(in.JSON()); !strings.Contains(s, `"name":"feat"`) {
		t.Errorf("WorktreeCreate input %s", s)
	}
	in = Input{Event: WorktreeRemove, WorktreePath: "/w/feat"}
	if s := string(in.JSON()); !strings.Contains(s, `"worktree_path":"/w/feat"`) {
		t.Errorf("WorktreeRemove input %s", s)
	}
	r := New(Config{Hooks: nil})
	r.Add(Hook{Event: WorktreeCreate, Matcher: "something-else", Handler: nil})
	if got := r.Matching(&Input{Event: WorktreeCreate, Name: "feat"}); len(got) != 1 {
		t.Errorf("a WorktreeCreate hook with a matcher did not run (Claude Code ignores matchers there): %d", len(got))
	}
}

func TestFileChangedMatchersAreLiteralFileNames(t *testing.T) {
	for _, c := range []struct {
		matcher, base string
		want          bool
	}{
		{".envrc|.env", ".env", true},
		{".envrc|.env", ".envrc", true},
		{".env", ".envrc", false},
		{"package.js", "package.json", false},
		{"", "anything", true},
		{"*", "x.txt", false}, // a file named "*"
		{"*", "*", true},
	} {
		if got := matchesFile(c.matcher, c.base); got != c.want {
			t.Errorf("matchesFile(%q, %q) = %v, want %v", c.matcher, c.base, got, c.want)
		}
	}
}

func TestWatchPathsKeepAbsolutePathsOnce(t *testing.T) {
	r := Aggregate(SessionStart, []Output{
		{Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","watchPaths":["/p/.env","relative.txt"]}}`},
		{Stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","watchPaths":["/p/.env","/p/b"]}}`},
	})
	if strings.Join(r.WatchPaths, ",") != "/p/.env,/p/b" {
		t.Errorf("WatchPaths %v", r.WatchPaths)
	}
}

func TestDeferRanksBetweenAskAndDeny(t *testing.T) {
	out := func(d string) Output {
		return Output{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + d + `"}}`}
	}
	if r := Aggregate(PreToolUse, []Output{out("allow"), out("defer"), out("ask")}); r.Decision != DecisionDefer || len(r.Errors) != 0 {
		t.Errorf("allow+defer+ask = %q %v; want defer", r.Decision, r.Errors)
	}
	if r := Aggregate(PreToolUse, []Output{out("defer"), out("deny")}); r.Decision != DecisionDeny {
		t.Errorf("defer+deny = %q; want deny", r.Decision)
	}
}

// FuzzLastLine: the path read from a WorktreeCreate hook's stdout is one
// line, trimmed, with no escape character left of a colour code.
func FuzzLastLine(f *testing.F) {
	for _, s := range []string{"", "/a\n", "x\n\x1b[1;32m/p\x1b[0m\n\n", "\x1b]0;title\x07/t", "\x1b", "a\r\nb\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		l := lastLine(out)
		if strings.ContainsAny(l, "\n") || l != strings.TrimSpace(l) {
			t.Errorf("lastLine(%q) = %q", out, l)
		}
		if !strings.Contains(out, "\x1b") && l != "" && !strings.Contains(out, l) {
			t.Errorf("lastLine(%q) = %q, not a line of it", out, l)
		}
	})
}
