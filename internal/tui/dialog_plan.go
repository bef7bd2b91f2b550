package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/tools/plan"
)

// planDialog shows a plan from ExitPlanMode for approval. The choices
// are the modes to go on in (auto mode when it is available, accepting
// edits, approving each one; the mode in force before plan mode when it
// is another), then keeping on planning with feedback for the model. The
// cursor starts on the mode in force before plan mode, so Enter goes
// back to it.
type planDialog struct {
	a        askMsg
	plan     string
	menu     menu
	modes    []string // the mode of each choice; "" keeps planning
	feedback *lineInput
}

// planChoices are the approving choices, in the order shown.
var planChoices = []struct{ mode, label string }{
	{"auto", "Yes, and use auto mode"},
	{"acceptEdits", "Yes, and auto-accept edits"},
	{"default", "Yes, and manually approve edits"},
}

func newPlanDialog(m *Model, a askMsg) *planDialog {
	d := &planDialog{a: a}
	if in, err := plan.ParseExit(a.q.Input); err == nil {
		d.plan = in.Plan
	}
	pre := ""
	if pm, ok := m.o.Mode.(PlanMemory); ok {
		pre = pm.PrePlanMode()
	}
	known := pre == ""
	for _, c := range planChoices {
		if c.mode == "auto" && !m.o.AutoAvailable {
			continue
		}
		known = known || c.mode == pre
		d.menu.items = append(d.menu.items, c.label)
		d.modes = append(d.modes, c.mode)
	}
	if !known {
		// A mode none of the choices names (bypassPermissions, dontAsk):
		// going back to it comes first.
		d.menu.items = append([]string{"Yes, and go back to " + modeName(pre)}, d.menu.items...)
		d.modes = append([]string{pre}, d.modes...)
	}
	d.menu.items = append(d.menu.items, "No, keep planning")
	d.modes = append(d.modes, "")
	for i, mode := range d.modes {
		if mode != "" && mode == pre {
			d.menu.sel = i
		}
	}
	return d
}

// modeName names a permission mode in words.
func modeName(mode string) string {
	switch mode {
	case "bypassPermissions":
		return "bypass permissions"
	case "dontAsk":
		return "don't-ask mode"
	}
	return mode + " mode"
}

func (d *planDialog) ask() askMsg { return d.a }

func (d *planDialog) paste(s string) {
	if d.feedback != nil {
		d.feedback.paste(s)
	}
}

func (d *planDialog) key(m *Model, k tea.KeyPressMsg) (bool, tea.Cmd) {
	if d.feedback != nil {
		switch k.String() {
		case "enter":
			msg := "The user wants you to keep planning."
			if v := d.feedback.value(); v != "" {
				msg += " Their feedback: " + v
			}
			answer(d.a, engine.Answer{Allow: false, Message: msg})
			return true, nil
		case "esc":
			d.feedback = nil
		default:
			d.feedback.key(k)
		}
		return false, nil
	}
	if s := k.String(); s == "esc" || s == "ctrl+c" {
		answer(d.a, engine.Answer{Allow: false, Interrupt: true, Message: "The user stopped to think about the plan."})
		return true, nil
	}
	i := d.menu.key(k)
	if i < 0 {
		return false, nil
	}
	mode := d.modes[i]
	if mode == "" {
		d.feedback = &lineInput{}
		return false, nil
	}
	if m.o.Mode != nil {
		if err := m.o.Mode.SetMode(mode); err != nil {
			m.setHint(err.Error(), 3*time.Second)
			return false, nil
		}
	}
	answer(d.a, engine.Answer{Allow: true, Updates: []engine.Suggestion{{Type: "setMode", Mode: mode, Destination: "session"}}})
	return true, m.refreshStatus()
}

func (d *planDialog) view(m *Model, width int) string {
	var b strings.Builder
	body := m.r.md.render(d.plan, width-2)
	// The head of a plan taller than the room left (the live area above,
	// the choices below); ctrl+o shows it whole.
	room := max(6, m.height-12)
	if lines := strings.Split(body, "\n"); len(lines) > room {
		body = strings.Join(lines[:room], "\n") + "\n" +
			m.st.dim.Render(fmt.Sprintf("… +%d lines (ctrl+o to read the whole plan)", len(lines)-room))
	}
	b.WriteString(indentLines(body, "  "))
	b.WriteString("\n\nWould you like to proceed?\n")
	b.WriteString(d.menu.view(&m.st, width))
	if d.feedback != nil {
		b.WriteString("\n" + d.feedback.view(&m.st, width, "what should change in the plan? (enter to send)"))
	}
	return frame(&m.st, "Ready to code? Here is the plan", b.String(), width)
}

// whole is the plan in full, for the transcript view (ctrl+o).
func (d *planDialog) whole(m *Model, width int) (title, body string) {
	body = m.r.md.render(d.plan, width-2)
	if len(strings.Split(body, "\n")) <= max(6, m.height-12) {
		return "", ""
	}
	return "The plan", indentLines(body, "  ")
}
