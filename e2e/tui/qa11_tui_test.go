package tui

import (
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// ruleOfWidth reports whether the visible screen has a rule line of
// exactly w columns, which only a redraw at that width draws (the
// capture joins the rows tmux wrapped, so an old rule stays as wide as
// it was).
func (tt *term) ruleOfWidth(w int) bool {
	for _, l := range strings.Split(tt.visible(), "\n") {
		l = strings.TrimRight(l, " ")
		if l != "" && strings.Trim(l, "─") == "" && len([]rune(l)) == w {
			return true
		}
	}
	return false
}

// Resizing the terminal while the input box sits near the top of the
// screen (a short session) leaves no copy of the old box in the
// scrollback. The redraw erased from the top left corner, which tmux
// takes for a clear screen and pushes the screen into the scrollback
// first: every resize added a copy of the input box and the status line,
// and a later resize brought the copies back onto the screen.
func TestQA11ResizeNearTheTopLeavesNoStaleCopies(t *testing.T) {
	tt := newTerm(t)
	tt.start()
	tt.ready()
	tt.typeText("a draft to keep")
	tt.waitFor("> a draft to keep")
	for _, size := range []struct{ w, h string }{{"60", "40"}, {"100", "40"}, {"70", "40"}, {"100", "40"}} {
		tt.run("resize-window", "-t", "main", "-x", size.w, "-y", size.h)
		w := 0
		for _, c := range size.w {
			w = w*10 + int(c-'0')
		}
		tt.waitUntil("the input box redrawn "+size.w+" columns wide", func(string) bool { return tt.ruleOfWidth(w) })
		if s := tt.screen(); count(s, "> a draft to keep") != 1 {
			t.Fatalf("after the resize to %s columns the input box shows %d times, want once:\n%s", size.w, count(s, "> a draft to keep"), s)
		}
	}
}

// A command's colours show on screen, as in Claude Code, for a Bash call
// and a "!" run alike, while its screen clears, cursor moves and titles
// are still dropped; the model's copy of the "!" output has no escapes.
// Every escape sequence was removed, colours too.
func TestQA11CommandOutputKeepsItsColours(t *testing.T) {
	colourful := `printf '\033[31mred words\033[0m then \033[1;32mbold green\033[0m\n'; printf 'before\033[2J\033[Hafter\n'`
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": colourful, "description": "print colours"})),
		llmtest.Reply("printed them"),
		llmtest.Reply("seen the shell run"),
	)
	tt.start("--allowedTools", "Bash")
	tt.ready()
	tt.prompt("show colours")
	tt.waitFor("printed them")
	tt.prompt("!printf '\\033[34mblue shell\\033[0m plain\\n'")
	tt.waitFor("blue shell plain")
	coloured := tt.run("capture-pane", "-p", "-e", "-t", "main", "-S", "-200")
	for _, want := range []string{"\x1b[31mred words", "\x1b[1m\x1b[32mbold green", "\x1b[34mblue shell"} {
		if !strings.Contains(coloured, want) {
			t.Errorf("the screen lacks %q:\n%q", want, coloured)
		}
	}
	if s := tt.screen(); !strings.Contains(s, "beforeafter") || !strings.Contains(s, "show colours") {
		t.Fatalf("the output's clear screen reached the terminal:\n%s", s)
	}
	tt.prompt("what did it say?")
	r := tt.requests(3)[2]
	h := messageTexts(r)
	if !strings.Contains(h, "<bash-stdout>blue shell plain</bash-stdout>") {
		t.Fatalf("the model's copy of the shell run is not plain text:\n%q", h)
	}
}
