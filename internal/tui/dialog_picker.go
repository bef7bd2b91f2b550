package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
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
	// search, when set, holds for each item more text the filter
	// matches, unshown (a session's first prompt, name and id).
	search []string
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
		text := it.label + " " + it.desc
		if i < len(p.search) {
			text += " " + p.search[i]
		}
		if q == "" || strings.Contains(strings.ToLower(text), q) {
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
	// Descriptions line up after the longest label shown, up to half
	// the width (longer labels are cut).
	col := 0
	for i := first; i < len(p.shown) && i < first+rows; i++ {
		col = max(col, xansi.StringWidth(p.items[p.shown[i]].label))
	}
	col = min(col, max(10, (width-2)/2))
	var b strings.Builder
	for i := first; i < len(p.shown) && i < first+rows; i++ {
		it := p.items[p.shown[i]]
		label := it.label
		if it.desc != "" {
			label = cut(label, col)
			label += strings.Repeat(" ", max(0, col-xansi.StringWidth(label)))
		}
		mark := "  "
		if i == p.sel {
			mark = "❯ "
		}
		line := cut(mark+label, width)
		if i == p.sel {
			line = st.selected.Render(line)
		}
		b.WriteString(line)
		if rest := width - 2 - col - 2; it.desc != "" && rest > 0 {
			b.WriteString(st.dim.Render("  " + cut(it.desc, rest)))
		}
		b.WriteString("\n")
	}
	if len(p.shown) == 0 {
		b.WriteString(st.dim.Render("  nothing matches") + "\n")
	}
	b.WriteString(p.filter.view(st, width, "type to filter · enter to choose · esc to cancel"))
	return frame(st, p.title, b.String(), width)
}
