package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/tools/plan"
)

// planDialog shows a plan from ExitPlanMode for approval.
type planDialog struct {
	a        askMsg
	plan     string
	menu     menu
	feedback *lineInput
}

func newPlanDialog(a askMsg) *planDialog {
	d := &planDialog{a: a}
	if in, err := plan.ParseExit(a.q.Input); err == nil {
		d.plan = in.Plan
	}
	d.menu.items = []string{
		"Yes, and auto-accept edits",
		"Yes, and approve each edit",
		"No, keep planning",
	}
	return d
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
	mode := ""
	switch d.menu.key(k) {
	case 0:
		mode = "acceptEdits"
	case 1:
		mode = "default"
	case 2:
		d.feedback = &lineInput{}
		return false, nil
	default:
		return false, nil
	}
	if m.o.Mode != nil {
		m.o.Mode.SetMode(mode)
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
