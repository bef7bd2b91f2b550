package tui

import (
	"encoding/json"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
)

// planMemoryMode is a ModeSwitcher in plan mode that remembers the mode
// before it.
type planMemoryMode struct {
	fakeMode
	pre string
}

func (p *planMemoryMode) PrePlanMode() string { return p.pre }
func (p *planMemoryMode) PlanEntries() int    { return 1 }

func TestPlanDialogChoices(t *testing.T) {
	for _, tc := range []struct {
		name      string
		pre       string
		auto      bool
		items     []string
		selected  int
		enterMode string
	}{
		{"auto available, from auto", "auto", true,
			[]string{"Yes, and use auto mode", "Yes, and auto-accept edits", "Yes, and manually approve edits", "No, keep planning"}, 0, "auto"},
		{"auto available, from default", "default", true,
			[]string{"Yes, and use auto mode", "Yes, and auto-accept edits", "Yes, and manually approve edits", "No, keep planning"}, 2, "default"},
		{"auto disabled, from acceptEdits", "acceptEdits", false,
			[]string{"Yes, and auto-accept edits", "Yes, and manually approve edits", "No, keep planning"}, 0, "acceptEdits"},
		{"from bypassPermissions", "bypassPermissions", true,
			[]string{"Yes, and go back to bypass permissions", "Yes, and use auto mode", "Yes, and auto-accept edits", "Yes, and manually approve edits", "No, keep planning"}, 0, "bypassPermissions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mode := &planMemoryMode{fakeMode: fakeMode{mode: "plan"}, pre: tc.pre}
			m := &Model{o: Options{Mode: mode, AutoAvailable: tc.auto}}
			a := askMsg{q: engine.Question{ToolName: "ExitPlanMode", Input: json.RawMessage(`{"plan":"1. do it"}`)}, reply: make(chan engine.Answer, 1)}
			d := newPlanDialog(m, a)
			if !slices.Equal(d.menu.items, tc.items) || d.menu.sel != tc.selected {
				t.Fatalf("choices %q with %d selected, want %q with %d", d.menu.items, d.menu.sel, tc.items, tc.selected)
			}
			d.key(m, tea.KeyPressMsg{Code: tea.KeyEnter})
			ans := <-a.reply
			if !ans.Allow || len(ans.Updates) != 1 || ans.Updates[0].Mode != tc.enterMode || mode.Mode() != tc.enterMode {
				t.Errorf("Enter: answer %+v, mode %s; want approval in %s", ans, mode.Mode(), tc.enterMode)
			}
		})
	}
}
