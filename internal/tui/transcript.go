package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// transcriptView is the full conversation (Ctrl+O) on the alternate
// screen, tool output unabridged. It renders only what is on screen,
// from the bottom up, caching each item's full rendering.
type transcriptView struct {
	up    int // lines scrolled up from the bottom
	cache map[*item]string
	width int
}

func (m *Model) openTranscript() {
	m.transcript = &transcriptView{cache: map[*item]string{}}
}

func (m *Model) transcriptKey(k tea.KeyPressMsg) tea.Cmd {
	t := m.transcript
	page := max(1, m.height-2)
	switch k.String() {
	case "ctrl+o", "esc", "q", "ctrl+c":
		m.transcript = nil
	case "up", "k":
		t.up++
	case "down", "j":
		t.up = max(0, t.up-1)
	case "pgup", "b", "space":
		t.up += page
	case "pgdown", "f":
		t.up = max(0, t.up-page)
	case "end", "G":
		t.up = 0
	case "home", "g":
		t.up = 1 << 30
	}
	return nil
}

// view draws the lines ending t.up lines above the bottom.
func (t *transcriptView) view(m *Model) string {
	w, h := m.width, max(3, m.height-1)
	if t.width != w {
		t.cache, t.width = map[*item]string{}, w
	}
	need := h + t.up
	var lines []string // bottom part, in order
	if wd, ok := m.dialog.(wholeDialog); ok {
		// The question waiting for an answer, whole (its dialog cuts it
		// short).
		if title, body := wd.whole(m, w); body != "" {
			lines = append([]string{"", ruleLine(title, w)}, strings.Split(body, "\n")...)
		}
	}
	items := m.conv.items
	for i := len(items) - 1; i >= 0 && len(lines) < need; i-- {
		it := items[i]
		s, ok := t.cache[it]
		if !ok {
			s = m.r.item(it, w, true)
			if it.kind == kTool && !it.done {
				s = m.r.liveTool(it.tool, w, "…", m.o.Now(), false)
			}
			if it.done {
				t.cache[it] = s
			}
		}
		lines = append(append([]string{""}, strings.Split(s, "\n")...), lines...)
	}
	if t.up > len(lines)-h {
		t.up = max(0, len(lines)-h)
	}
	end := len(lines) - t.up
	start := max(0, end-h)
	body := lines[start:end]
	for len(body) < h {
		body = append([]string{""}, body...)
	}
	foot := m.st.dim.Render(cut("  transcript · ↑/↓ pgup/pgdn to scroll · ctrl+o or esc to go back", w))
	return strings.Join(body, "\n") + "\n" + foot
}
