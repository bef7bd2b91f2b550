package tui

import (
	"strings"

	"charm.land/glamour/v2"
	gstyles "charm.land/glamour/v2/styles"
	xansi "github.com/charmbracelet/x/ansi"
)

// markdown renders completed assistant text. Renderers are made per width
// and kept; a failure falls back to the text wrapped as it is.
type markdown struct {
	color bool
	width int
	r     *glamour.TermRenderer
}

func (md *markdown) renderer(width int) *glamour.TermRenderer {
	if md.r != nil && md.width == width {
		return md.r
	}
	cfg := gstyles.DarkStyleConfig
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	r, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width))
	if err != nil {
		return nil
	}
	md.r, md.width = r, width
	return r
}

// render returns text as terminal Markdown, width columns wide, without
// leading or trailing blank lines.
func (md *markdown) render(text string, width int) string {
	if width < 10 {
		width = 10
	}
	if r := md.renderer(width); r != nil {
		if out, err := r.Render(text); err == nil {
			if !md.color {
				out = xansi.Strip(out)
			}
			return trimBlankLines(out)
		}
	}
	return xansi.Wrap(strings.TrimSpace(text), width, "")
}

// trimBlankLines drops blank lines at both ends and trailing spaces of
// each line (glamour pads lines to the wrap width).
func trimBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = trimRightSpaceANSI(l)
	}
	start, end := 0, len(lines)
	for start < end && xansi.Strip(lines[start]) == "" {
		start++
	}
	for end > start && xansi.Strip(lines[end-1]) == "" {
		end--
	}
	return strings.Join(lines[start:end], "\n")
}

// trimRightSpaceANSI trims trailing spaces, keeping escape sequences that
// follow them (a style reset).
func trimRightSpaceANSI(l string) string {
	plain := xansi.Strip(l)
	trimmed := strings.TrimRight(plain, " ")
	if len(trimmed) == len(plain) {
		return l
	}
	// Cut the styled string to the plain text's trimmed width, then add
	// a reset so no style leaks.
	w := xansi.StringWidth(trimmed)
	out := xansi.Truncate(l, w, "")
	if strings.Contains(l, "\x1b[") {
		out += "\x1b[m"
	}
	return out
}
