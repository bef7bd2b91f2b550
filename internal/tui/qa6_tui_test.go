package tui

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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

// The rows a rewrapping terminal adds above the cursor when it narrows:
// each row wider than the new width wraps, blank rows do not.
func TestQA6RewrapRowsCountsTheRowsAboveTheCursor(t *testing.T) {
	f := drawnFrame{width: 100, rows: []int{98, 74, 30, 100, 40, 100, 30}, cursor: true, cx: 2, cy: 4}
	for _, c := range []struct{ width, want int }{
		{100, 0}, {120, 0}, {60, 3}, {40, 2 + 1 + 2}, {30, 3 + 2 + 0 + 3},
	} {
		if got := f.rewrapRows(c.width); got != c.want {
			t.Errorf("at %d columns: %d rows, want %d", c.width, got, c.want)
		}
	}
	// The cursor's own row counts the rows before its column.
	f = drawnFrame{width: 100, rows: []int{100, 90}, cursor: true, cx: 70, cy: 1}
	if got := f.rewrapRows(60); got != 1+1 {
		t.Errorf("cursor at column 70: %d rows, want 2", got)
	}
	// No cursor shown, or the alternate screen: nothing is known.
	for _, g := range []drawnFrame{{width: 100, rows: []int{100, 1}, cy: 1}, {width: 100, rows: []int{100, 1}, cursor: true, cy: 1, altScreen: true}} {
		if n := g.rewrapRows(50); n != 0 {
			t.Errorf("%+v: %d rows, want 0", g, n)
		}
	}
}

// The filter hands a narrowing on only after the cursor-up, and passes a
// widening straight through. A size that arrives meanwhile replaces the
// one handed on, and the cursor follows it.
func TestQA6RewrapFilterMovesTheCursorBeforeTheResize(t *testing.T) {
	m := &Model{width: 100, sized: true}
	m.noteFrame(strings.Repeat("─", 100)+"\n> hi\n"+strings.Repeat("─", 100), tea.NewCursor(4, 1), false)
	filter := rewrapFilter(true)
	size := func(w int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: 40} }
	if got := filter(m, size(120)); got != size(120) {
		t.Fatalf("widening became %#v", got)
	}
	// steps runs a sequence the filter returned: the cursor move it
	// writes, and what the filter makes of the message that follows.
	steps := func(seq tea.Msg) (string, tea.Msg) {
		t.Helper()
		v := reflect.ValueOf(seq)
		if v.Kind() != reflect.Slice || v.Len() != 2 {
			t.Fatalf("got %#v, want a sequence of two commands", seq)
		}
		raw, ok := v.Index(0).Interface().(tea.Cmd)().(tea.RawMsg)
		if !ok {
			t.Fatalf("first message is not raw output")
		}
		return fmt.Sprint(raw.Msg), v.Index(1).Interface().(tea.Cmd)()
	}
	move, next := steps(filter(m, size(50)))
	if move != "\x1b[A" {
		t.Fatalf("move %q, want one row up", move)
	}
	// Narrower still before the first size is handed on: held back.
	if got := filter(m, size(30)); got != nil {
		t.Fatalf("a size during the hand-on became %#v, want it held", got)
	}
	move, next = steps(filter(m, next))
	if move != "\x1b[2A" {
		t.Fatalf("second move %q, want two more rows up (100 columns make 2 rows on 50, 4 on 30)", move)
	}
	if got := filter(m, next); got != size(30) {
		t.Fatalf("handed on %#v, want the last size", got)
	}
	// Back to the width drawn at before the hand-on ends: back down.
	m.noteFrame(strings.Repeat("─", 100)+"\n> hi", tea.NewCursor(4, 1), false)
	_, next = steps(filter(m, size(50)))
	filter(m, size(100))
	if move, next = steps(filter(m, next)); move != "\x1b[B" {
		t.Fatalf("move %q, want one row down", move)
	}
	if got := filter(m, next); got != size(100) {
		t.Fatalf("handed on %#v", got)
	}
	// Without a rewrapping terminal the size passes straight through.
	if got := rewrapFilter(false)(m, size(50)); got != size(50) {
		t.Fatalf("without rewrapping: %#v", got)
	}
}

func TestQA6TerminalRewraps(t *testing.T) {
	for env, want := range map[string]bool{
		"TERM=xterm-256color":                          true,
		"TERM=tmux-256color TMUX=/tmp/x":               true,
		"TERM=xterm-256color XTERM_VERSION=XTerm(390)": false,
		"TERM=linux":            false,
		"TERM=screen STY=1.pts": false,
		"TERM=st-256color":      false,
	} {
		vars := map[string]string{}
		for _, kv := range strings.Fields(env) {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		if got := terminalRewraps(func(k string) string { return vars[k] }); got != want {
			t.Errorf("%s: %v, want %v", env, got, want)
		}
	}
}

// Ctrl+D in a prompt that holds text deletes the character under the
// cursor, as in a shell; it did nothing (only an empty prompt exits).
func TestQA6CtrlDDeletesForwardInAFilledPrompt(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("hello")
	h.key("ctrl+a")
	h.key("ctrl+d")
	h.key("ctrl+d")
	h.check("two characters deleted", func(m *Model) bool { return m.ed.value() == "llo" && !m.quitting })
}

// Without a job-control shell Ctrl+Z says why it cannot stop reins
// instead of freezing it (a stop nobody can undo).
func TestQA6CtrlZWithoutJobControlSaysSo(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("draft")
	h.key("ctrl+z")
	h.waitFor("Ctrl+Z needs a shell with job control")
	h.check("the draft stays", func(m *Model) bool { return m.ed.value() == "draft" })
}
