package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/engine"
)

func choiceSummary(cs []permChoice) []string {
	var out []string
	for _, c := range cs {
		s := c.label
		for _, u := range c.updates {
			s += " => " + u.Type + " " + u.Destination + " " + u.Behavior + " " + u.Mode + " " + strings.Join(u.Rules, ",") + strings.Join(u.Directories, ",")
		}
		out = append(out, s)
	}
	return out
}

// An edit inside the working folders is remembered as Claude Code does:
// accept-edits mode for the session. The dialog used to offer "always
// allow Edit", which saved a bare Edit rule to .claude/settings.local.json
// and so allowed every later edit anywhere on disk.
func TestQA6EditDialogOffersAcceptEditsNotABareEditRule(t *testing.T) {
	q := engine.Question{ToolName: "Edit", Input: json.RawMessage(`{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`),
		Suggestions: []engine.Suggestion{{Type: "setMode", Mode: "acceptEdits", Destination: "session"}}}
	got := choiceSummary(permissionChoices(q, ruleFor(q), func(s string) string { return s }))
	want := []string{
		"Yes",
		"Yes, allow all edits during this session (shift+tab) => setMode session  acceptEdits ",
		"No, and tell reins what to do differently",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("choices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An edit the gate suggests nothing for (a protected file, an ask rule)
// offers no rule to remember.
func TestQA6EditDialogWithoutSuggestionOffersNoRule(t *testing.T) {
	q := engine.Question{ToolName: "Write", Input: json.RawMessage(`{"file_path":"/p/.git/config","content":"x"}`)}
	got := choiceSummary(permissionChoices(q, ruleFor(q), func(s string) string { return s }))
	if strings.Join(got, "|") != "Yes|No, and tell reins what to do differently" {
		t.Fatalf("choices: %q", got)
	}
}

// A read outside the working folders offers that folder for the session,
// not a rule allowing every read.
func TestQA6ReadOutsideOffersTheFolderForTheSession(t *testing.T) {
	q := engine.Question{ToolName: "Read", Input: json.RawMessage(`{"file_path":"/etc/hosts"}`),
		Suggestions: []engine.Suggestion{{Type: "addDirectories", Directories: []string{"/etc"}, Destination: "session"}}}
	got := choiceSummary(permissionChoices(q, ruleFor(q), func(s string) string { return s }))
	want := "Yes|Yes, and add /etc to the working folders for this session => addDirectories session   /etc|No, and tell reins what to do differently"
	if strings.Join(got, "|") != want {
		t.Fatalf("choices: %q", got)
	}
}

// A command keeps its session and saved rule choices, with the gate's rule.
func TestQA6BashDialogRemembersTheSuggestedRule(t *testing.T) {
	q := engine.Question{ToolName: "Bash", Input: json.RawMessage(`{"command":"npm test -- --watch=false"}`),
		Suggestions: []engine.Suggestion{{Type: "addRules", Rules: []string{"Bash(npm test *)"}, Behavior: "allow", Destination: "localSettings"}}}
	got := choiceSummary(permissionChoices(q, ruleFor(q), func(s string) string { return s }))
	want := []string{
		"Yes",
		"Yes, and don't ask again this session for Bash(npm test *) => addRules session allow  Bash(npm test *)",
		"Yes, and always allow Bash(npm test *) (saved in .claude/settings.local.json) => addRules localSettings allow  Bash(npm test *)",
		"No, and tell reins what to do differently",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("choices:\n%s", strings.Join(got, "\n"))
	}
	// An MCP tool with no suggestion still offers its own name as the rule.
	q = engine.Question{ToolName: "mcp__db__query", Input: json.RawMessage(`{}`)}
	got = choiceSummary(permissionChoices(q, ruleFor(q), func(s string) string { return s }))
	if len(got) != 4 || !strings.HasSuffix(got[2], "addRules localSettings allow  mcp__db__query") {
		t.Fatalf("choices: %q", got)
	}
}

// /help lines the descriptions up in one column, wraps a long one under
// itself, and gives a label too long for the column its own line.
func TestQA6HelpDescriptionsLineUpAndWrapUnderThemselves(t *testing.T) {
	items := []compItem{
		{label: "/clear", desc: "Start a new conversation"},
		{label: "/compact [instructions]", desc: "Summarise the conversation to free context"},
		{label: "/effort [low|medium|high|xhigh|max|auto]", desc: "Show or change the effort level for the rest of the session"},
	}
	got := helpCommands(items, 60)
	want := "" +
		"  /clear                   Start a new conversation\n" +
		"  /compact [instructions]  Summarise the conversation to\n" +
		"                           free context\n" +
		"  /effort [low|medium|high|xhigh|max|auto]\n" +
		"                           Show or change the effort level\n" +
		"                           for the rest of the session\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
