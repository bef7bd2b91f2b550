package tui

import (
	"strings"
	"testing"
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
