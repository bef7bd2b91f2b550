package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/tools/askuser"
)

// otherLabel is the choice that lets the user type an answer.
const otherLabel = "Type something else"

// questionDialog answers AskUserQuestion, one question at a time.
type questionDialog struct {
	a       askMsg
	qs      []askuser.Question
	qi      int
	menu    menu
	picked  map[int]bool // multiSelect: chosen options of the current question
	other   *lineInput   // set while typing an answer
	answers map[string]string
}

func newQuestionDialog(a askMsg) *questionDialog {
	in, err := askuser.Parse(a.q.Input)
	if err != nil {
		return nil
	}
	d := &questionDialog{a: a, qs: in.Questions, answers: map[string]string{}}
	d.load()
	return d
}

func (d *questionDialog) ask() askMsg { return d.a }

// load prepares the menu of the current question.
func (d *questionDialog) load() {
	q := d.qs[d.qi]
	d.menu = menu{}
	for _, o := range q.Options {
		d.menu.items = append(d.menu.items, o.Label)
	}
	d.menu.items = append(d.menu.items, otherLabel)
	d.picked = map[int]bool{}
	d.other = nil
}

func (d *questionDialog) paste(s string) {
	if d.other != nil {
		d.other.paste(s)
	}
}

func (d *questionDialog) key(m *Model, k tea.KeyPressMsg) (bool, tea.Cmd) {
	q := d.qs[d.qi]
	if d.other != nil {
		switch k.String() {
		case "enter":
			if v := d.other.value(); v != "" {
				if q.MultiSelect {
					// The typed answer joins the options ticked.
					v = strings.Join(append(d.chosen(), v), ", ")
				}
				return d.next(v), nil
			}
		case "esc":
			d.other = nil
		default:
			d.other.key(k)
		}
		return false, nil
	}
	if k.String() == "esc" || k.String() == "ctrl+c" {
		answer(d.a, engine.Answer{Allow: false, Interrupt: true, Message: "The user declined to answer the questions."})
		return true, nil
	}
	otherIdx := len(d.menu.items) - 1
	if q.MultiSelect && (k.String() == "space" || k.Text == " ") {
		if d.menu.sel != otherIdx {
			d.picked[d.menu.sel] = !d.picked[d.menu.sel]
		}
		return false, nil
	}
	i := d.menu.key(k)
	switch {
	case i < 0:
		return false, nil
	case i == otherIdx:
		d.other = &lineInput{}
		return false, nil
	case !q.MultiSelect:
		return d.next(q.Options[i].Label), nil
	}
	// multiSelect: a digit toggles; Enter confirms (the highlighted
	// option when none is chosen yet).
	if k.String() != "enter" {
		d.picked[i] = !d.picked[i]
		return false, nil
	}
	if len(d.chosen()) == 0 {
		d.picked[i] = true
	}
	return d.next(strings.Join(d.chosen(), ", ")), nil
}

func (d *questionDialog) chosen() []string {
	var out []string
	for i, o := range d.qs[d.qi].Options {
		if d.picked[i] {
			out = append(out, o.Label)
		}
	}
	return out
}

// next records the answer and moves on; done after the last question.
func (d *questionDialog) next(ans string) bool {
	d.answers[d.qs[d.qi].Question] = ans
	if d.qi+1 < len(d.qs) {
		d.qi++
		d.load()
		return false
	}
	in, err := askuser.WithAnswers(d.a.q.Input, d.answers)
	if err != nil {
		answer(d.a, engine.Answer{Allow: false, Message: err.Error()})
		return true
	}
	answer(d.a, engine.Answer{Allow: true, UpdatedInput: in})
	return true
}

func (d *questionDialog) view(m *Model, width int) string {
	st := &m.st
	q := d.qs[d.qi]
	var b strings.Builder
	if len(d.qs) > 1 {
		b.WriteString(st.dim.Render(fmt.Sprintf("Question %d of %d", d.qi+1, len(d.qs))) + "\n")
	}
	b.WriteString(st.bold.Render(hang("", q.Question, width)) + "\n")
	for i, it := range d.menu.items {
		label := fmt.Sprintf("%d. ", i+1)
		if q.MultiSelect && i < len(q.Options) {
			box := "[ ] "
			if d.picked[i] {
				box = "[x] "
			}
			label += box
		}
		label += it
		line := hang("  ", label, width)
		if i == d.menu.sel {
			line = st.selected.Render(hang("❯ ", label, width))
		}
		b.WriteString(line + "\n")
		if i < len(q.Options) && q.Options[i].Description != "" {
			b.WriteString(st.dim.Render(hang("     ", q.Options[i].Description, width)) + "\n")
		}
	}
	if d.other != nil {
		b.WriteString(d.other.view(st, width, "your answer (enter to send)") + "\n")
	}
	help := "enter to choose · esc to cancel"
	if q.MultiSelect {
		help = "space to select · enter to confirm · esc to cancel"
	}
	b.WriteString(st.dim.Render(cut(help, width)))
	title := q.Header
	if title == "" {
		title = "Question"
	}
	return frame(st, title, b.String(), width)
}
