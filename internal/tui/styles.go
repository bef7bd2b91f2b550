package tui

import (
	"charm.land/lipgloss/v2"
)

// styles are the UI's colours and emphasis. With colour off every style
// keeps only bold, faint, italic and reverse.
type styles struct {
	color bool

	user, userBar     lipgloss.Style
	dim, faint, bold  lipgloss.Style
	ok, err, warn     lipgloss.Style
	accent, selected  lipgloss.Style
	toolName, running lipgloss.Style
	added, removed    lipgloss.Style
	addedNo, remNo    lipgloss.Style
	hunk              lipgloss.Style
	rule              lipgloss.Style
	mode              map[string]lipgloss.Style
	todoNow, todoDone lipgloss.Style
	search            lipgloss.Style
}

func newStyles(color bool) styles {
	c := func(fg string) lipgloss.Style {
		if !color {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(lipgloss.Color(fg))
	}
	s := styles{color: color}
	s.user = c("#d0d0d0")
	s.userBar = c("#808080")
	s.dim = c("#8a8a8a")
	s.faint = lipgloss.NewStyle().Faint(true)
	s.bold = lipgloss.NewStyle().Bold(true)
	s.ok = c("#5fd75f")
	s.err = c("#ff5f5f")
	s.warn = c("#ffaf00")
	s.accent = c("#d7875f")
	s.selected = c("#87afff").Bold(true)
	s.toolName = lipgloss.NewStyle().Bold(true)
	s.running = c("#8a8a8a")
	s.added = c("#5fd75f")
	s.removed = c("#ff5f5f")
	if color {
		s.added = lipgloss.NewStyle().Foreground(lipgloss.Color("#d7ffd7")).Background(lipgloss.Color("#1f4f1f"))
		s.removed = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffd7d7")).Background(lipgloss.Color("#5f1f1f"))
	}
	s.addedNo = c("#5fd75f")
	s.remNo = c("#ff5f5f")
	s.hunk = c("#5fafd7")
	s.rule = c("#5f5f5f")
	s.todoNow = c("#87afff").Bold(true)
	s.todoDone = c("#8a8a8a").Strikethrough(color)
	s.search = c("#ffaf00")
	s.mode = map[string]lipgloss.Style{
		"acceptEdits":       c("#af87ff"),
		"plan":              c("#5fafaf"),
		"bypassPermissions": c("#ff5f5f"),
		"dontAsk":           c("#ffaf00"),
		"auto":              c("#d7af5f"),
	}
	return s
}
