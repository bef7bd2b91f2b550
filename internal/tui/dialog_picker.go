package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// pickItem is one row of a picker.
type pickItem struct {
	label, desc string
}

// pickerDialog lists choices (sessions, prompts, models); typing filters
// the list.
type pickerDialog struct {
	title  string
	items  []pickItem
	shown  []int // indexes of items matching the filter
	sel    int
	filter lineInput
	onPick func(m *Model, i int) tea.Cmd
}

func newPicker(title string, items []pickItem, onPick func(m *Model, i int) tea.Cmd) *pickerDialog {
	p := &pickerDialog{title: title, items: items, onPick: onPick}
	p.refilter()
	return p
}

func (p *pickerDialog) refilter() {
	q := strings.ToLower(p.filter.value())
	p.shown = p.shown[:0]
	for i, it := range p.items {
		if q == "" || strings.Contains(strings.ToLower(it.label+" "+it.desc), q) {
			p.shown = append(p.shown, i)
		}
	}
	p.sel = min(p.sel, max(0, len(p.shown)-1))
}

func (p *pickerDialog) paste(s string) {
	p.filter.paste(s)
	p.refilter()
}

func (p *pickerDialog) key(m *Model, k tea.KeyPressMsg) (bool, tea.Cmd) {
	switch k.String() {
	case "esc", "ctrl+c":
		return true, nil
	case "up", "ctrl+p":
		if p.sel > 0 {
			p.sel--
		}
	case "down", "ctrl+n":
		if p.sel < len(p.shown)-1 {
			p.sel++
		}
	case "pgup":
		p.sel = max(0, p.sel-10)
	case "pgdown":
		p.sel = min(max(0, len(p.shown)-1), p.sel+10)
	case "enter":
		if len(p.shown) == 0 {
			return false, nil
		}
		return true, p.onPick(m, p.shown[p.sel])
	default:
		p.filter.key(k)
		p.refilter()
	}
	return false, nil
}

func (p *pickerDialog) view(m *Model, width int) string {
	st := &m.st
	rows := max(3, min(12, m.height-6))
	first := 0
	if p.sel >= rows {
		first = p.sel - rows + 1
	}
	var b strings.Builder
	for i := first; i < len(p.shown) && i < first+rows; i++ {
		it := p.items[p.shown[i]]
		line := it.label
		if it.desc != "" {
			line += "  " + st.dim.Render(it.desc)
		}
		if i == p.sel {
			b.WriteString(st.selected.Render(cut("❯ "+it.label, width)))
			if it.desc != "" {
				b.WriteString(st.dim.Render(cut("  "+it.desc, max(0, width-len([]rune(it.label))-2))))
			}
		} else {
			b.WriteString(cut("  "+line, width))
		}
		b.WriteString("\n")
	}
	if len(p.shown) == 0 {
		b.WriteString(st.dim.Render("  nothing matches") + "\n")
	}
	b.WriteString(p.filter.view(st, width, "type to filter · enter to choose · esc to cancel"))
	return frame(st, p.title, b.String(), width)
}
