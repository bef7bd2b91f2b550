package tui

import "reins/internal/mdrender"

// markdown renders completed assistant text with reins's own Markdown
// renderer (mdrender), which costs nothing at start-up.
type markdown struct {
	color bool
}

// render returns text as terminal Markdown, width columns wide, without
// leading or trailing blank lines or trailing spaces.
func (md *markdown) render(text string, width int) string {
	if width < mdrender.MinWidth {
		width = mdrender.MinWidth
	}
	return mdrender.Render(text, mdrender.Options{Width: width, Color: md.color})
}
